/**
 * Each engine's own word on readiness, as data, from its source or docs (research notes on model servers,
 * sections 1, 2, 7, 8, 10, 13, 14): the answers that must say ready beside the model list, on its origin; the
 * answer that tells a model failed to load; the generation errors of an engine that died; whether it serves one
 * model only. An engine with no entry says "not ready" in its model list itself: TGI opens its port only once
 * ready; llama.cpp answers 503 on every route, its model list included, while it loads; Ollama lists a model only
 * once it is pulled. The gate knows an engine by `engine`, its log, or its model list's `owned_by`; none of these
 * is asked of an engine it does not know (an unknown engine costs nothing, and is never waited on longer).
 */
import type { Engine } from './engine-names.js'
import { clip } from '../runtime/text.js'

/** What a ready answer of a readiness route is. */
export interface ReadyAnswer {
  /** Statuses that say ready (the body may still say otherwise, see `notReadyWhen`). */
  statuses: readonly number[]
  /** A JSON body with this field at this value says "not ready", whatever the status. */
  notReadyWhen?: { field: string; value: boolean }
}

export interface ReadinessCheck {
  /**
   * The route, after the server's base (the model-list URL without its path). `{model}` stands for the model's
   * name (the listed id the wait matched, else `model`), URL-encoded; `withoutModel` is asked when no name is known.
   */
  path: string
  withoutModel?: string
  method: 'GET' | 'POST'
  ready: ReadyAnswer
  /** At least this long between two of these requests to one server (the request itself is costly). */
  minGapMs: number
  /** At most one of these requests in flight to one server at a time. */
  oneAtATime: boolean
  /** Statuses that, after this route said ready, say the engine died (`reason=engine-dead`). */
  deadAfterReady?: readonly number[]
  /** With `load: true`, a not-ready answer is woken once by this request (`POST`). */
  wake?: string
  /** Why it is needed, for the docs and the debug log. */
  because: string
}

const OK: ReadyAnswer = { statuses: [200] }

/** One list per engine (the compiler holds the table to ENGINE_NAMES), asked in order once the model is listed. */
export const ENGINE_READINESS: Readonly<Record<Engine, readonly ReadinessCheck[]>> = {
  vllm: [
    // api_server.py / serve/sleep: `/is_sleeping` → {"is_sleeping": bool}, a route only with VLLM_SERVER_DEV_MODE=1
    // (404 without it: such a vLLM cannot sleep). A sleeping vLLM lists its model and /health says 200.
    // `POST /wake_up` wakes it (its `tags` query left out: all of it). Re-read at v0.14.0 and v0.15.0 (the
    // source docs.vllm.ai publishes per tag; docs/endpoints.md): unchanged.
    {
      path: '/is_sleeping',
      method: 'GET',
      ready: { statuses: [200, 404], notReadyWhen: { field: 'is_sleeping', value: true } },
      minGapMs: 0,
      oneAtATime: false,
      wake: '/wake_up',
      because: 'a sleeping vLLM (sleep mode) lists its model and its /health says 200'
    },
    // serve/instrumentator/health.py: `check_health()` raises EngineDeadError once the engine core died: 503
    // since PR #24897 (2025-09; so at v0.15.0 and v0.17.1), 500 in earlier V1 builds (launcher's
    // runtime_exception_handler). It is a flag check, no forward pass: cheap. A 404 is no word either way (a
    // proxy that passes only /v1, a server that is vLLM-like but not vLLM): the wait then goes by the model list
    // alone, as it would knowing nothing.
    {
      path: '/health',
      method: 'GET',
      ready: { statuses: [200, 404] },
      minGapMs: 0,
      oneAtATime: false,
      deadAfterReady: [500, 503],
      because: "vLLM's /health turns 503 when its engine core dies, while /v1/models keeps listing the model"
    }
  ],
  // http_server.py: /v1/models has no status check; /health answers 503 while ServerStatus is Starting (the
  // warm-up request runs then) since PR #8444 (2025-07); older SGLang answers 200 there at once, which costs
  // nothing. Past Starting, /health and /health_generate are one handler that runs a one-token generation and
  // waits for it in 1 s sleeps: every call costs about a second of the engine's time, so never two at once and
  // never more often than once a second. Re-read (docs/endpoints.md; not tied to a release): with no answer in
  // SGLANG_HEALTH_CHECK_TIMEOUT (20 s) it says 503 and UnHealthy, 200 again at the next answer (so no
  // deadAfterReady); SGLANG_ENABLE_HEALTH_ENDPOINT_GENERATION=false (default true) makes /health a plain 200.
  sglang: [
    {
      path: '/health',
      method: 'GET',
      ready: OK,
      minGapMs: 1_000,
      oneAtATime: true,
      because: 'SGLang lists its model during its warm-up, while its /health answers 503 until the warm-up ends'
    }
  ],
  tgi: [],
  ollama: [],
  llamacpp: [],
  // http_server.cc: GET /v2/models/{m}/ready → 200 once a version is READY, 400 "Model version not ready" or
  // 404 "... has no available versions" while loading; /v2/health/ready → 200, or 400 while any model is not.
  triton: [
    {
      path: '/v2/models/{model}/ready',
      withoutModel: '/v2/health/ready',
      method: 'GET',
      ready: OK,
      minGapMs: 0,
      oneAtATime: false,
      because: 'Triton loads models at run time in explicit mode, and answers before they are ready'
    }
  ],
  // NIM for LLMs docs ("Health checks"): /v1/health/live is nginx's and 200 at once; /v1/health/ready answers
  // 503 during the model's download and initialisation, 200 once the backend's health passes.
  nim: [
    {
      path: '/v1/health/ready',
      method: 'GET',
      ready: OK,
      minGapMs: 0,
      oneAtATime: false,
      because:
        'NIM answers (nginx) before its model is downloaded and initialised; /v1/health/ready says 503 until then'
    }
  ],
  // core/http/routes/health.go (PR #10989, 2026-07): /readyz → 503 {"status":"starting"} until the startup
  // preload ends, then 200; /v1/models lists configured models, loaded or not. Before that PR /readyz was 200
  // always, which costs nothing.
  localai: [
    {
      path: '/readyz',
      method: 'GET',
      ready: OK,
      minGapMs: 0,
      oneAtATime: false,
      because: 'LocalAI lists its configured models while its startup preload still runs; /readyz says 503 until then'
    }
  ],
  // kserve/protocol/rest/v2_endpoints.py: /v2/models/{name}/ready → {"name":..,"ready":true}, or 503 while
  // not ready; /v2/health/ready is unconditional in the Python server (asked only when no model is named).
  kserve: [
    {
      path: '/v2/models/{model}/ready',
      withoutModel: '/v2/health/ready',
      method: 'GET',
      ready: { statuses: [200], notReadyWhen: { field: 'ready', value: false } },
      minGapMs: 0,
      oneAtATime: false,
      because: "KServe's Open Inference Protocol says a model is ready in /v2/models/{name}/ready"
    }
  ]
}

/** An answer that says a model failed to load: it will not heal by itself (`reason=load-failed`). */
export interface LoadFailureCheck {
  path: string
  method: 'POST'
  minGapMs: number
  because: string
}

/**
 * Triton's repository index (model_repository_manager / http_server.cc `HandleRepositoryIndex`): `POST
 * /v2/repository/index` → [{"name","version","state":"READY"|"UNAVAILABLE"|"LOADING"…,"reason"}]; UNAVAILABLE
 * with a reason is a failed load (with --exit-on-error=false, or a load asked at run time). Asked while the
 * answer is not ready, at most once a second.
 */
export const ENGINE_LOAD_FAILURES: Readonly<Partial<Record<Engine, LoadFailureCheck>>> = {
  triton: {
    path: '/v2/repository/index',
    method: 'POST',
    minGapMs: 1_000,
    because: "Triton's repository index names a model that failed to load as UNAVAILABLE, with the reason"
  }
}

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

/**
 * The words of an engine's generation answers once its engine died: three in a row end the wait
 * (`reason=engine-dead`). vLLM (v1/engine/exceptions.py): EngineDeadError, "EngineCore encountered an issue. See
 * stack trace (above) for the root cause.", in a 500 from every generation route. SGLang has none: a scheduler or
 * detokenizer that dies sends SIGQUIT to the server, which kills its process tree ("Received sigquit from a child
 * process", entrypoints/engine.py): the port closes, and `start` sees the exit.
 */
export const DEAD_ENGINE_ANSWERS: Readonly<Partial<Record<Engine, RegExp>>> = {
  vllm: /EngineCore encountered an issue|EngineDeadError/
}

/** How many dead-engine answers in a row end the wait: one could be a single request's failure. */
export const DEAD_ANSWERS_IN_A_ROW = 3

/**
 * Engines that serve the models they were started with and no other (vLLM, SGLang, TGI, llama.cpp outside its
 * router mode): a list without the expected model will not change. Ollama, LocalAI, Triton, KServe, NIM's
 * LoRA and llama.cpp's router mode list what is pulled or loaded, which changes.
 */
export const SERVES_ONE_MODEL: Readonly<Record<Engine, boolean>> = {
  vllm: true,
  sglang: true,
  tgi: true,
  ollama: false,
  llamacpp: true,
  triton: false,
  nim: false,
  localai: false,
  kserve: false
}

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
