/** Load on demand (`load: true`): the request that asks a server to load the model, from each record's `load`. */
import { ENGINE_RECORDS } from './index.js'
import { matchModel } from './match.js'

/** The fields of the wait's judgement of the last answer this reads. */
interface LoadAnswer {
  state: string
  status?: number
  models?: string[]
  modelState?: 'loading' | 'unloaded'
}

export interface LoadRequest {
  url: URL
  body: Record<string, unknown>
}

/** What precedes these is the server's base (a proxy prefix is kept). */
const LIST_PATH = /\/(v1\/models|models|api\/ps)\/?$/

const LOADS = ENGINE_RECORDS.flatMap((r) => (r.load === undefined ? [] : [r.load]))

/** Undefined when the answer shows no model waiting to be asked for. */
export function loadRequest(url: URL, answer: LoadAnswer, model: string | undefined): LoadRequest | undefined {
  const m = LIST_PATH.exec(url.pathname)
  if (m === null || answer.status !== 200 || model === undefined || answer.models === undefined) return undefined
  const base = `${url.origin}${url.pathname.slice(0, m.index)}`
  const unloaded = LOADS.find((l) => l.when === 'unloaded')
  if (unloaded !== undefined && answer.modelState === 'unloaded') {
    // the listed id the assessment found unloaded: the server loads by its own id
    const found = matchModel(
      answer.models.map((id) => ({ id })),
      model
    )
    if (found.kind === 'found') return { url: new URL(`${base}${unloaded.path}`), body: unloaded.body(found.model.id) }
  }
  const absent = LOADS.find((l) => l.when === 'absent' && l.listPath === m[1])
  if (absent !== undefined && answer.state === 'waiting')
    return { url: new URL(`${base}${absent.path}`), body: absent.body(model) }
  return undefined
}
