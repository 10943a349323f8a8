/**
 * A server that lists a model it has not loaded (`unloaded`: llama.cpp's router mode, Ollama): its routes, from
 * unloaded to loading to loaded once the load was asked for.
 */
import { CREATED, type EngineName, json, type Reply } from './engines.js'

/**
 * The routes of a server that lists a model it has not loaded (`unloaded`), answered from when the load was asked
 * for; undefined for a route the engine answers as usual (as ready). A promise: Ollama answers the load request
 * only once the model is loaded.
 */
export function lazyLoading(
  engine: EngineName,
  model: string,
  loadMs: number
):
  | ((method: string, path: string, request?: Record<string, unknown>) => Reply | Promise<Reply> | undefined)
  | undefined {
  let loadedAt: number | undefined
  const state = (): 'unloaded' | 'loading' | 'loaded' =>
    loadedAt === undefined ? 'unloaded' : Date.now() >= loadedAt ? 'loaded' : 'loading'
  const askLoad = (): number => (loadedAt ??= Date.now() + loadMs)
  if (engine === 'llamacpp')
    return (method, path, request) => {
      // router mode: /health is 200 at once whatever the models do
      if (path === '/health') return json({ status: 'ok' })
      if (path === '/v1/models' || path === '/models')
        return json({
          object: 'list',
          data: [{ id: model, object: 'model', owned_by: 'llamacpp', created: CREATED, status: { value: state() } }]
        })
      if (method === 'POST' && path === '/models/load') {
        if (request?.model !== model) return json({ error: { code: 400, message: 'model not found' } }, 400)
        askLoad()
        return json({ success: true })
      }
      return undefined
    }
  if (engine === 'ollama')
    return (method, path, request) => {
      if (path === '/api/tags') return json({ models: [{ name: model, model, size: 2019393189 }] })
      if (path === '/api/ps')
        return json({ models: state() === 'loaded' ? [{ name: model, model, size_vram: 2019393189 }] : [] })
      // a generate request without a prompt only loads the model, and answers once it is loaded
      if (method === 'POST' && path === '/api/generate' && request?.prompt === undefined) {
        const wanted = String(request?.model)
        if ((wanted.includes(':') ? wanted : `${wanted}:latest`) !== model && wanted !== model)
          return json({ error: `model '${wanted}' not found` }, 404)
        const at = askLoad()
        const done = json({ model, created_at: '2026-01-01T00:00:00Z', response: '', done: true, done_reason: 'load' })
        return new Promise((resolve) => setTimeout(() => resolve(done), Math.max(0, at - Date.now())))
      }
      return undefined
    }
  return undefined
}
