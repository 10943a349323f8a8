/** vLLM's production-stack router: its list and /health are its own, whatever its backends do. */
import { type EngineRecord, UNKNOWN_LOG } from './engine-record.js'

export const productionStack: EngineRecord<'production-stack'> = {
  name: 'production-stack',
  label: 'vLLM production-stack router',
  // uvicorn's lines only
  log: UNKNOWN_LOG,
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
    'vllm-project/production-stack@a6c01db0:src/vllm_router/service_discovery.py (static: models listed without the backend)'
  ]
}
