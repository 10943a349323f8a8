/** Triton Inference Server: its log lines (JSON-quoted since r24.05), per-model readiness and failed loads. */
import { cause, type EngineRecord, failure, readinessRoute, TORCH_FATAL } from './engine-record.js'

export const triton: EngineRecord<'triton'> = {
  name: 'triton',
  label: 'Triton',
  log: {
    signature: /^[IWE]\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ [\w.]+:\d+\] |Triton Inference Server/,
    stamp: /^[IWE](?<M>\d\d)(?<D>\d\d) (?<h>\d\d):(?<m>\d\d):(?<s>\d\d)\.(?<f>\d+) /,
    ready: /Started HTTPService at/,
    phases: [
      { phase: 'initializing', start: /memory pool is created/ },
      { phase: 'loading model', start: /\] "?loading: \S+:\d+/, end: /successfully loaded '/ },
      { phase: 'starting server', start: /Collecting (?:metrics for GPU|CPU metrics)|Started GRPCInferenceService at/ }
    ],
    fatal: [
      ...TORCH_FATAL,
      cause(/failed to load '[^']*'/),
      cause(/already in use/),
      failure(/error: creating server/),
      // LOG_TRITONSERVER_ERROR(err, "failed to start HTTP service") and the others
      failure(/failed to start (?:GRPC|HTTP|Sagemaker|Vertex AI) service/)
    ]
  },
  // its OpenAI front end's /v1/models says so
  ownedBy: 'Triton Inference Server',
  modelLists: ['model-status', 'openai'],
  // GET /v2/models/{m}/ready → 200 once a version is READY, 400 "Model version not ready" or 404 "... has no
  // available versions" while loading; /v2/health/ready → 200, or 400 while any model is not.
  readiness: [
    readinessRoute({
      path: '/v2/models/{model}/ready',
      withoutModel: '/v2/health/ready',
      because: 'Triton loads models at run time in explicit mode, and answers before they are ready'
    })
  ],
  // `POST /v2/repository/index` → [{"name","version","state":"READY"|"UNAVAILABLE"|"LOADING"…,"reason"}];
  // UNAVAILABLE with a reason is a failed load (with --exit-on-error=false, or a load asked at run time). Asked
  // while the answer is not ready, at most once a second.
  loadFailure: {
    path: '/v2/repository/index',
    method: 'POST',
    minGapMs: 1_000,
    because: "Triton's repository index names a model that failed to load as UNAVAILABLE, with the reason"
  },
  servesOneModel: false,
  generation: [],
  sources: [
    'triton-inference-server/server@e1db8a60:src/main.cc (failed to start … service)',
    'triton-inference-server/server:src/http_server.cc (model and health ready routes, HandleRepositoryIndex)',
    'triton-inference-server/core@73aad7c3:src/model_repository_manager/ (repository index states)',
    '__tests__/fixtures/logs/triton-v2.71.0.log'
  ]
}
