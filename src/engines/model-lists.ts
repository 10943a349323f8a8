/**
 * Model lists as data: one row per answer shape and how an entry says it is still loading; and the one-token
 * generation request for each model-list route. Facts from each engine's source code.
 */
import type { GenerationRouteName, ModelListShapeName } from './engine-record.js'

export interface ListedModel {
  id: string
  /** Listed but not ready yet, in the server's own words. */
  loading?: string
  /** Not loading either: loaded only when asked (`loading` is set too). */
  unloaded?: boolean
  /** Its load failed, in the server's words (llama.cpp's router: `unloaded` with a non-zero `exit_code`). */
  failed?: string
}

interface ModelListShape {
  name: ModelListShapeName
  /** Undefined: not of this shape. */
  read(body: Record<string, unknown>): ListedModel[] | undefined
}

export type Entry = Record<string, unknown>
export const isObject = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v)
const objects = (v: unknown): Entry[] | undefined => (Array.isArray(v) ? v.filter(isObject) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/** An entry's own loading signals: llama.cpp (`meta: null`, router `status.value`), LM Studio (`state`). */
function openAiLoading(entry: Entry): string | undefined {
  if ('meta' in entry && entry.meta === null) return 'listed with "meta": null while the weights load'
  const routerStatus = isObject(entry.status) ? str(entry.status.value) : undefined
  if (routerStatus !== undefined && routerStatus !== 'loaded') return `status "${routerStatus}"`
  const state = str(entry.state)
  if (state !== undefined && state !== 'loaded') return `state "${state}"`
  // mistral.rs: `status` "loaded", "unloaded" or "reloading" (only its own words: another's status says nothing)
  const status = str(entry.status)
  if (status === 'unloaded' || status === 'reloading') return `status "${status}"`
  return undefined
}

/** mistral.rs lists a synthetic `default` entry (no status) beside its models, which carry one: not a model. */
const isSyntheticDefault = (entry: Entry, all: Entry[]): boolean =>
  entry.id === 'default' && entry.status == null && all.some((e) => typeof e.status === 'string')

/**
 * llama.cpp's router: an instance that exited with a non-zero status is `unloaded` with `exit_code` and `failed: true`
 * (a failed load or a crash: the router cannot tell them apart); a model unloaded on purpose has neither.
 */
function routerFailure(entry: Entry): string | undefined {
  const status = isObject(entry.status) ? entry.status : undefined
  if (status === undefined || status.value !== 'unloaded') return undefined
  const code = typeof status.exit_code === 'number' ? status.exit_code : undefined
  if (status.failed !== true && (code === undefined || code === 0)) return undefined
  return code === undefined ? 'failed' : `its instance exited with status ${code}`
}

/** Router `status.value` "unloaded" and LM Studio's `state` "not-loaded": nothing is loading it. */
const openAiUnloaded = (entry: Entry): boolean =>
  (isObject(entry.status) && entry.status.value === 'unloaded') || entry.state === 'not-loaded'

export const MODEL_LIST_SHAPES: readonly ModelListShape[] = [
  {
    name: 'openai',
    // also LM Studio's and Infinity's /v1/models
    read(body) {
      // Ollama's /v1/models says `"data": null` when nothing is pulled yet.
      if (body.data === null && body.object === 'list') return []
      const entries = objects(body.data)
      return entries?.flatMap((e) => {
        const id = str(e.id)
        if (id === undefined || isSyntheticDefault(e, entries)) return []
        const loading = openAiLoading(e)
        const failed = routerFailure(e)
        if (failed !== undefined) return [{ id, loading: `status "unloaded"`, failed }]
        return [loading === undefined ? { id } : { id, loading, ...(openAiUnloaded(e) ? { unloaded: true } : {}) }]
      })
    }
  },
  {
    name: 'ollama',
    // /api/tags and /api/ps
    read: (body) => namedEntries(body.models, 'name')
  },
  {
    name: 'torchserve',
    // TorchServe's /models
    read: (body) => namedEntries(body.models, 'modelName')
  },
  {
    name: 'kserve-v1-list',
    // KServe v1's /v1/models
    read: (body) =>
      Array.isArray(body.models) && body.models.every((m) => typeof m === 'string')
        ? body.models.map((id: string) => ({ id }))
        : undefined
  },
  {
    name: 'tgi-info',
    // TGI's and TEI's /info
    read(body) {
      const ids = [str(body.model_id), str(body.served_model_name)].filter((id): id is string => id !== undefined)
      return ids.length === 0 ? undefined : [...new Set(ids)].map((id) => ({ id }))
    }
  },
  {
    name: 'model-status',
    // KServe v1/v2 /v2/models/<name>/ready, Triton's and KServe v2's model metadata
    read(body) {
      const id = str(body.name)
      // A `name` alone says nothing (error objects carry one too): these endpoints also say `ready` or describe the model.
      const describes =
        typeof body.ready === 'boolean' ||
        typeof body.platform === 'string' ||
        Array.isArray(body.versions) ||
        Array.isArray(body.inputs)
      if (id === undefined || !describes) return undefined
      return [{ id, loading: body.ready === false ? '"ready": false' : undefined }]
    }
  }
]

function namedEntries(list: unknown, key: string): ListedModel[] | undefined {
  const entries = objects(list)
  if (entries === undefined || entries.length === 0 || !entries.some((e) => str(e[key]) !== undefined)) return undefined
  return entries.flatMap((e) => (str(e[key]) === undefined ? [] : [{ id: str(e[key]) as string }]))
}

/** An error in a 200's clothing: `{"object": "error"}` (vLLM, SGLang) or an `error` (Ollama, TGI, llama.cpp). */
const isErrorObject = (o: Entry): boolean => o.object === 'error' || (o.error !== undefined && o.error !== null)

export function readModelList(json: unknown): { shape: string; models: ListedModel[] } | undefined {
  if (!isObject(json) || isErrorObject(json)) return undefined
  for (const shape of MODEL_LIST_SHAPES) {
    const models = shape.read(json)
    if (models !== undefined) return { shape: shape.name, models }
  }
  return undefined
}

interface GenerationRequest {
  path: string
  body(model: string | undefined): Record<string, unknown>
}

/** How to ask a server for one token, chosen by the model-list path `url` ends with. */
export interface GenerationRoute {
  name: GenerationRouteName
  servers: string
  /** What precedes it is the base for `requests` (a proxy prefix is kept). */
  listPath: RegExp
  listPathText: string
  /** The request must name the model (OpenAI, Ollama); TGI's /generate serves its one model. */
  needsModel: boolean
  /** Tried in order: the next is used when the server has no such route (404 or 405). */
  requests: readonly GenerationRequest[]
  completed(json: Entry): boolean
}

/** Whether the body's JSON is a completion in `route`'s format: only that proves the model generated. */
export const isCompletion = (route: GenerationRoute, json: unknown): boolean =>
  isObject(json) && !isErrorObject(json) && route.completed(json)

const PROMPT = 'Hi'

export const GENERATION_ROUTES: readonly GenerationRoute[] = [
  {
    name: 'openai',
    servers: 'vLLM, SGLang, TGI, llama.cpp, LocalAI, NIM, LM Studio, Ollama (/v1)',
    listPath: /\/v1\/models\/?$/,
    listPathText: '/v1/models',
    needsModel: true,
    requests: [
      { path: '/v1/completions', body: (model) => ({ model, prompt: PROMPT, max_tokens: 1 }) },
      // chat-only servers (some NIM and LM Studio builds) have no completions route
      {
        path: '/v1/chat/completions',
        body: (model) => ({ model, messages: [{ role: 'user', content: PROMPT }], max_tokens: 1 })
      }
    ],
    // a completion's choice has `text`, a chat completion's a `message`
    completed: (json) => objects(json.choices)?.some((c) => typeof c.text === 'string' || isObject(c.message)) === true
  },
  {
    name: 'ollama',
    servers: 'Ollama',
    listPath: /\/api\/(tags|ps)\/?$/,
    listPathText: '/api/tags or /api/ps',
    needsModel: true,
    requests: [
      {
        path: '/api/generate',
        body: (model) => ({ model, prompt: PROMPT, stream: false, options: { num_predict: 1 } })
      }
    ],
    completed: (json) => typeof json.response === 'string'
  },
  {
    name: 'tgi',
    servers: 'TGI',
    listPath: /\/info\/?$/,
    listPathText: '/info',
    needsModel: false,
    requests: [{ path: '/generate', body: () => ({ inputs: PROMPT, parameters: { max_new_tokens: 1 } }) }],
    completed: (json) => typeof json.generated_text === 'string'
  }
]

export function generationRoute(url: URL): { route: GenerationRoute; base: string } | undefined {
  for (const route of GENERATION_ROUTES) {
    const m = route.listPath.exec(url.pathname)
    if (m) return { route, base: `${url.origin}${url.pathname.slice(0, m.index)}` }
  }
  return undefined
}
