/** NVIDIA Dynamo's frontend: its model list runs ahead of its workers; its per-model ready route does not. */
import { type EngineRecord, readinessRoute, TORCH_FATAL } from './engine-record.js'

export const dynamo: EngineRecord<'dynamo'> = {
  name: 'dynamo',
  label: 'NVIDIA Dynamo',
  log: {
    // tracing's target: `dynamo_llm::http::service::service_v2: Starting HTTP(S) service protocol="HTTP" …`
    signature: /\bdynamo_(?:llm|runtime)::/,
    stamp: /^(?<Y>\d{4})-(?<M>\d\d)-(?<D>\d\d)T(?<h>\d\d):(?<m>\d\d):(?<s>\d\d)(?:\.(?<f>\d+))?Z/,
    // the frontend's own start-up ends here; its workers register later, which only its ready route tells
    ready: /Starting HTTP\(S\) service|Starting HTTP service on/,
    phases: [],
    // its workers are vLLM, SGLang or TensorRT-LLM processes: PyTorch's and NCCL's words
    fatal: TORCH_FATAL
  },
  // ModelListing{id, object: "object" (sic), created, owned_by: "nvidia"}: `object` is not required to be "model"
  ownedBy: 'nvidia',
  modelLists: ['openai'],
  readiness: [
    // ModelReadiness{model, ready, reason?, namespaces}: computed as the serving gate is (prefill and decode
    // workers both present). A build without the route answers 404, and its /health decides.
    readinessRoute({
      path: '/v1/models/{model}/ready',
      withoutModel: '/health',
      ready: { statuses: [200, 404], readyOnlyAt: { field: 'ready', values: [true] } },
      because: 'Dynamo lists a model before a worker can serve it; its own tests gate on /v1/models/{model}/ready'
    }),
    // newer: 503 "not_ready" during the initial discovery, then 200 "healthy"; older builds: 200 with "status":
    // "unhealthy" ("No endpoints available") until a worker registered, so the body's status decides
    readinessRoute({
      path: '/health',
      ready: { statuses: [200, 404], readyOnlyAt: { field: 'status', values: ['healthy'] } },
      because: 'an older Dynamo\'s /health says 200 with "status": "unhealthy" until a worker registers'
    })
  ],
  // the frontend discovers models as workers register
  servesOneModel: false,
  generation: ['openai'],
  stream: 'openai',
  sources: [
    'ai-dynamo/dynamo@0ab2b3f5:lib/llm/src/http/service/health.rs (/health not_ready, then healthy; /live)',
    'ai-dynamo/dynamo:lib/llm/src/discovery/model.rs (ModelReadiness; a stored copy, version not dated)',
    'ai-dynamo/dynamo:lib/llm/src/http/service/openai.rs (ListModelOpenAI, object "object", owned_by "nvidia"; a stored copy, version not dated)',
    'https://github.com/ai-dynamo/dynamo/issues/10732, /issues/11855, /issues/14686 (listed before servable)',
    'https://docs.nvidia.com/dynamo/latest/guides/health_check.html (older /health: 200 "unhealthy")',
    'https://github.com/ai-dynamo/dynamo/pull/532 (older `Starting HTTP service on:` line)',
    '__tests__/fixtures/logs/dynamo-0ab2b3f5.log'
  ]
}
