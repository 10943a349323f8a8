/**
 * Reading what model servers print while they start, from each engine's record (tested against
 * __tests__/fixtures/logs). Line numbers in `[file.py:NNN]` prefixes change every release: no pattern uses them.
 */
import { type EngineLogLines, type Phase } from './engine-record.js'
import { type Engine, ENGINE_RECORDS, ENGINES, LOG_DETECTION_ORDER } from './index.js'

export interface EngineLog extends EngineLogLines {
  engine: Engine
  label: string
}

export const ENGINE_LOGS: readonly EngineLog[] = ENGINE_RECORDS.map((r) => ({
  engine: r.name,
  label: r.label,
  ...r.log
}))

export const engineLog = (engine: Engine): EngineLog => ENGINE_LOGS.find((e) => e.engine === engine) as EngineLog

export const phaseMarkers = (engine: Engine): readonly Phase[] => ENGINES[engine].log.phases

export function engineOfLine(line: string): Engine | undefined {
  return LOG_DETECTION_ORDER.find((e) => ENGINES[e].log.signature.test(line))
}

/** The engine from a `/v1/models` body's `owned_by` (vLLM, SGLang, llama.cpp and Triton's OpenAI front end say so). */
export function engineOfModelList(json: unknown): Engine | undefined {
  const data = (json as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) return undefined
  for (const entry of data) {
    const owner = (entry as { owned_by?: unknown } | null)?.owned_by
    const found = ENGINE_RECORDS.find((r) => r.ownedBy !== undefined && r.ownedBy === owner)
    if (found) return found.name
  }
  return undefined
}

/**
 * The engine an answer's own words (Ray Serve's proxy refusals) or own header (TensorRT-LLM's server state) name,
 * before any list does; bounded text only.
 */
export function engineOfAnswer(body: string, headerNames: readonly string[] = []): Engine | undefined {
  const head = body.slice(0, 1000)
  return ENGINE_RECORDS.find(
    (r) =>
      r.answerSignature?.test(head) === true || (r.answerHeader !== undefined && headerNames.includes(r.answerHeader))
  )?.name
}

/** The engines that list as `named` and that a route of their own tells apart from it (asked in this order). */
export function ownRoutesBehind(named: Engine): { engine: Engine; path: string; answers(json: unknown): boolean }[] {
  return ENGINE_RECORDS.flatMap((r) =>
    r.listsAs === named && r.ownRoute !== undefined ? [{ engine: r.name, ...r.ownRoute }] : []
  )
}

/** The log's engine where the answers name the engine it lists as (they say SGLang, `kt run` started it): exacter. */
export const exacterOf = (answered: Engine | undefined, fromLog: Engine | undefined): Engine | undefined =>
  fromLog !== undefined && ENGINES[fromLog].listsAs === answered ? fromLog : (answered ?? fromLog)

/** The engine's stamp in a line, as milliseconds on the stamp's own scale. */
export function stampOf(log: EngineLogLines, line: string): number | undefined {
  const g = log.stamp?.exec(line)?.groups
  if (g === undefined) return undefined
  const n = (v: string | undefined): number => (v === undefined ? 0 : Number(v))
  const fraction = g.f === undefined ? n(g.ms) + n(g.us) / 1000 : Number(`0.${g.f}`) * 1000
  return (
    Date.UTC(
      g.Y === undefined ? 2000 : n(g.Y),
      g.M === undefined ? 0 : n(g.M) - 1,
      g.D === undefined ? 1 : n(g.D),
      n(g.h),
      n(g.m),
      n(g.s)
    ) + fraction
  )
}

const UNIT_SECONDS: Record<string, number> = { s: 1, ms: 1e-3, µs: 1e-6, ns: 1e-9 }

export const tookSeconds = (groups: Record<string, string | undefined>): number =>
  Number(groups.took) * UNIT_SECONDS[groups.unit ?? 's']

/** tqdm's `mm:ss` or `h:mm:ss` in seconds. */
export const clockSeconds = (text: string): number => text.split(':').reduce((acc, part) => acc * 60 + Number(part), 0)
