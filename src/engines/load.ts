/**
 * Load on demand (`load: true`): servers that list models they have not loaded, and the request that asks one to
 * load, as each engine's record says (its `load`): llama.cpp's router mode lists every model file as "unloaded" and
 * loads one by its listed id; Ollama's `/api/ps` lists the models in memory and loads one on a generate request
 * (see the research notes on model servers).
 */
import { ENGINE_RECORDS } from './index.js'
import { matchModel } from './match.js'

/** What of the server's last answer (the wait's judgement of it) tells whether to ask: the fields this reads. */
interface LoadAnswer {
  state: string
  status?: number
  /** The listed model ids. */
  models?: string[]
  /** `unloaded`: the matched model is listed, not loaded, and loads only when asked. */
  modelState?: 'loading' | 'unloaded'
}

export interface LoadRequest {
  url: URL
  body: Record<string, unknown>
}

/** The model-list paths, after which the server's base ends (a proxy prefix before them is kept). */
const LIST_PATH = /\/(v1\/models|models|api\/ps)\/?$/

const LOADS = ENGINE_RECORDS.flatMap((r) => (r.load === undefined ? [] : [r.load]))

/**
 * What asks the server at `url` to load the model, given its last answer; undefined when the answer shows no
 * model waiting to be asked for (loaded, loading, or not a server that loads on demand).
 */
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
