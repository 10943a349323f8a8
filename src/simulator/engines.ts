/** Each engine's own answers, while loading and once ready, as its source shapes them, and when its port opens. */

export type Phase = 'loading' | 'ready'
export interface Reply {
  status: number
  body?: unknown
  type?: string
  headers?: Record<string, string>
}

export const json = (body: unknown, status = 200): Reply => ({ status, body, type: 'application/json' })
export const empty = (status: number): Reply => ({ status })

export const CREATED = 1767225600

export interface SimulatedEngine {
  /** When the port opens, as a fraction of the load time: 1 = only once ready. */
  opensAt: number
  /** `share`: how much of the load has passed, 0 to 1 (an engine with stages within its load). */
  reply(path: string, phase: Phase, model: string, share?: number): Reply | undefined
  /** Undefined: not a generation served in this phase (`reply` answers); `fails`: as a wedged engine does. */
  generate?(
    path: string,
    phase: Phase,
    model: string,
    request: Record<string, unknown>,
    fails: boolean,
    share?: number
  ): Reply | undefined
  /** FastAPI's when not given. */
  notFound?: Reply
}

const openAiList = (model: string, ownedBy: string, extra: Record<string, unknown> = {}): Reply =>
  json({
    object: 'list',
    data: [{ id: model, object: 'model', created: 1767225600, owned_by: ownedBy, root: model, ...extra }]
  })

const USAGE = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
const OPENAI_ROUTES = new Set(['/v1/completions', '/v1/chat/completions'])

/** vLLM's and SGLang's one-token answers (`max_tokens: 1` stops at the length). */
function openAiCompletion(path: string, model: string): Reply {
  return path === '/v1/completions'
    ? json({
        id: 'cmpl-simulated',
        object: 'text_completion',
        created: CREATED,
        model,
        choices: [{ index: 0, text: ' there', logprobs: null, finish_reason: 'length' }],
        usage: USAGE
      })
    : json({
        id: 'chatcmpl-simulated',
        object: 'chat.completion',
        created: CREATED,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'length' }],
        usage: USAGE
      })
}

/** The completion when ready; the engine's own error for a model it does not serve and, with `fails`, for all. */
function openAiGenerate(
  failure: Reply,
  unknown: (name: string) => Reply,
  servesWhileLoading = false
): NonNullable<SimulatedEngine['generate']> {
  return (path, phase, model, request, fails) => {
    if (!OPENAI_ROUTES.has(path) || (phase === 'loading' && !servesWhileLoading)) return undefined
    if (request.model !== model) return unknown(String(request.model))
    return fails ? failure : openAiCompletion(path, model)
  }
}

// Each engine's error for a failing generation, as its source shapes it (model-servers.md).
export const VLLM_DEAD = json(
  {
    error: {
      message: 'EngineCore encountered an issue. See stack trace (above) for the root cause.',
      type: 'InternalServerError',
      param: null,
      code: 500
    }
  },
  500
)
const vllmUnknown = (name: string): Reply =>
  json(
    { error: { message: `The model \`${name}\` does not exist.`, type: 'NotFoundError', param: 'model', code: 404 } },
    404
  )
const SGLANG_FAILED = json(
  {
    object: 'error',
    message: 'Internal server error: the scheduler is not responding',
    type: 'InternalServerError',
    param: null,
    code: 500
  },
  500
)
const sglangUnknown = (name: string): Reply =>
  json(
    {
      object: 'error',
      message: `The model '${name}' does not exist`,
      type: 'NotFoundError',
      param: 'model',
      code: 404
    },
    404
  )
const LLAMACPP_FAILED = json(
  { error: { code: 500, message: 'Compute error: failed to decode the batch', type: 'server_error' } },
  500
)
const llamacppUnknown = (name: string): Reply =>
  json({ error: { code: 400, message: `model '${name}' not found`, type: 'invalid_request_error' } }, 400)
const TGI_FAILED = json(
  { error: 'Request failed during generation: Server error: CUDA out of memory', error_type: 'generation' },
  424
)
const OLLAMA_FAILED = json({ error: 'llama runner process has terminated: exit status 2' }, 500)
const ollamaUnknown = (name: string): Reply => json({ error: `model '${name}' not found` }, 404)
const OPENAI_FAILED = json({ error: { message: 'Internal server error', type: 'server_error', code: 500 } }, 500)
const openaiUnknown = (name: string): Reply =>
  json({ error: { message: `model '${name}' not found`, type: 'invalid_request_error', code: 404 } }, 404)

export const SIMULATED_ENGINES = {
  // vLLM binds its socket without listening until the engine is built: refused for the whole load.
  vllm: {
    opensAt: 1,
    reply: (path, _phase, model) =>
      path === '/health' || path === '/ping'
        ? empty(200)
        : path === '/v1/models'
          ? openAiList(model, 'vllm', { max_model_len: 262144 })
          : path === '/version'
            ? json({ version: '0.11.0' })
            : undefined,
    generate: openAiGenerate(VLLM_DEAD, vllmUnknown)
  },
  // vLLM's data-parallel supervisor (`--data-parallel-multi-port-external-lb`, dp_supervisor.py): its own port
  // serves only /health, /ready and /readyz, an empty 503 until every child API server's /health says 200, then 200;
  // the children serve on ports of their own.
  'vllm-dp-supervisor': {
    opensAt: 0,
    reply: (path, phase) =>
      path === '/health' || path === '/ready' || path === '/readyz' ? empty(phase === 'ready' ? 200 : 503) : undefined
  },
  // SGLang opens the port for its warm-up request: /health says 503 while /v1/models already lists.
  sglang: {
    opensAt: 0.9,
    reply(path, phase, model) {
      if (path === '/health' || path === '/health_generate') return empty(phase === 'ready' ? 200 : 503)
      if (path === '/ping') return empty(200)
      if (path === '/v1/models') return openAiList(model, 'sglang', { max_model_len: 262144 })
      // what its own warm-up thread polls before it sends the warm-up request
      if (path === '/model_info' || path === '/get_model_info')
        return json({ model_path: model, tokenizer_path: model, is_generation: true })
      if (path.startsWith('/v1/models/')) {
        const wanted = decodeURIComponent(path.slice('/v1/models/'.length))
        return wanted === model
          ? json({
              id: model,
              object: 'model',
              created: 1767225600,
              owned_by: 'sglang',
              root: model,
              max_model_len: 262144
            })
          : json(
              {
                error: {
                  message: `The model '${wanted}' does not exist`,
                  type: 'invalid_request_error',
                  param: 'model',
                  code: 'model_not_found'
                }
              },
              404
            )
      }
      return undefined
    },
    // The warm-up is a generation request the server sends itself: generation is served during it.
    generate(path, phase, model, request, fails) {
      if (path === '/generate') return fails ? SGLANG_FAILED : json({ text: ' Paris', meta_info: { id: 'simulated' } })
      return openAiGenerate(SGLANG_FAILED, sglangUnknown, true)(path, phase, model, request, fails)
    }
  },
  // llama.cpp serves HTTP before loading; /v1/models lists the model with "meta": null until it is loaded.
  llamacpp: {
    opensAt: 0,
    reply(path, phase, model) {
      if (path === '/v1/models' || path === '/models') {
        const meta = phase === 'ready' ? { vocab_type: 2, n_vocab: 151936, n_ctx_train: 262144 } : null
        return json({
          models: [{ name: model, model }],
          object: 'list',
          data: [{ id: model, object: 'model', created: 1767225600, owned_by: 'llamacpp', meta }]
        })
      }
      if (phase === 'loading') {
        return path === '/'
          ? { status: 503, body: '<html><head><title>Loading model</title></head></html>', type: 'text/html' }
          : json({ error: { message: 'Loading model', type: 'unavailable_error', code: 503 } }, 503)
      }
      return path === '/health' || path === '/v1/health' ? json({ status: 'ok' }) : undefined
    },
    // while loading, generation gets the same 503 as every other route
    generate: openAiGenerate(LLAMACPP_FAILED, llamacppUnknown)
  },
  // TGI binds only after warm-up; `/` and `/ping` are its health route too.
  tgi: {
    opensAt: 1,
    reply: (path, _phase, model) =>
      path === '/health' || path === '/' || path === '/ping'
        ? empty(200)
        : path === '/info'
          ? json({
              model_id: model,
              model_sha: null,
              max_input_tokens: 4095,
              max_total_tokens: 4096,
              router: 'text-generation-router',
              version: '3.3.6'
            })
          : path === '/v1/models'
            ? json({ object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: model }] })
            : undefined,
    // TGI serves its one model whatever the request names
    generate(path, _phase, model, _request, fails) {
      if (path === '/generate') return fails ? TGI_FAILED : json({ generated_text: ' there' })
      return OPENAI_ROUTES.has(path) ? (fails ? TGI_FAILED : openAiCompletion(path, model)) : undefined
    },
    notFound: empty(404)
  },
  // Ollama answers at once and lists a model only once it is pulled; it loads models lazily, so /api/ps
  // (models in memory) stays empty until a request asks for one.
  ollama: {
    opensAt: 0,
    reply(path, phase, model) {
      const ready = phase === 'ready'
      if (path === '/') return { status: 200, body: 'Ollama is running', type: 'text/plain; charset=utf-8' }
      if (path === '/api/version') return json({ version: '0.12.6' })
      if (path === '/api/tags') return json({ models: ready ? [{ name: model, model, size: 2019393189 }] : [] })
      if (path === '/api/ps') return json({ models: [] })
      if (path === '/v1/models') {
        // json.Encoder: `data` is null with no models, and the body ends with a newline
        const data = ready ? [{ id: model, object: 'model', created: 1767225600, owned_by: 'library' }] : null
        return { status: 200, body: `${JSON.stringify({ object: 'list', data })}\n`, type: 'application/json' }
      }
      return undefined
    },
    // a model not pulled yet is not found; a pulled one is loaded by the request itself
    generate(path, phase, model, request, fails) {
      if (path !== '/api/generate' && !OPENAI_ROUTES.has(path)) return undefined
      const name = String(request.model)
      // Ollama resolves a bare name to its :latest tag
      const wanted = name.includes(':') ? name : `${name}:latest`
      if (phase === 'loading' || (wanted !== model && name !== model)) return ollamaUnknown(name)
      if (fails) return OLLAMA_FAILED
      if (path !== '/api/generate') return openAiCompletion(path, model)
      return json({
        model,
        created_at: '2026-01-01T00:00:00.000000000Z',
        response: 'Hi',
        done: true,
        done_reason: 'length'
      })
    },
    notFound: { status: 404, body: '404 page not found', type: 'text/plain' }
  },
  // Triton loads its startup models before it opens any endpoint.
  triton: {
    opensAt: 1,
    reply(path, _phase, model) {
      if (path === '/v2/health/ready' || path === '/v2/health/live') return empty(200)
      const m = /^\/v2\/models\/([^/]+)(?:\/versions\/([^/]+))?(\/ready)?$/.exec(path)
      if (!m) return undefined
      const name = decodeURIComponent(m[1])
      if (name !== model)
        return { status: 400, body: JSON.stringify({ error: `Request for unknown model: '${name}' is not found` }) }
      if (m[2] !== undefined && m[2] !== '1') {
        return {
          status: 400,
          body: JSON.stringify({ error: `Request for unknown model: '${name}' version ${m[2]} is not found` })
        }
      }
      if (m[3]) return empty(200)
      return json({ name: model, versions: ['1'], platform: 'onnxruntime_onnx', inputs: [], outputs: [] })
    },
    // the generate extension: POST /v2/models/<name>/generate
    generate(path, _phase, model, _request, fails) {
      const m = /^\/v2\/models\/([^/]+)\/generate$/.exec(path)
      if (!m) return undefined
      const name = decodeURIComponent(m[1])
      if (name !== model)
        return { status: 400, body: JSON.stringify({ error: `Request for unknown model: '${name}' is not found` }) }
      if (fails) return { status: 400, body: JSON.stringify({ error: 'Failed to process the request(s) for model' }) }
      return json({ model_name: model, model_version: '1', text_output: 'Hi' })
    }
  },
  // NIM for LLMs (docs: "Health checks"): nginx answers at once; /v1/health/live is 200 from the start,
  // /v1/health/ready 503 during the model's download and initialisation; its list is vLLM's, owned_by "system".
  nim: {
    opensAt: 0,
    reply(path, phase, model) {
      if (path === '/v1/health/live') return json({ message: 'Service is live.', object: 'health.response' })
      if (path === '/v1/health/ready')
        return phase === 'ready'
          ? json({ message: 'Service is ready.', object: 'health.response' })
          : json({ message: 'Service is not ready.', object: 'health.response' }, 503)
      if (path === '/v1/models') return openAiList(model, 'system', { max_model_len: 131072 })
      return undefined
    },
    generate: openAiGenerate(VLLM_DEAD, vllmUnknown)
  },
  // LocalAI (core/http/routes/health.go, endpoints/openai/list.go): lists its configured models at once; /readyz
  // says 503 until the startup preload ends (json.Encoder: a newline ends the body).
  localai: {
    opensAt: 0,
    reply(path, phase, model) {
      if (path === '/healthz') return empty(200)
      if (path === '/readyz')
        return phase === 'ready'
          ? empty(200)
          : {
              status: 503,
              body: `${JSON.stringify({ reason: 'startup preload in progress', status: 'starting' })}\n`,
              type: 'application/json'
            }
      if (path === '/v1/models' || path === '/models')
        return {
          status: 200,
          body: `${JSON.stringify({ object: 'list', data: [{ id: model, object: 'model' }] })}\n`,
          type: 'application/json'
        }
      return undefined
    },
    generate: openAiGenerate(OPENAI_FAILED, openaiUnknown)
  },
  // KServe's model server (protocol/rest/v1_endpoints.py, v2_endpoints.py): the v1 list names its models, the
  // v2 /health/ready says true unconditionally, /v2/models/{name}/ready says whether the model is. Its Python
  // server opens the port once load() returned; a model loaded later (or a runtime behind it) answers as here.
  kserve: {
    opensAt: 0,
    reply(path, phase, model) {
      const notReady = json({ error: `Model with name ${model} is not ready.` }, 503)
      if (path === '/v1/models') return json({ models: [model] })
      if (path === '/v2/health/live') return json({ live: true })
      if (path === '/v2/health/ready') return json({ ready: true })
      const m = /^\/v(1|2)\/models\/([^/]+?)(\/ready)?$/.exec(path)
      if (!m) return path === '/' ? json({ status: 'alive' }) : undefined
      const name = decodeURIComponent(m[2])
      if (name !== model) return json({ error: `Model with name ${name} does not exist.` }, 404)
      if (phase !== 'ready' && (m[1] === '1' || m[3] !== undefined)) return notReady
      return m[1] === '1' || m[3] !== undefined
        ? json({ name: model, ready: phase === 'ready' })
        : json({ name: model, versions: [], platform: '', inputs: [], outputs: [] })
    }
  },
  // Dynamo's frontend (lib/llm/src/http/service/health.rs, discovery/model.rs): its initial discovery is done at once
  // (/health "healthy"), the model is listed as soon as a worker registers, and /v1/models/{model}/ready says false
  // until prefill and decode workers are both present; meanwhile generate is not routable (issue #11855: 500, 404).
  dynamo: {
    opensAt: 0,
    reply(path, phase, model) {
      if (path === '/live') return json({ status: 'live' })
      if (path === '/health') return json({ status: 'healthy', endpoints: [], instances: [] })
      if (path === '/v1/models')
        return json({ object: 'list', data: [{ id: model, object: 'object', created: CREATED, owned_by: 'nvidia' }] })
      const m = /^\/v1\/models\/(.+)\/ready$/.exec(path)
      if (m === null) return undefined
      const ready = phase === 'ready' && decodeURIComponent(m[1]) === model
      const missing = ready ? [] : ['decode']
      return json({
        model: decodeURIComponent(m[1]),
        ready,
        ...(ready ? {} : { reason: 'missing worker types: decode' }),
        namespaces: {
          dynamo: {
            ready,
            worker_types: { prefill: { workers: 1, needs: 1 }, decode: { workers: ready ? 1 : 0, needs: 1 } },
            present: ready ? ['prefill', 'decode'] : ['prefill'],
            missing_worker_types: missing
          }
        }
      })
    },
    generate: openAiGenerate(OPENAI_FAILED, openaiUnknown)
  },
  // An older Dynamo frontend (2025 docs, "Health checks"): no per-model ready route; /health says 200 with
  // "status": "unhealthy" ("No endpoints available") until a worker registers, while the model is already listed.
  'dynamo-2025': {
    opensAt: 0,
    reply(path, phase, model) {
      if (path === '/health')
        return phase === 'ready'
          ? json({ status: 'healthy', endpoints: ['dyn://dynamo.backend.generate'] })
          : json({ status: 'unhealthy', message: 'No endpoints available' })
      if (path === '/v1/models')
        return json({ object: 'list', data: [{ id: model, object: 'object', created: CREATED, owned_by: 'nvidia' }] })
      return undefined
    },
    generate: openAiGenerate(OPENAI_FAILED, openaiUnknown),
    notFound: empty(404)
  },
  // trtllm-serve (serve.py launch_server): bound but not listening while the engine builds (refused), as released
  // builds do; then, as the pending readiness.py does, listening with 503 and `x-trtllm-server-state: starting` on
  // every route until ready.
  trtllm: {
    opensAt: 0.5,
    reply(path, phase, model) {
      if (phase === 'loading')
        return {
          ...json({ error: { message: 'Server is starting', type: 'ServiceUnavailable', code: 'starting' } }, 503),
          headers: { 'x-trtllm-server-state': 'starting', 'retry-after': '1' }
        }
      if (path === '/health') return empty(200)
      if (path === '/health_generate') return { status: 200, body: 'Generation health check OK', type: 'text/plain' }
      if (path === '/v1/models') return openAiList(model, 'tensorrt_llm')
      if (path === '/version') return json({ version: '1.2.0' })
      return undefined
    },
    generate: openAiGenerate(OPENAI_FAILED, openaiUnknown)
  },
  // LMDeploy (management.py, server_utils.py): HTTP opens only once its engine is built; here it is asleep until
  // the load ends: /health 200 "sleeping" and /is_sleeping true, while its generations get 503.
  lmdeploy: {
    opensAt: 0.3,
    reply(path, phase, model) {
      if (path === '/health') return json({ status: phase === 'ready' ? 'healthy' : 'sleeping' })
      if (path === '/is_sleeping') return json({ is_sleeping: phase !== 'ready' })
      if (path === '/v1/models') return openAiList(model, 'lmdeploy')
      return undefined
    },
    generate(path, phase, model, request, fails, share) {
      if (phase === 'loading' && OPENAI_ROUTES.has(path))
        return json({ error: 'The engine is sleeping, please wake it up first.' }, 503)
      return openAiGenerate(OPENAI_FAILED, openaiUnknown)(path, phase, model, request, fails, share)
    }
  },
  // mistral.rs (handlers.rs): the synthetic `default` entry, then the model "unloaded" (unloaded at run time),
  // "reloading", then "loaded"; /health is "OK" throughout.
  mistralrs: {
    opensAt: 0,
    reply(path, phase, model, share = 1) {
      if (path === '/health') return { status: 200, body: 'OK', type: 'text/plain; charset=utf-8' }
      if (path !== '/v1/models') return undefined
      const status = phase === 'ready' ? 'loaded' : share < 0.6 ? 'unloaded' : 'reloading'
      const entry = (id: string, extra: Record<string, unknown>) => ({
        id,
        object: 'model',
        created: CREATED,
        owned_by: 'local',
        ...extra
      })
      return json({ object: 'list', data: [entry('default', { status: null }), entry(model, { status })] })
    },
    generate: openAiGenerate(OPENAI_FAILED, openaiUnknown),
    notFound: empty(404)
  },
  // Xinference (worker.py, status_guard.py): up at once; the model is listed once its load() returned, and its
  // replica goes CREATING, LOADING, READY.
  xinference: {
    opensAt: 0,
    reply(path, phase, model, share = 1) {
      if (path === '/status') return json({})
      if (path === '/v1/models') {
        const listed = share >= 0.8 || phase === 'ready'
        const data = listed
          ? [{ id: model, object: 'model', created: 0, owned_by: 'xinference', model_type: 'LLM' }]
          : []
        return json({ object: 'list', data })
      }
      if (path === '/v1/models/instances') {
        const status = phase === 'ready' ? 'READY' : share < 0.3 ? 'CREATING' : 'LOADING'
        return json([
          {
            model_name: model,
            model_uid: model,
            model_version: null,
            model_ability: ['generate', 'chat'],
            replica: 1,
            status,
            instance_created_ts: CREATED
          }
        ])
      }
      return undefined
    },
    generate: openAiGenerate(OPENAI_FAILED, openaiUnknown)
  },
  // OpenVINO Model Server (server.cpp): REST starts before the servable manager, to answer liveness; its list
  // names the configured model, /v2/models/{m}/ready says 503 until the model is AVAILABLE.
  ovms: {
    opensAt: 0,
    reply(path, phase, model) {
      const ready = phase === 'ready'
      if (path === '/v2/health/live') return empty(200)
      if (path === '/v2/health/ready') return empty(ready ? 200 : 503)
      if (path === '/v3/models' || path === '/v3/v1/models' || path === '/v1/models')
        return json({ data: [{ id: model, object: 'model', created: CREATED, owned_by: 'OVMS' }], object: 'list' })
      const m = /^\/v2\/models\/([^/]+)(\/ready)?$/.exec(path)
      if (m === null) return undefined
      if (decodeURIComponent(m[1]) !== model) return json({ error: 'Model with requested name is not found' }, 404)
      if (!ready) return json({ error: 'Model with requested version is not loaded yet' }, 503)
      return m[2] ? empty(200) : json({ name: model, versions: ['1'], platform: 'OpenVINO', inputs: [], outputs: [] })
    },
    generate(path, phase, model, request, fails, share) {
      const openAiPath = path.replace(/^\/v3(?=\/)/, '').replace(/^\/(?=(?:chat\/)?completions$)/, '/v1/')
      return openAiGenerate(OPENAI_FAILED, openaiUnknown)(openAiPath, phase, model, request, fails, share)
    }
  },
  // Ray Serve's proxy (proxy_router.py): 503 "Route table is not populated yet.", then /-/healthz 503 "No replicas
  // are available yet." while the app's routes are not found, then the ingress's list.
  'ray-serve': {
    opensAt: 0,
    reply(path, phase, model, share = 1) {
      const text = (status: number, body: string): Reply => ({ status, body, type: 'text/plain' })
      if (phase === 'loading' && share < 0.4) return text(503, 'Route table is not populated yet.')
      if (path === '/-/healthz')
        return phase === 'ready' ? text(200, 'success') : text(503, 'No replicas are available yet.')
      if (path === '/-/routes') return json(phase === 'ready' ? { '/': 'llm_app' } : {})
      if (phase === 'loading')
        return text(404, `Path '${path}' not found. Ping http://127.0.0.1:8000/-/routes for available routes.`)
      if (path === '/v1/models') return openAiList(model, 'organization-owner')
      return undefined
    },
    generate: openAiGenerate(OPENAI_FAILED, openaiUnknown)
  },
  // production-stack's router (main_router.py, service_discovery.py) in static discovery: its /health and its list
  // at once, whatever its backend does; a generation reaches the backend only once that serves (the router's error
  // for an unreachable backend is not read: any answer that is no completion keeps the gate waiting).
  'production-stack': {
    opensAt: 0,
    reply(path, _phase, model) {
      if (path === '/health') return json({ status: 'healthy' })
      if (path === '/v1/models') return openAiList(model, 'vllm')
      // static discovery's endpoints, whatever they do (main_router.py get_engine_instances)
      if (path === '/engines') return json([{ engine_id: 'a1b2c3d4', serving_models: [model], created: CREATED }])
      return undefined
    },
    generate(path, phase, model, request, fails, share) {
      if (phase === 'loading' && OPENAI_ROUTES.has(path))
        return json({ error: 'Failed to reach the serving engine' }, 503)
      return openAiGenerate(VLLM_DEAD, vllmUnknown)(path, phase, model, request, fails, share)
    }
  },
  // Aphrodite (a vLLM fork; port 2242): vLLM's answers, its own owned_by.
  aphrodite: {
    opensAt: 1,
    reply: (path, _phase, model) =>
      path === '/health' || path === '/ping'
        ? empty(200)
        : path === '/v1/models'
          ? openAiList(model, 'pygmalionai', { max_model_len: 32768 })
          : undefined,
    generate: openAiGenerate(VLLM_DEAD, vllmUnknown)
  },
  // KTransformers: `kt run` execs SGLang's server, which answers as SGLang's does.
  ktransformers: {
    opensAt: 0.9,
    reply: (path: string, phase: Phase, model: string): Reply | undefined =>
      SIMULATED_ENGINES.sglang.reply(path, phase, model),
    generate: (
      path: string,
      phase: Phase,
      model: string,
      request: Record<string, unknown>,
      fails: boolean
    ): Reply | undefined => SIMULATED_ENGINES.sglang.generate(path, phase, model, request, fails)
  },
  // A generic OpenAI-compatible server: refused, then 503 "Loading model" everywhere, then the list.
  openai: {
    opensAt: 0.4,
    reply(path, phase, model) {
      if (phase === 'loading')
        return json({ error: { message: 'Loading model', type: 'unavailable_error', code: 503 } }, 503)
      return path === '/health' ? empty(200) : path === '/v1/models' ? openAiList(model, 'system') : undefined
    },
    generate: openAiGenerate(OPENAI_FAILED, openaiUnknown)
  }
} satisfies Record<string, SimulatedEngine>

export type EngineName = keyof typeof SIMULATED_ENGINES

/** The engine a name gives: its key, or the gate's own spelling (`llama.cpp`), in any case; undefined if none. */
export function simulatedEngine(name: string): EngineName | undefined {
  const key = name.toLowerCase() === 'llama.cpp' ? 'llamacpp' : name.toLowerCase()
  return Object.hasOwn(SIMULATED_ENGINES, key) ? (key as EngineName) : undefined
}
