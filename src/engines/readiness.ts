/**
 * Reading an engine's own word on readiness: its readiness routes' URLs and answers, a failed load in Triton's
 * index, llama.cpp's router mode. Only a known engine is asked: an unknown one is never waited on longer.
 */
import type { EngineRecord, ReadinessCheck, ReadyAnswer } from './engine-record.js'
import { type Engine, ENGINE_RECORDS } from './index.js'
import { clip } from '../runtime/text.js'
import { isObject } from './model-lists.js'

export interface LoadFailure {
  model: string
  reason: string
}

/** The failed load in a Triton repository index, of `model` (any version), or of any model without one. */
export function loadFailureIn(json: unknown, model: string | undefined): LoadFailure | undefined {
  if (!Array.isArray(json)) return undefined
  for (const entry of json as unknown[]) {
    const e = entry as { name?: unknown; state?: unknown; reason?: unknown } | null
    if (e === null || typeof e !== 'object' || e.state !== 'UNAVAILABLE' || typeof e.name !== 'string') continue
    // an unloaded model is UNAVAILABLE too, with the reason "unloaded": not a failure
    const reason = typeof e.reason === 'string' ? e.reason : ''
    if (reason === '' || reason === 'unloaded') continue
    // the engine's words on one line, bounded, and apart from the body they came in
    if (model === undefined || e.name === model) return { model: clip(e.name, 200), reason: clip(reason, 1000) }
  }
  return undefined
}

const byEngine = <T>(pick: (r: EngineRecord) => T): Readonly<Record<Engine, T>> =>
  Object.fromEntries(ENGINE_RECORDS.map((r) => [r.name, pick(r)])) as Record<Engine, T>

export const ENGINE_READINESS = byEngine((r) => r.readiness)
export const ENGINE_LOAD_FAILURES = byEngine((r) => r.loadFailure)
/** Three in a row end the wait (`reason=engine-dead`). */
export const DEAD_ENGINE_ANSWERS = byEngine((r) => r.deadAnswer)
/** Engines that only a real generation proves ready: a generation is asked for whatever `probe-generation` says. */
export const READY_NEEDS_GENERATION = byEngine((r) => r.readyNeedsGeneration === true)
/** Engines whose health misses a dead worker node: a server across nodes generates once before it is ready. */
export const ACROSS_NODES_NEEDS_GENERATION = byEngine((r) => r.log.ranks?.healthMissesWorkers === true)
/** llama.cpp's router mode, which loads other models when asked, aside (`listsAsRouter`). */
export const SERVES_ONE_MODEL = byEngine((r) => r.servesOneModel)

/** How many dead-engine answers in a row end the wait: one could be a single request's failure. */
export const DEAD_ANSWERS_IN_A_ROW = 3

/** llama.cpp's router mode (tools/server/server-models.cpp: a `status` per entry) loads other models when asked. */
export function listsAsRouter(json: unknown): boolean {
  const data = (json as { data?: unknown } | null)?.data
  return Array.isArray(data) && data.some((e) => typeof (e as { status?: unknown } | null)?.status === 'object')
}

/** What precedes these is the server's base (a proxy prefix is kept). */
const LIST_PATH =
  /\/(v3\/(v1\/)?models|v1\/models(\/[^/]*)?|models|info|api\/tags|api\/ps|v2\/health\/ready|v2\/models\/[^/]+(\/ready)?)\/?$/

export function serverBase(url: URL): string {
  const m = LIST_PATH.exec(url.pathname)
  return `${url.origin}${m ? url.pathname.slice(0, m.index) : ''}`
}

export function readinessCheckUrl(check: ReadinessCheck, url: URL, model: string | undefined): URL {
  const path =
    model === undefined ? (check.withoutModel ?? check.path) : check.path.replace('{model}', encodeURIComponent(model))
  return new URL(`${serverBase(url)}${path}`)
}

export function saysReady(ready: ReadyAnswer, status: number, json: unknown, model?: string): boolean {
  if (!ready.statuses.includes(status)) return false
  const entry = ready.entryReady
  if (entry !== undefined) {
    const entries = Array.isArray(json) ? (json as unknown[]).filter(isObject) : []
    // without a model, every entry (and at least one) must say so
    const own = model === undefined ? entries : entries.filter((e) => e[entry.key] === model)
    if (own.length === 0 || own.some((e) => e[entry.field] !== entry.value)) return false
  }
  if (!isObject(json)) return true
  const { notReadyWhen: not, readyOnlyAt: only } = ready
  if (not !== undefined && json[not.field] === not.value) return false
  return only === undefined || !(only.field in json) || only.values.includes(json[only.field] as string | boolean)
}
