/** LMDeploy's `api_server`: its /health body's status, where a sleeping engine still says 200. */
import { type EngineRecord, readinessRoute, TORCH_FATAL } from './engine-record.js'

export const lmdeploy: EngineRecord<'lmdeploy'> = {
  name: 'lmdeploy',
  label: 'LMDeploy',
  log: {
    // printed three times just before uvicorn.run, once the engine is built (the URL may come in colour codes)
    signature: /HINT: +Please open \S*http:\/\/\S+ in a browser for detailed api usage/,
    ready: /HINT: +Please open \S*http:\/\/\S+ in a browser for detailed api usage/,
    phases: [],
    fatal: TORCH_FATAL
  },
  ownedBy: 'lmdeploy',
  modelLists: ['openai'],
  readiness: [
    // 503 "initializing" until the first probe, 200 "healthy"; 200 also for "sleeping", whose generations get 503
    // (EngineSleepingMiddleware); 503 "unhealthy". A build without the health monitor says 200 with no status.
    readinessRoute({
      path: '/health',
      ready: { statuses: [200], readyOnlyAt: { field: 'status', values: ['healthy'] } },
      because: 'a sleeping LMDeploy answers /health 200 with "status": "sleeping" while its generations get 503'
    })
  ],
  servesOneModel: true,
  generation: ['openai'],
  stream: 'openai',
  sources: [
    'InternLM/lmdeploy@1263d5cd:lmdeploy/serve/openai/endpoints/management.py (/health: 200 for healthy and sleeping)',
    'InternLM/lmdeploy@1263d5cd:lmdeploy/serve/core/health.py (initializing, healthy, unhealthy)',
    'InternLM/lmdeploy@1263d5cd:lmdeploy/serve/utils/server_utils.py (EngineSleepingMiddleware: 503 while sleeping)',
    'InternLM/lmdeploy@1263d5cd:lmdeploy/serve/openai/api_server.py (the engine built before uvicorn.run; the HINT line; port 23333)',
    'InternLM/lmdeploy:lmdeploy/serve/openai/protocol.py (ModelCard owned_by "lmdeploy")',
    '__tests__/fixtures/logs/lmdeploy-1263d5cd.log'
  ]
}
