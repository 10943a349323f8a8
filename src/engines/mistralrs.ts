/** mistral.rs (`mistralrs serve`): binds once its model is loaded; its list says each model's status. */
import { type EngineRecord, TORCH_FATAL } from './engine-record.js'

export const mistralrs: EngineRecord<'mistralrs'> = {
  name: 'mistralrs',
  label: 'mistral.rs',
  log: {
    // tracing's targets: `mistralrs_server_core::…`, `mistralrs_core::…`
    signature: /\bmistralrs(?:_[a-z]+)*::/,
    stamp: /^(?<Y>\d{4})-(?<M>\d\d)-(?<D>\d\d)T(?<h>\d\d):(?<m>\d\d):(?<s>\d\d)(?:\.(?<f>\d+))?Z/,
    ready: /Server listening on http:\/\//,
    phases: [{ phase: 'starting server', start: /Model loaded\./ }],
    fatal: TORCH_FATAL
  },
  ownedBy: 'local',
  // a synthetic `default` entry first, then each model with `status` "loaded", "unloaded" or "reloading"
  // (model-lists.ts reads both); /health is "OK" unconditionally, so the list alone tells readiness
  modelLists: ['openai'],
  readiness: [],
  // models are unloaded and reloaded at run time (/v1/models/unload, /reload)
  servesOneModel: false,
  generation: ['openai'],
  stream: 'openai',
  sources: [
    'EricLBuehler/mistral.rs@9e922623:mistralrs-server-core/src/handlers.rs (/health "OK"; /v1/models: default, then status per model)',
    'EricLBuehler/mistral.rs@9e922623:mistralrs-core/src/lib.rs (loaded, unloaded, reloading)',
    'EricLBuehler/mistral.rs@9e922623:mistralrs-cli/src/commands/serve.rs (built before bind; `Server listening on`)',
    'EricLBuehler/mistral.rs@9e922623:mistralrs-server-core/src/mistralrs_for_server_builder.rs (`Model loaded.`)',
    '__tests__/fixtures/logs/mistralrs-9e922623.log'
  ]
}
