/** LocalAI: its readiness route during the startup preload; it serves OpenAI's routes. */
import { type EngineRecord, readinessRoute, UNKNOWN_LOG } from './engine-record.js'

export const localai: EngineRecord<'localai'> = {
  name: 'localai',
  label: 'LocalAI',
  log: UNKNOWN_LOG,
  modelLists: ['openai'],
  // /readyz → 503 {"status":"starting"} until the startup preload ends, then 200; /v1/models lists configured
  // models, loaded or not. Before PR #10989 (2026-07) /readyz was 200 always, which costs nothing.
  readiness: [
    readinessRoute({
      path: '/readyz',
      because: 'LocalAI lists its configured models while its startup preload still runs; /readyz says 503 until then'
    })
  ],
  splitsLayers: true,
  servesOneModel: false,
  generation: ['openai'],
  stream: 'openai',
  sources: ['mudler/LocalAI:core/http/routes/health.go (PR #10989: /readyz)']
}
