/** Xinference: the server is up before any model is launched; each model's replicas say when they are READY. */
import { type EngineRecord, readinessRoute, TORCH_FATAL } from './engine-record.js'

export const xinference: EngineRecord<'xinference'> = {
  name: 'xinference',
  label: 'Xinference',
  log: {
    signature: /Starting Xinference at endpoint: http:\/\//,
    // the server's own start-up; a model is launched apart from it (POST /v1/models), which its list tells
    ready: /Starting Xinference at endpoint: http:\/\//,
    phases: [],
    fatal: TORCH_FATAL
  },
  ownedBy: 'xinference',
  // a model is listed only once its actor's load() returned; its replicas' status says the rest
  modelLists: ['openai'],
  readiness: [
    // [{model_name, model_uid, replica, status: CREATING|UPDATING|LOADING|READY|ERROR|…, …}]
    readinessRoute({
      path: '/v1/models/instances?model_uid={model}',
      withoutModel: '/v1/models/instances',
      ready: { statuses: [200], entryReady: { key: 'model_uid', field: 'status', value: 'READY' } },
      because: "Xinference's replicas go CREATING, LOADING, then READY; /v1/models/instances says which"
    })
  ],
  servesOneModel: false,
  generation: ['openai'],
  stream: 'openai',
  sources: [
    'xorbitsai/inference@7ecec16b:xinference/api/restful_api.py (the list shape; `Starting Xinference at endpoint`)',
    'xorbitsai/inference@7ecec16b:xinference/api/routers/models.py (/v1/models, /v1/models/instances)',
    'xorbitsai/inference@7ecec16b:xinference/core/status_guard.py (InstanceInfo, LaunchStatus)',
    'xorbitsai/inference@7ecec16b:xinference/core/worker.py (load() before the model is listed)',
    '__tests__/fixtures/logs/xinference-7ecec16b.log'
  ]
}
