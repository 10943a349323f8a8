/**
 * Load on demand (`load: true`): servers that list models they have not loaded, and the request that asks one to
 * load. llama.cpp's router mode lists every model file with `status.value` "unloaded" and loads one on
 * `POST /models/load`; Ollama's `/api/ps` lists the models in memory and a `POST /api/generate` without a prompt
 * loads one (see the research notes on model servers). Data only.
 */
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

/**
 * What asks the server at `url` to load the model, given its last answer; undefined when the answer shows no
 * model waiting to be asked for (loaded, loading, or not a server that loads on demand).
 */
export function loadRequest(url: URL, answer: LoadAnswer, model: string | undefined): LoadRequest | undefined {
  const m = LIST_PATH.exec(url.pathname)
  if (m === null || answer.status !== 200) return undefined
  const base = `${url.origin}${url.pathname.slice(0, m.index)}`
  if (answer.modelState === 'unloaded' && model !== undefined && answer.models !== undefined) {
    // the listed id the assessment found unloaded: the router loads by its own id
    const found = matchModel(
      answer.models.map((id) => ({ id })),
      model
    )
    if (found.kind === 'found') return { url: new URL(`${base}/models/load`), body: { model: found.model.id } }
  }
  // Ollama's models in memory: a model not among them is loaded by a generate request with no prompt; -1 keeps
  // it loaded until the server stops (its default, 5 minutes, could unload it during the benchmark)
  if (m[1] === 'api/ps' && model !== undefined && answer.state === 'waiting' && answer.models !== undefined)
    return { url: new URL(`${base}/api/generate`), body: { model, keep_alive: -1 } }
  return undefined
}
