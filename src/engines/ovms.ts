/** OpenVINO Model Server: its REST port answers liveness before its models load; KServe v2's per-model ready. */
import { type EngineRecord, failure, readinessRoute } from './engine-record.js'

export const ovms: EngineRecord<'ovms'> = {
  name: 'ovms',
  label: 'OpenVINO Model Server',
  log: {
    signature: /Started REST server at|STATUS CHANGE: Version \d+ of model \S+ status change/,
    // per model: `STATUS CHANGE: Version 1 of model m status change. New status: ( "state": "AVAILABLE", …)`
    ready: /New status: \( "state": "AVAILABLE"/,
    phases: [
      { phase: 'starting server', start: /Started REST server at/ },
      { phase: 'loading weights', start: /New status: \( "state": "LOADING"/ }
    ],
    // logStatus(): a model left LOADING with an error code other than OK failed to load
    fatal: [failure(/New status: \( "state": "LOADING", "error_code": "(?!OK")/)]
  },
  // http_rest_api_handler.cpp parseModel: each entry of its list says `"owned_by": "OVMS"`
  ownedBy: 'OVMS',
  // /v3/models, /v3/v1/models and /v1/models: {"data": […], "object": "list"}; KServe v2's model metadata too
  modelLists: ['openai', 'model-status'],
  readiness: [
    readinessRoute({
      path: '/v2/models/{model}/ready',
      withoutModel: '/v2/health/ready',
      because: 'OpenVINO Model Server serves HTTP before its servable manager has loaded the models'
    })
  ],
  servesOneModel: false,
  generation: ['openai'],
  stream: 'openai',
  sources: [
    'openvinotoolkit/model_server@7e4df0c7:src/server.cpp (REST started before the servable manager)',
    'openvinotoolkit/model_server@7e4df0c7:src/http_rest_api_handler.cpp (/v2/health/ready, /v2/models/{m}/ready, the list)',
    'openvinotoolkit/model_server@7e4df0c7:src/httpservermodule.cpp (`Started REST server at`)',
    'openvinotoolkit/model_server@7e4df0c7:src/modelversionstatus.cpp (`STATUS CHANGE: …`)',
    '__tests__/fixtures/logs/ovms-7e4df0c7.log'
  ]
}
