/** TensorRT-LLM's `trtllm-serve`: refused while it builds its engine, then ready only when it generates. */
import { type EngineRecord, failure, readinessRoute, UNKNOWN_LOG } from './engine-record.js'

export const trtllm: EngineRecord<'trtllm'> = {
  name: 'trtllm',
  label: 'TensorRT-LLM',
  log: {
    // no line of its own marks its start-up in the source read (uvicorn's only)
    ...UNKNOWN_LOG,
    fatal: [...UNKNOWN_LOG.fatal, failure(/Health check detected fatal engine error, initiating server shutdown/)],
    // trtllm-llmapi-launch, once per MPI rank: rank 0 the leader (it serves), the others workers
    ranks: { joined: /rank(?<rank>\d+) run mgmn (?:leader|worker) node with mpi_world_size: (?<world>\d+)/ }
  },
  ownedBy: 'tensorrt_llm',
  // the pending readiness.py's STARTING answers (503 on every route) carry it
  answerHeader: 'x-trtllm-server-state',
  modelLists: ['openai'],
  // launch_server binds its socket and builds the engine before it listens: refused, like a dead server, while its
  // process lives (a pending change answers 503 with `x-trtllm-server-state: starting` instead; both are waited on).
  readiness: [
    // a chat "hi" with max_completion_tokens=1: 200 "Generation health check OK", or 500; one at a time, paced
    readinessRoute({
      path: '/health_generate',
      minGapMs: 1_000,
      oneAtATime: true,
      because: "trtllm-serve's own readiness is a one-token generation (/health_generate)"
    }),
    // 503 "LLM is unavailable. Please check the server logs for more details." on a fatal executor error, after
    // which it sends itself SIGINT
    readinessRoute({
      path: '/health',
      ready: { statuses: [200, 404] },
      deadAfterReady: [503],
      because: "trtllm-serve's /health turns 503 on a fatal executor error"
    })
  ],
  servesOneModel: true,
  generation: ['openai'],
  stream: 'openai',
  sources: [
    'NVIDIA/TensorRT-LLM:tensorrt_llm/commands/serve.py (launch_server: bind, build, then serve; a stored copy, version not dated)',
    'NVIDIA/TensorRT-LLM:tensorrt_llm/serve/openai_server.py (health, health_generate, get_model; a stored copy, version not dated)',
    'NVIDIA/TensorRT-LLM:tensorrt_llm/serve/openai_protocol.py (ModelCard owned_by "tensorrt_llm")',
    'NVIDIA/TensorRT-LLM@e6c89c08:tensorrt_llm/serve/readiness.py (pending: 503 with x-trtllm-server-state: starting)',
    'NVIDIA/TensorRT-LLM@020c89e6:tensorrt_llm/llmapi/trtllm-llmapi-launch (the mgmn leader and worker lines per MPI rank)',
    'NVIDIA/TensorRT-LLM@000d7718:docs/source/commands/trtllm-serve.rst (the documented endpoints)'
  ]
}
