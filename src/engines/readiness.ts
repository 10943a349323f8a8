/**
 * Reading an engine's own word on readiness (its record's `readiness`, `loadFailure`, `deadAnswer` and
 * `servesOneModel`): the URL of each readiness route, whether an answer says ready, a failed load in Triton's
 * repository index, llama.cpp's router mode (the facts: research notes on model servers, sections 1, 2, 7, 8, 10,
 * 13, 14). An engine with no readiness route says "not ready" in its model list itself. The gate knows an engine by `engine`, its log, or its model list's `owned_by`; none of these is asked of
 * an engine it does not know (an unknown engine costs nothing, and is never waited on longer).
 */
import type { EngineRecord, ReadinessCheck, ReadyAnswer } from './engine-record.js'
import { type Engine, ENGINE_RECORDS } from './index.js'
import { clip } from '../runtime/text.js'

/** A model the index says failed to load, and the engine's reason. */
export interface LoadFailure {
  model: string
  reason: string
}

/**
 * The failed load in a Triton repository index: of `model` when given (any version), else of any model (a
 * server with no model named is not ready while any failed). Undefined: none failed, or not an index.
 */
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

/** Each engine's `pick` of its record, by engine. */
const byEngine = <T>(pick: (r: EngineRecord) => T): Readonly<Record<Engine, T>> =>
  Object.fromEntries(ENGINE_RECORDS.map((r) => [r.name, pick(r)])) as Record<Engine, T>

export const ENGINE_READINESS = byEngine((r) => r.readiness)
export const ENGINE_LOAD_FAILURES = byEngine((r) => r.loadFailure)
/** Three in a row end the wait (`reason=engine-dead`). */
export const DEAD_ENGINE_ANSWERS = byEngine((r) => r.deadAnswer)
/** llama.cpp's router mode, which loads other models when asked, aside (`listsAsRouter`). */
export const SERVES_ONE_MODEL = byEngine((r) => r.servesOneModel)

/** How many dead-engine answers in a row end the wait: one could be a single request's failure. */
export const DEAD_ANSWERS_IN_A_ROW = 3

/**
 * Whether a model list is llama.cpp's router mode's (tools/server/server-models.cpp: each entry has a `status`
 * object, unloaded → loading → loaded): it loads other models when asked, so a list without the model may change.
 */
export function listsAsRouter(json: unknown): boolean {
  const data = (json as { data?: unknown } | null)?.data
  return Array.isArray(data) && data.some((e) => typeof (e as { status?: unknown } | null)?.status === 'object')
}

/** The list paths whose prefix is the server's base (a proxy prefix before them is kept). */
const LIST_PATH =
  /\/(v1\/models(\/[^/]*)?|models|info|api\/tags|api\/ps|v2\/health\/ready|v2\/models\/[^/]+(\/ready)?)\/?$/

/** The server's base for a model-list (or health) `url`: its origin and any proxy prefix before the known path. */
export function serverBase(url: URL): string {
  const m = LIST_PATH.exec(url.pathname)
  return `${url.origin}${m ? url.pathname.slice(0, m.index) : ''}`
}

/** The URL of one readiness `check` for a model-list `url`, naming `model` where the route names one. */
export function readinessCheckUrl(check: ReadinessCheck, url: URL, model: string | undefined): URL {
  const path =
    model === undefined ? (check.withoutModel ?? check.path) : check.path.replace('{model}', encodeURIComponent(model))
  return new URL(`${serverBase(url)}${path}`)
}

/** Whether a readiness answer (`status`, its JSON body) says ready. */
export function saysReady(ready: ReadyAnswer, status: number, json: unknown): boolean {
  if (!ready.statuses.includes(status)) return false
  const not = ready.notReadyWhen
  if (not === undefined || json === null || typeof json !== 'object') return true
  return (json as Record<string, unknown>)[not.field] !== not.value
}
