/**
 * Engine states beyond loading and ready: a sleeping vLLM, a vLLM whose engine core died, a Triton model that failed
 * to load, and a model listed but not loaded until asked (llama.cpp's router mode, Ollama).
 */
import type { SimulatorOptions } from './options.js'
import { CREATED, empty, type EngineName, json, type Phase, type Reply, VLLM_DEAD } from './engines.js'

/** How long vLLM's `POST /wake_up` takes to answer (it answers once the weights are back on the GPU). */
const WAKE_MS = 200

/** The answers these states give, before the engine's own; undefined: the engine answers. */
export function engineStates(
  options: SimulatorOptions,
  startedAt: number
): (method: string, path: string, phase: Phase) => Reply | Promise<Reply> | undefined {
  const { engine, model } = options
  let wokenAt: number | undefined
  const asleep = (): boolean =>
    options.sleepsUntilMs !== undefined && wokenAt === undefined && Date.now() < startedAt + options.sleepsUntilMs
  const dead = (): boolean => options.diesAfterMs !== undefined && Date.now() >= startedAt + options.diesAfterMs
  return (method, path, phase) => {
    // server/routes.go PsHandler: each loaded model's size and the part of it in GPU memory
    if (engine === 'ollama' && options.onGpu !== undefined && path === '/api/ps') {
      const size = 2019393189
      const loaded = { name: model, model, size, size_vram: Math.round(size * options.onGpu) }
      return json({ models: phase === 'ready' ? [loaded] : [] })
    }
    // http_server.py: /health_generate always runs a one-token generation, which fails as every generation does
    if (engine === 'sglang' && options.generationFails === true && path === '/health_generate' && phase === 'ready')
      return empty(503)
    if (engine === 'vllm') {
      // api_server.py (VLLM_SERVER_DEV_MODE=1): the sleep routes; without dev mode they are 404
      if (options.sleepsUntilMs !== undefined && path === '/is_sleeping') return json({ is_sleeping: asleep() })
      if (options.sleepsUntilMs !== undefined && path === '/wake_up' && method === 'POST') {
        return new Promise((resolve) =>
          setTimeout(() => {
            wokenAt ??= Date.now()
            resolve(empty(200))
          }, WAKE_MS)
        )
      }
      // check_health() raises EngineDeadError: /health 503, generations 500 (v1/engine/exceptions.py)
      if (dead() && (path === '/health' || path === '/ping')) return empty(503)
      if (dead() && method === 'POST' && path.startsWith('/v1/')) return VLLM_DEAD
    }
    if (engine === 'triton') {
      // model_repository_manager: a failed load is UNAVAILABLE with the backend's reason
      const failed = options.failsToLoad
      if (path === '/v2/repository/index' && method === 'POST') {
        const state = failed !== undefined ? 'UNAVAILABLE' : phase === 'ready' ? 'READY' : 'LOADING'
        return json([{ name: model, version: '1', state, ...(failed !== undefined ? { reason: failed } : {}) }])
      }
      if (failed !== undefined && path === '/v2/health/ready') return empty(400)
      if (failed !== undefined && path.startsWith(`/v2/models/${encodeURIComponent(model)}`))
        return {
          status: 404,
          body: JSON.stringify({ error: `Request for unknown model: '${model}' has no available versions` })
        }
    }
    return undefined
  }
}

/** Undefined: the engine answers as when ready. A promise: Ollama answers the load request once it is loaded. */
export function lazyLoading(
  engine: EngineName,
  model: string,
  loadMs: number,
  failsToLoad = false
):
  | ((method: string, path: string, request?: Record<string, unknown>) => Reply | Promise<Reply> | undefined)
  | undefined {
  let loadedAt: number | undefined
  const state = (): 'unloaded' | 'loading' | 'loaded' =>
    loadedAt === undefined ? 'unloaded' : Date.now() >= loadedAt ? 'loaded' : 'loading'
  const askLoad = (): number => (loadedAt ??= Date.now() + loadMs)
  // server-models.cpp: an instance that exited non-zero is `unloaded` with its `exit_code` and `failed`
  const routerStatus = (): Record<string, unknown> =>
    failsToLoad && state() === 'loaded' ? { value: 'unloaded', exit_code: 1, failed: true } : { value: state() }
  if (engine === 'llamacpp')
    return (method, path, request) => {
      // router mode: /health is 200 at once whatever the models do
      if (path === '/health') return json({ status: 'ok' })
      if (path === '/v1/models' || path === '/models')
        return json({
          object: 'list',
          data: [{ id: model, object: 'model', owned_by: 'llamacpp', created: CREATED, status: routerStatus() }]
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
