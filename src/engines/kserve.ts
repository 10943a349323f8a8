/** KServe: the Open Inference Protocol's per-model readiness; its protocols (v1 predict, v2 infer) generate no text. */
import { type EngineRecord, readinessRoute, UNKNOWN_LOG } from './engine-record.js'

export const kserve: EngineRecord<'kserve'> = {
  name: 'kserve',
  label: 'KServe',
  log: UNKNOWN_LOG,
  modelLists: ['kserve-v1-list', 'model-status'],
  // /v2/models/{name}/ready → {"name":..,"ready":true}, or 503 while not ready; /v2/health/ready is unconditional
  // in the Python server (asked only when no model is named).
  readiness: [
    readinessRoute({
      path: '/v2/models/{model}/ready',
      withoutModel: '/v2/health/ready',
      ready: { statuses: [200], notReadyWhen: { field: 'ready', value: false } },
      because: "KServe's Open Inference Protocol says a model is ready in /v2/models/{name}/ready"
    })
  ],
  servesOneModel: false,
  generation: [],
  sources: ['kserve/kserve:kserve/protocol/rest/v2_endpoints.py (/v2/models/{name}/ready, /v2/health/ready)']
}
