/** NVIDIA NIM for LLMs (closed source): its readiness route, from its docs; it serves OpenAI's routes. */
import { type EngineRecord, readinessRoute, UNKNOWN_LOG } from './engine-record.js'

export const nim: EngineRecord<'nim'> = {
  name: 'nim',
  label: 'NVIDIA NIM',
  log: UNKNOWN_LOG,
  modelLists: ['openai'],
  // /v1/health/live is nginx's and 200 at once; /v1/health/ready answers 503 during the model's download and
  // initialisation, 200 once the backend's health passes.
  readiness: [
    readinessRoute({
      path: '/v1/health/ready',
      because:
        'NIM answers (nginx) before its model is downloaded and initialised; /v1/health/ready says 503 until then'
    })
  ],
  // its LoRA adapters are loaded while it runs
  servesOneModel: false,
  generation: ['openai'],
  stream: 'openai',
  sources: ['NVIDIA NIM for LLMs docs, "Health checks" (/v1/health/live, /v1/health/ready)']
}
