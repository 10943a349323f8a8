/** vLLM's production-stack router: its list and /health are its own, whatever its backends do. */
import { type EngineRecord, NO_LINE, UNKNOWN_LOG } from './engine-record.js'

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

export const productionStack: EngineRecord<'production-stack'> = {
  name: 'production-stack',
  label: 'vLLM production-stack router',
  log: {
    // its own loggers' format, `[time] LEVEL: message (file.py:line:vllm_router.module)` (log.py build_format; as
    // JSON, `"logger": "vllm_router.…"`), and the routing logic it always says it starts
    signature:
      /\(\w+\.py:\d+:vllm_router\.[\w.]+\)|"logger": "vllm_router\.|Initializing (?:round-robin|session-based|kvaware|prefix-aware|disaggregated prefill(?: orchestrated)?) routing logic/,
    // the router's own start says nothing of its backends: only a generation does
    ready: NO_LINE,
    phases: [],
    // no fatal line of its own was read
    fatal: UNKNOWN_LOG.fatal
  },
  // its entries say vLLM's `owned_by` (protocols.py ModelCard; static discovery's ModelInfo); its /engines route,
  // a list of `{engine_id, serving_models, created}`, is its own (vLLM answers 404)
  listsAs: 'vllm',
  ownRoute: {
    path: '/engines',
    answers: (json) =>
      Array.isArray(json) &&
      json.length > 0 &&
      json.every((e) => isObject(e) && 'engine_id' in e && Array.isArray(e.serving_models))
  },
  modelLists: ['openai'],
  // /health is 200 once its discovery and scraper threads run; in static discovery /v1/models lists the configured
  // models without asking any backend: only a generation routed to a backend proves the model serves
  readiness: [],
  readyNeedsGeneration: true,
  servesOneModel: false,
  generation: ['openai'],
  stream: 'openai',
  sources: [
    'vllm-project/production-stack@a6c01db0:src/vllm_router/routers/main_router.py (/health: the router only)',
    'vllm-project/production-stack@a6c01db0:src/vllm_router/service_discovery.py (static: models listed without the backend)',
    'vllm-project/production-stack@a6c01db0:src/vllm_router/routers/main_router.py (/engines: engine_id, serving_models)',
    'vllm-project/production-stack@a6c01db0:src/vllm_router/protocols.py (ModelCard owned_by "vllm")',
    'vllm-project/production-stack@a6c01db0:src/vllm_router/log.py (build_format, JsonFormatter)',
    'vllm-project/production-stack@a6c01db0:src/vllm_router/routers/routing_logic.py (`Initializing … routing logic`)'
  ]
}
