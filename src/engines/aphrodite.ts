/** Aphrodite (a vLLM fork, port 2242): vLLM's readiness, its own lines. */
import { type EngineRecord, readinessRoute, TORCH_FATAL } from './engine-record.js'

export const aphrodite: EngineRecord<'aphrodite'> = {
  name: 'aphrodite',
  label: 'Aphrodite',
  log: {
    signature: /Starting Aphrodite server on /,
    stamp:
      /\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) (?<M>\d\d)-(?<D>\d\d) (?<h>\d\d):(?<m>\d\d):(?<s>\d\d)(?:\.(?<f>\d+))? /,
    ready: /Application startup complete/,
    phases: [{ phase: 'starting server', start: /Starting Aphrodite server on / }],
    fatal: TORCH_FATAL
  },
  ownedBy: 'pygmalionai',
  modelLists: ['openai'],
  readiness: [
    // 200, or 503 on EngineDeadError, as vLLM's
    readinessRoute({
      path: '/health',
      ready: { statuses: [200, 404] },
      deadAfterReady: [500, 503],
      because: "Aphrodite's /health turns 503 when its engine dies, while /v1/models keeps listing the model"
    })
  ],
  servesOneModel: true,
  generation: ['openai'],
  stream: 'openai',
  sources: [
    'aphrodite-engine/aphrodite-engine@b42eeec2:aphrodite/entrypoints/openai/cli_args.py (port 2242)',
    'aphrodite-engine/aphrodite-engine@b42eeec2:aphrodite/entrypoints/openai/api_server.py (`Starting Aphrodite server on %s`)',
    'aphrodite-engine/aphrodite-engine@b42eeec2:aphrodite/entrypoints/serve/instrumentator/health.py (/health 503 on EngineDeadError)',
    'aphrodite-engine/aphrodite-engine:aphrodite/endpoints/openai/protocol.py (ModelCard owned_by "pygmalionai")',
    '__tests__/fixtures/logs/aphrodite-b42eeec2.log'
  ]
}
