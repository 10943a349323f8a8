/** Ollama: its own log lines (models load lazily, on the first request for them) and its load on demand. */
import { cause, type EngineRecord, failure, TORCH_FATAL } from './engine-record.js'

export const ollama: EngineRecord<'ollama'> = {
  name: 'ollama',
  label: 'Ollama',
  log: {
    signature: /level=[A-Z]+ source=\S+ msg=|^\[GIN\] /,
    stamp: /time=(?<Y>\d{4})-(?<M>\d\d)-(?<D>\d\d)T(?<h>\d\d):(?<m>\d\d):(?<s>\d\d)(?:\.(?<f>\d+))?/,
    ready: /(?:llama runner|llama-server) started in [\d.]+ seconds/,
    phases: [
      { phase: 'starting server', start: /msg="server config"|msg="total blobs/, end: /msg="Listening on / },
      {
        phase: 'discovering GPUs',
        start: /discovering available GPUs|looking for compatible GPUs/,
        end: /msg="inference compute"/
      },
      {
        phase: 'loading model',
        start: /msg="starting (?:runner|llama-server)"|msg="loading model/,
        took: /(?:llama runner|llama-server) started in (?<took>[\d.]+) seconds/
      }
    ],
    fatal: [
      ...TORCH_FATAL,
      cause(/reported out-of-memory during startup/),
      cause(/model requires more system memory than is currently available/),
      cause(/msg="model is too large for system memory"/),
      cause(/bind: address already in use/),
      failure(/(?:llama runner|llama-server) process has terminated|llama-server process no longer running/),
      failure(/timed out waiting for (?:llama runner|llama-server) to start/)
    ]
  },
  modelLists: ['ollama', 'openai'],
  // none of its own: Ollama lists a model only once it is pulled
  readiness: [],
  splitsLayers: true,
  servesOneModel: false,
  generation: ['ollama', 'openai'],
  stream: 'ollama',
  // `/api/ps` lists the models in memory: one not among them is loaded by a generate request with no prompt; -1
  // keeps it loaded until the server stops (its default, 5 minutes, could unload it during the benchmark)
  load: { when: 'absent', listPath: 'api/ps', path: '/api/generate', body: (model) => ({ model, keep_alive: -1 }) },
  sources: [
    'ollama/ollama@v0.33.0-rc2 (fb307609):server/sched.go, llm/llama_server.go (model too large for system memory)',
    '__tests__/fixtures/logs/ollama-v0.25.0.log, ollama-v0.33.0-rc2.log'
  ]
}
