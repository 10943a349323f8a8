/**
 * Engines that list their model before they can serve, as data: the engine's own readiness answer that must be
 * 200 too, on the same origin as the model list. From each engine's source (see the research notes on model
 * servers). An engine absent here says "not ready" in its model list itself: vLLM, TGI and Triton open their port
 * only once ready; llama.cpp answers 503 on every route, its model list included, while it loads.
 */
import type { Engine } from './engine-names.js'

interface ReadinessCheck {
  /** The engine's own readiness route, after the server's base (the model-list URL without its path). */
  path: string
  /** Why it is needed, for the docs and the debug log. */
  because: string
}

/** One entry per engine (the compiler holds the table to ENGINE_NAMES); undefined: its model list says it all. */
export const ENGINE_READINESS: Readonly<Record<Engine, ReadinessCheck | undefined>> = {
  vllm: undefined,
  // http_server.py: /v1/models has no status check, /health answers 503 while ServerStatus is Starting (the
  // warm-up request runs then) since mid-2025; older SGLang answers 200 there at once, which costs nothing.
  sglang: {
    path: '/health',
    because: 'SGLang lists its model during its warm-up, while its /health answers 503 until the warm-up ends'
  },
  tgi: undefined,
  ollama: undefined,
  llamacpp: undefined,
  triton: undefined
}

/** The list paths whose prefix is the server's base (a proxy prefix before them is kept). */
const LIST_PATH = /\/(v1\/models(\/[^/]*)?|models|info|api\/tags|api\/ps)\/?$/

/** The URL of `engine`'s readiness answer for a model-list `url`, or undefined when the engine needs none. */
export function readinessUrl(engine: Engine | undefined, url: URL): URL | undefined {
  const check = engine === undefined ? undefined : ENGINE_READINESS[engine]
  if (check === undefined) return undefined
  const m = LIST_PATH.exec(url.pathname)
  const base = m ? url.pathname.slice(0, m.index) : ''
  return new URL(`${url.origin}${base}${check.path}`)
}
