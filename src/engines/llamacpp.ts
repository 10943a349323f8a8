/** llama.cpp's llama-server: its log lines (b6428 and v0.5.0), its router mode's load on demand, its own stream. */
import { cause, type EngineRecord, failure } from './engine-record.js'

/**
 * Where its layers went (`llm_load_tensors:` before the function's rename, `load_tensors:` after; Ollama's ggml
 * backend logs the same words): N of M below M is a model partly on the CPU. Printed only where a GPU backend is.
 */
export const LLAMACPP_OFFLOADED = /\boffloaded (\d+)\/(\d+) layers to GPU\b/
/** A build without a usable GPU given `-ngl`: every layer stays on the CPU. */
export const LLAMACPP_NO_GPU = /no usable GPU found, --gpu-layers option will be ignored/

export const llamacpp: EngineRecord<'llamacpp'> = {
  name: 'llamacpp',
  label: 'llama.cpp',
  inputName: 'llama.cpp',
  log: {
    signature:
      /\bbuild: \d+ \(|llama_model_loader: |\bsrv\s+(?:load_model|llama_server): |\bmain: loading model|llama_context: /,
    // minutes.seconds.milliseconds.microseconds since the start: the default since v0.5.0 (node-llama-cpp 3.22),
    // before it only with --log-timestamps. Anchored: in router mode a child's lines come through as
    // `[ 8081] 0.00.056.085 I …`, stamped from the child's own start, which says nothing on the router's scale.
    stamp: /^(?<m>\d+)\.(?<s>\d\d)\.(?<ms>\d{3})\.(?<us>\d{3}) [IWEDT] /,
    // v0.5.0: `srv  llama_server: model loaded` (printed once it serves: the server sets itself ready just before),
    // then `listening on http://…`, which in router mode comes before any model is loaded, so it is no ready line.
    // Older: `main: model loaded`, `main: server is listening on …` and `starting the main loop`.
    ready: /server is listening on|starting the main loop|\b(?:llama_server|main): model loaded\b/,
    phases: [
      { phase: 'initializing', start: /\bbuild: \d+ \(|system info: |\bllama_server: initializing/ },
      {
        phase: 'loading weights',
        start: /\bmain: loading model|load_model: loading model|llama_model_loader: loaded meta data/
      },
      {
        phase: 'allocating KV cache',
        // v0.5.0 prints no llama_context line at its default verbosity unless the context exceeds the model's
        // training context; its CUDA build (-ngl 99) then says nothing between `loading model` and `llama threadpool
        // init` (common/common.cpp, once the context, its KV cache included, is made), so that line ends the load
        start: /\bllama_context: |llama_kv_cache|llama_new_context_with_model|\bllama threadpool init\b/
      },
      { phase: 'warming up', start: /warming up the model with an empty run/ },
      // older `initializing slots, n_slots = 4`;
      // v0.5.0 `srv    load_model: initializing, n_slots = 4, n_ctx_slot = …`
      { phase: 'starting server', start: /initializing(?: slots)?, n_slots/ }
    ],
    fatal: [
      cause(/cudaMalloc failed: out of memory/),
      cause(/failed to open GGUF file/),
      cause(/couldn't bind HTTP server socket/),
      cause(/error loading model/),
      failure(/failed to load model/),
      failure(/exiting due to (?:model loading|HTTP server) error/)
    ]
  },
  ownedBy: 'llamacpp',
  modelLists: ['openai'],
  // none of its own: llama.cpp answers 503 on every route, its model list included, while it loads
  readiness: [],
  // outside its router mode (endpoint-wait.ts tells the router by its list, see `listsAsRouter`)
  splitsLayers: true,
  servesOneModel: true,
  generation: ['openai'],
  stream: 'llamacpp',
  // router mode lists every model file with `status.value` "unloaded" and loads one, by its listed id, on request
  load: { when: 'unloaded', path: '/models/load', body: (id) => ({ model: id }) },
  // checked against a checkout by `npm run engines:check -- llama.cpp <checkout>` (CI: node-llama-cpp's source)
  cites: [
    { path: 'tools/server/server.cpp', text: '"model loaded\\n"' },
    { path: 'tools/server/server.cpp', text: '"listening on %s\\n"' },
    { path: 'tools/server/server.cpp', text: '"/v1/models"' },
    { path: 'tools/server/server.cpp', text: '"/models/load"' },
    { path: 'tools/server/server.cpp', text: '"/health"' },
    { path: 'tools/server/server-models.h', text: 'return "unloaded";' },
    { path: 'tools/server/server-models.h', text: 'return "loading";' },
    { path: 'tools/server/server-models.h', text: 'return "loaded";' },
    { path: 'tools/server/server-models.h', text: 'return "sleeping";' },
    { path: 'tools/server/server-models.h', text: 'return "downloading";' },
    { path: 'tools/server/server-models.cpp', text: 'status["exit_code"]' },
    { path: 'tools/server/server-models.cpp', text: 'status["failed"]' },
    { path: 'src/llama-model.cpp', text: 'offloaded %d/%d layers to GPU' },
    { path: 'common/arg.cpp', text: 'no usable GPU found, --gpu-layers option will be ignored' },
    { path: 'common/common.cpp', text: 'llama threadpool init' },
    { path: 'common/common.cpp', text: 'warming up the model with an empty run' },
    { path: 'ggml/src/gguf.cpp', text: 'failed to open GGUF file' }
  ],
  sources: [
    'ggml-org/llama.cpp:tools/server/server-models.cpp (router mode: status unloaded → loading → loaded, /models/load)',
    'ggml-org/llama.cpp:common/common.cpp (llama threadpool init)',
    'ggml-org/llama.cpp:src/llama-model.cpp load_tensors (offloaded %d/%d layers to GPU)',
    'ggml-org/llama.cpp:common/arg.cpp (no usable GPU found, --gpu-layers option will be ignored; v0.5.0 CPU build)',
    '__tests__/fixtures/logs/llamacpp-b6428.log (aa6192d3), llamacpp-v0.5.0-node-llama-cpp-3.22.1*.log (de3ff81)'
  ]
}
