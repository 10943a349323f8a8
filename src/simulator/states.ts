/**
 * Engine states beyond loading and ready, as the engines' source shapes them (see the research notes on model
 * servers, section 14): a sleeping vLLM (sleep mode, dev-mode routes), a vLLM whose engine core died, a Triton
 * model that failed to load, and Triton's repository index.
 */
import type { SimulatorOptions } from './options.js'
import { empty, json, type Phase, type Reply, VLLM_DEAD } from './engines.js'

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
