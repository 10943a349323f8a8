/**
 * What model servers say about their models, as data: one row per answer shape, naming the servers that
 * use it and how each listed entry says it is still loading. Facts from each engine's source code.
 */

export interface ListedModel {
  id: string
  /** Set when the server lists the model but says it is not ready yet, in the server's own words. */
  loading?: string
}

export interface ModelListShape {
  name: string
  servers: string
  /** The listed models, or undefined when the body is not of this shape. */
  read(body: Record<string, unknown>): ListedModel[] | undefined
}

type Entry = Record<string, unknown>
const isObject = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v)
const objects = (v: unknown): Entry[] | undefined => (Array.isArray(v) ? v.filter(isObject) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/** An entry's own loading signals: llama.cpp (`meta: null`, router `status.value`), LM Studio (`state`). */
function openAiLoading(entry: Entry): string | undefined {
  if ('meta' in entry && entry.meta === null) return 'listed with "meta": null while the weights load'
  const routerStatus = isObject(entry.status) ? str(entry.status.value) : undefined
  if (routerStatus !== undefined && routerStatus !== 'loaded') return `status "${routerStatus}"`
  const state = str(entry.state)
  if (state !== undefined && state !== 'loaded') return `state "${state}"`
  return undefined
}

export const MODEL_LIST_SHAPES: readonly ModelListShape[] = [
  {
    name: 'openai',
    servers: 'vLLM, SGLang, TGI, llama.cpp, LocalAI, NIM, LM Studio, Infinity, Ollama /v1/models',
    read(body) {
      // Ollama's /v1/models says `"data": null` when nothing is pulled yet.
      if (body.data === null && body.object === 'list') return []
      return objects(body.data)?.flatMap((e) => {
        const id = str(e.id)
        return id === undefined ? [] : [{ id, loading: openAiLoading(e) }]
      })
    }
  },
  {
    name: 'ollama',
    servers: 'Ollama /api/tags and /api/ps',
    read: (body) => namedEntries(body.models, 'name')
  },
  {
    name: 'torchserve',
    servers: 'TorchServe /models',
    read: (body) => namedEntries(body.models, 'modelName')
  },
  {
    name: 'kserve-v1-list',
    servers: 'KServe v1 /v1/models',
    read: (body) =>
      Array.isArray(body.models) && body.models.every((m) => typeof m === 'string')
        ? body.models.map((id: string) => ({ id }))
        : undefined
  },
  {
    name: 'tgi-info',
    servers: 'TGI and TEI /info',
    read(body) {
      const ids = [str(body.model_id), str(body.served_model_name)].filter((id): id is string => id !== undefined)
      return ids.length === 0 ? undefined : [...new Set(ids)].map((id) => ({ id }))
    }
  },
  {
    name: 'model-status',
    servers: 'KServe v1/v2 /v2/models/<name>/ready, Triton and KServe v2 model metadata',
    read(body) {
      const id = str(body.name)
      if (id === undefined) return undefined
      return [{ id, loading: body.ready === false ? '"ready": false' : undefined }]
    }
  }
]

function namedEntries(list: unknown, key: string): ListedModel[] | undefined {
  const entries = objects(list)
  if (entries === undefined || entries.length === 0 || !entries.some((e) => str(e[key]) !== undefined)) return undefined
  return entries.flatMap((e) => (str(e[key]) === undefined ? [] : [{ id: str(e[key]) as string }]))
}

/** Reads the model list from a JSON body, trying each known shape in turn; undefined when none fits. */
export function readModelList(body: string): { shape: string; models: ListedModel[] } | undefined {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return undefined
  }
  if (!isObject(json)) return undefined
  for (const shape of MODEL_LIST_SHAPES) {
    const models = shape.read(json)
    if (models !== undefined) return { shape: shape.name, models }
  }
  return undefined
}
