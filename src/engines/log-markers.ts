/**
 * What model servers print while they start, as data: how each engine frames and stamps a line, the lines that
 * name it, one row per engine and startup phase, the line that says it is ready, and its known fatal lines.
 * __tests__/fixtures/logs holds a recorded startup of each engine that these rows are tested against. Line numbers
 * in `[file.py:NNN]` prefixes change every release, so no pattern here depends on them.
 */

import type { Engine } from './engine-names.js'

export interface FatalLine {
  pattern: RegExp
  /** A cause (out of memory, an NCCL error) is quoted in preference to a mere "failed to start". */
  cause: boolean
}

export interface EngineLog {
  engine: Engine
  label: string
  /** Lines only this engine prints; the first such line names the engine when `engine` is `auto`. */
  signature: RegExp
  /** The `owned_by` of its `/v1/models` entries. */
  ownedBy?: string
  /**
   * The time stamp in a line, with named groups: Y M D h m s, f (fraction digits) or ms (and us). Absent parts count as
   * zero (vLLM and Triton print no year); only differences between stamps are used, so the time zone does not matter.
   */
  stamp?: RegExp
  /** The line that says the server is up and ready; it ends the last phase. */
  ready: RegExp
  fatal: readonly FatalLine[]
}

/** One startup phase of one engine. Rows of an engine are in the order the engine goes through its phases. */
export interface PhaseMarker {
  engine: Engine
  phase: string
  /** A line that starts the phase. */
  start?: RegExp
  /** A progress line (named groups n and total; optionally tqdm's elapsed time): it starts the phase too. */
  progress?: RegExp
  /** What `progress` counts. */
  unit?: string
  /** A line that says the phase is over (otherwise it lasts until the next phase starts). */
  end?: RegExp
  /** The engine's own duration of the phase (named group took, in seconds unless group unit says otherwise). */
  took?: RegExp
}

/** A pattern no line matches: an engine whose log lines are not known (see the entries it stands in). */
const NO_LINE = /(?!)/

const cause = (pattern: RegExp): FatalLine => ({ pattern, cause: true })
const failure = (pattern: RegExp): FatalLine => ({ pattern, cause: false })

/** PyTorch's allocator and NCCL (through torch or the engines' own pynccl wrappers) word these alike everywhere. */
const TORCH_FATAL: readonly FatalLine[] = [
  cause(/CUDA out of memory/),
  // Not the traceback's source line `raise RuntimeError(f"NCCL error: {error_str}")`.
  cause(/NCCL error(?:: | in: )(?!\{)/),
  cause(/DistBackendError/)
]

// tqdm: "Loading safetensors checkpoint shards:  45% Completed | 29/64 [01:02<01:10,  2.15s/it]" and the default
// bar "Capturing CUDA graphs (decode, FULL):  45%|████▌     | 23/51 [00:05<00:06,  4.12it/s]".
const TQDM_COUNT = String.raw`\s*\d+%(?: Completed)? ?\|[^|]*?\|?\s*(?<n>\d+)/(?<total>\d+)(?: \[(?<elapsed>\d+(?::\d\d)+)<)?`
const tqdm = (desc: string): RegExp => new RegExp(`${desc}:${TQDM_COUNT}`)

export const ENGINE_LOGS: readonly EngineLog[] = [
  {
    engine: 'vllm',
    label: 'vLLM',
    signature:
      /\((?:APIServer|EngineCore\w*|Worker\w*|VllmWorker\w*) pid=\d+\)|vLLM API server version|Initializing a V1 LLM engine/,
    ownedBy: 'vllm',
    stamp:
      /\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) (?<M>\d\d)-(?<D>\d\d) (?<h>\d\d):(?<m>\d\d):(?<s>\d\d)(?:\.(?<f>\d+))? \[/,
    ready: /Application startup complete/,
    fatal: [
      ...TORCH_FATAL,
      cause(/No available memory for the cache blocks/),
      cause(/KV cache is needed, which is larger than the available KV cache memory/),
      cause(/Free memory on device \S+ \([^)]*\) on startup is less than desired GPU memory utilization/),
      failure(/WorkerProc hit an exception|WorkerProc failed to start/),
      failure(/EngineCore failed to start|EngineCore encountered a fatal error/),
      failure(/Engine core initialization failed/)
    ]
  },
  {
    engine: 'sglang',
    label: 'SGLang',
    signature: /server_args=ServerArgs\(|sglang is using nccl|^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (?:[A-Z]{2}\d+ ?)+\]/,
    ownedBy: 'sglang',
    stamp: /^\[(?<Y>\d{4})-(?<M>\d\d)-(?<D>\d\d) (?<h>\d\d):(?<m>\d\d):(?<s>\d\d)[^\]]*\]/,
    ready: /The server is fired up and ready to roll/,
    fatal: [
      ...TORCH_FATAL,
      cause(/Capture cuda graph failed/),
      cause(/but there are other ranks that didn't finish loading/),
      failure(/Scheduler hit an exception/),
      failure(/Received sigquit from a child process|SIGQUIT received/),
      // newer: `Server warmup failed; aborting startup: %s` (entrypoints/http_server.py), then SIGTERM to itself
      failure(/Initialization failed\. warmup error|Server warmup failed; aborting startup/),
      failure(/Subprocess \S+ \(pid=\d+\) crashed/)
    ]
  },
  {
    engine: 'tgi',
    label: 'TGI',
    signature: /text_generation_(?:launcher|router)/,
    stamp: /^(?<Y>\d{4})-(?<M>\d\d)-(?<D>\d\d)T(?<h>\d\d):(?<m>\d\d):(?<s>\d\d)(?:\.(?<f>\d+))?Z/,
    ready: /text_generation_router::server.*\bConnected\s*$/,
    fatal: [
      ...TORCH_FATAL,
      cause(/Not enough memory to handle \d+ prefill tokens/),
      // v3.3.7 backends/v3/src/lib.rs V3Error::NotEnoughMemory
      cause(/Not enough memory to handle `max_total_tokens=\d+`/),
      cause(/Download encountered an error/),
      cause(/Error when initializing model/),
      cause(/text-generation-(?:server|router) not found in PATH/),
      // v3.3.7 launcher/src/main.rs LauncherError: printed as `Error: <variant>` when the launcher exits
      cause(/not enough cuda devices: |Error: NotEnoughCUDADevices/),
      failure(
        /Shard \d+ failed to start|Shard \d+ crashed|Error: (?:Shard(?:CannotStart|Failed|Disconnected)|WarmupError|DownloadError|Webserver(?:Failed|CannotStart))/
      ),
      failure(/Webserver Crashed|Failed to start webserver: /),
      failure(/Unable to (?:warmup|connect to) the Python model shards/)
    ]
  },
  {
    engine: 'ollama',
    label: 'Ollama',
    // Listed before llama.cpp: Ollama 0.30+ passes llama.cpp's own lines through after its own.
    signature: /level=[A-Z]+ source=\S+ msg=|^\[GIN\] /,
    stamp: /time=(?<Y>\d{4})-(?<M>\d\d)-(?<D>\d\d)T(?<h>\d\d):(?<m>\d\d):(?<s>\d\d)(?:\.(?<f>\d+))?/,
    ready: /(?:llama runner|llama-server) started in [\d.]+ seconds/,
    fatal: [
      ...TORCH_FATAL,
      cause(/reported out-of-memory during startup/),
      cause(/model requires more system memory than is currently available/),
      // v0.33.0-rc2 server/sched.go, llm/llama_server.go
      cause(/msg="model is too large for system memory"/),
      cause(/bind: address already in use/),
      failure(/(?:llama runner|llama-server) process has terminated|llama-server process no longer running/),
      failure(/timed out waiting for (?:llama runner|llama-server) to start/)
    ]
  },
  {
    engine: 'llamacpp',
    label: 'llama.cpp',
    signature:
      /\bbuild: \d+ \(|llama_model_loader: |\bsrv\s+(?:load_model|llama_server): |\bmain: loading model|llama_context: /,
    ownedBy: 'llamacpp',
    // minutes.seconds.milliseconds.microseconds since the start: the default since v0.5.0 (node-llama-cpp 3.22),
    // before it only with --log-timestamps. Anchored: in router mode a child's lines come through as
    // `[ 8081] 0.00.056.085 I …`, stamped from the child's own start, which says nothing on the router's scale.
    stamp: /^(?<m>\d+)\.(?<s>\d\d)\.(?<ms>\d{3})\.(?<us>\d{3}) [IWEDT] /,
    // v0.5.0: `srv  llama_server: model loaded` (printed once it serves: the server sets itself ready just before),
    // then `listening on http://…`, which in router mode comes before any model is loaded, so it is no ready line.
    // Older: `main: model loaded`, `main: server is listening on …` and `starting the main loop`.
    ready: /server is listening on|starting the main loop|\b(?:llama_server|main): model loaded\b/,
    fatal: [
      cause(/cudaMalloc failed: out of memory/),
      cause(/failed to open GGUF file/),
      cause(/couldn't bind HTTP server socket/),
      cause(/error loading model/),
      failure(/failed to load model/),
      failure(/exiting due to (?:model loading|HTTP server) error/)
    ]
  },
  {
    engine: 'triton',
    label: 'Triton',
    signature: /^[IWE]\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ [\w.]+:\d+\] |Triton Inference Server/,
    ownedBy: 'Triton Inference Server',
    stamp: /^[IWE](?<M>\d\d)(?<D>\d\d) (?<h>\d\d):(?<m>\d\d):(?<s>\d\d)\.(?<f>\d+) /,
    ready: /Started HTTPService at/,
    fatal: [
      ...TORCH_FATAL,
      cause(/failed to load '[^']*'/),
      cause(/already in use/),
      failure(/error: creating server/),
      // server e1db8a60 src/main.cc: LOG_TRITONSERVER_ERROR(err, "failed to start HTTP service") and the others
      failure(/failed to start (?:GRPC|HTTP|Sagemaker|Vertex AI) service/)
    ]
  },
  // NIM (closed source), LocalAI and KServe: no recorded startup of theirs has been read, so their log names
  // nothing and says nothing of readiness (NO_LINE); their own readiness routes do (readiness.ts). The `engine`
  // input names them. NIM runs vLLM or SGLang underneath, KServe's model servers and LocalAI's backends run
  // PyTorch: its fatal lines are theirs too.
  { engine: 'nim', label: 'NVIDIA NIM', signature: NO_LINE, ready: NO_LINE, fatal: TORCH_FATAL },
  { engine: 'localai', label: 'LocalAI', signature: NO_LINE, ready: NO_LINE, fatal: TORCH_FATAL },
  { engine: 'kserve', label: 'KServe', signature: NO_LINE, ready: NO_LINE, fatal: TORCH_FATAL }
]

/** Whether the engine's log has a known ready line: without one, the log cannot tell the schedule when to probe. */
export const knowsReadyLine = (engine: Engine): boolean => engineLog(engine).ready !== NO_LINE

export const PHASE_MARKERS: readonly PhaseMarker[] = [
  // vLLM (V1 engine, 0.11–0.16 wordings)
  {
    engine: 'vllm',
    phase: 'initializing',
    start: /non-default args:|vLLM API server version|Initializing a V1 LLM engine/
  },
  {
    engine: 'vllm',
    phase: 'initializing distributed',
    start: /world_size=\d+ rank=\d+ local_rank=\d+ distributed_init_method=/
  },
  {
    engine: 'vllm',
    phase: 'loading weights',
    // the model runner v2 (vllm/v1/worker/gpu/model_runner.py, 4e179065) says only `Loading model from scratch...`
    start: /Starting to load model|Loading model from scratch/,
    progress: tqdm('Loading (?:safetensors|pt) checkpoint shards'),
    unit: 'shards',
    end: /Model loading took /,
    took: /(?:Model loading took [\d.]+ GiB(?: memory)? and|Loading weights took) (?<took>[\d.]+) seconds/
  },
  {
    engine: 'vllm',
    phase: 'compiling',
    start: /for vLLM's torch\.compile|Dynamo bytecode transform time/,
    end: /torch\.compile (?:takes|took|and initial profiling run took) [\d.]+ s in total/,
    took: /torch\.compile (?:takes|took|and initial profiling run took) (?<took>[\d.]+) s in total/
  },
  { engine: 'vllm', phase: 'allocating KV cache', start: /Available KV cache memory/, end: /Maximum concurrency for / },
  {
    engine: 'vllm',
    phase: 'capturing CUDA graphs',
    // before the V1 engine's `(decode, FULL)` bars: `Capturing CUDA graph shapes`
    progress: tqdm(String.raw`Capturing CUDA graph(?:s \([^)]*\)| shapes)`),
    unit: 'graphs',
    end: /Graph capturing finished in /,
    took: /Graph capturing finished in (?<took>[\d.]+) secs/
  },
  {
    engine: 'vllm',
    phase: 'starting server',
    start: /init engine \(profile, create kv cache, warmup model\) took|Supported tasks:|Starting vLLM (?:API )?server/
  },

  // SGLang (0.5.x)
  { engine: 'sglang', phase: 'initializing', start: /server_args=/ },
  {
    engine: 'sglang',
    phase: 'initializing distributed',
    start: /Init torch distributed begin/,
    end: /Init torch distributed ends/,
    took: /Init torch distributed ends\. elapsed=(?<took>[\d.]+) s/
  },
  {
    engine: 'sglang',
    phase: 'loading weights',
    start: /Load weight begin/,
    progress: tqdm('Loading (?:safetensors|pt) checkpoint shards'),
    unit: 'shards',
    end: /Load weight end/,
    took: /Load weight end\. elapsed=(?<took>[\d.]+) s/
  },
  {
    engine: 'sglang',
    phase: 'allocating KV cache',
    start: /Using KV cache dtype|KV Cache is allocated/,
    end: /Memory pool end/
  },
  {
    engine: 'sglang',
    phase: 'capturing CUDA graphs',
    // newer: `Capture target decode CUDA graph begin`, `Capture piecewise CUDA graph begin`, `Capture draft …`
    start: /Capture (?:[\w ]*)(?:cuda|CUDA|cpu|npu) graph begin/,
    progress: tqdm(String.raw`Capturing batches \([^)]*\)`),
    unit: 'batch sizes',
    end: /Capture (?:[\w ]*)(?:cuda|CUDA|cpu|npu) graph end/,
    took: /graph end\. (?:Time elapsed: |elapsed=)(?<took>[\d.]+) s/
  },
  { engine: 'sglang', phase: 'starting server', start: /max_total_num_tokens=|Started server process/ },
  { engine: 'sglang', phase: 'warming up', start: /Uvicorn running on|GET \/(?:get_)?model_info/ },

  // TGI (launcher 3.x; 2.x wordings where they differ)
  {
    engine: 'tgi',
    phase: 'downloading',
    start: /Starting (?:check and )?download process/,
    progress: /Download: \[(?<n>\d+)\/(?<total>\d+)\]/,
    unit: 'files',
    end: /Successfully downloaded weights/
  },
  {
    engine: 'tgi',
    phase: 'loading weights',
    start: /Starting shard/,
    end: /Shard ready in /,
    took: /Shard ready in (?<took>[\d.]+)(?<unit>ms|µs|ns|s)/
  },
  { engine: 'tgi', phase: 'starting server', start: /Starting Webserver/ },
  { engine: 'tgi', phase: 'warming up', start: /Warming up model/ },

  // llama.cpp llama-server
  { engine: 'llamacpp', phase: 'initializing', start: /\bbuild: \d+ \(|system info: |\bllama_server: initializing/ },
  {
    engine: 'llamacpp',
    phase: 'loading weights',
    start: /\bmain: loading model|load_model: loading model|llama_model_loader: loaded meta data/
  },
  {
    engine: 'llamacpp',
    phase: 'allocating KV cache',
    // v0.5.0 prints no llama_context line at its default verbosity unless the context exceeds the model's training
    // context; its CUDA build (-ngl 99) then says nothing between `loading model` and `llama threadpool init`
    // (common/common.cpp, once the context, its KV cache included, is made), so that line ends the weights' load
    start: /\bllama_context: |llama_kv_cache|llama_new_context_with_model|\bllama threadpool init\b/
  },
  { engine: 'llamacpp', phase: 'warming up', start: /warming up the model with an empty run/ },
  // older `initializing slots, n_slots = 4`; v0.5.0 `srv    load_model: initializing, n_slots = 4, n_ctx_slot = …`
  { engine: 'llamacpp', phase: 'starting server', start: /initializing(?: slots)?, n_slots/ },

  // Ollama (models load lazily, on the first request for them)
  {
    engine: 'ollama',
    phase: 'starting server',
    start: /msg="server config"|msg="total blobs/,
    end: /msg="Listening on /
  },
  {
    engine: 'ollama',
    phase: 'discovering GPUs',
    start: /discovering available GPUs|looking for compatible GPUs/,
    end: /msg="inference compute"/
  },
  {
    engine: 'ollama',
    phase: 'loading model',
    start: /msg="starting (?:runner|llama-server)"|msg="loading model/,
    took: /(?:llama runner|llama-server) started in (?<took>[\d.]+) seconds/
  },

  // Triton (messages JSON-quoted since r24.05)
  { engine: 'triton', phase: 'initializing', start: /memory pool is created/ },
  { engine: 'triton', phase: 'loading model', start: /\] "?loading: \S+:\d+/, end: /successfully loaded '/ },
  {
    engine: 'triton',
    phase: 'starting server',
    start: /Collecting (?:metrics for GPU|CPU metrics)|Started GRPCInferenceService at/
  }
]

export const engineLog = (engine: Engine): EngineLog => ENGINE_LOGS.find((e) => e.engine === engine) as EngineLog

export const phaseMarkers = (engine: Engine): PhaseMarker[] => PHASE_MARKERS.filter((m) => m.engine === engine)

/** The engine whose own lines these are, from one line; undefined when the line is not particular to one. */
export function engineOfLine(line: string): Engine | undefined {
  return ENGINE_LOGS.find((e) => e.signature.test(line))?.engine
}

/** The engine from a `/v1/models` body's `owned_by` (vLLM, SGLang, llama.cpp and Triton's OpenAI front end say so). */
export function engineOfModelList(json: unknown): Engine | undefined {
  const data = (json as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) return undefined
  for (const entry of data) {
    const owner = (entry as { owned_by?: unknown } | null)?.owned_by
    const found = ENGINE_LOGS.find((e) => e.ownedBy !== undefined && e.ownedBy === owner)
    if (found) return found.engine
  }
  return undefined
}

/** The engine's stamp in a line, as milliseconds on the stamp's own scale. */
export function stampOf(log: EngineLog, line: string): number | undefined {
  const g = log.stamp?.exec(line)?.groups
  if (g === undefined) return undefined
  const n = (v: string | undefined): number => (v === undefined ? 0 : Number(v))
  const fraction = g.f === undefined ? n(g.ms) + n(g.us) / 1000 : Number(`0.${g.f}`) * 1000
  return (
    Date.UTC(
      g.Y === undefined ? 2000 : n(g.Y),
      g.M === undefined ? 0 : n(g.M) - 1,
      g.D === undefined ? 1 : n(g.D),
      n(g.h),
      n(g.m),
      n(g.s)
    ) + fraction
  )
}

const UNIT_SECONDS: Record<string, number> = { s: 1, ms: 1e-3, µs: 1e-6, ns: 1e-9 }

/** The seconds in a `took` match. */
export const tookSeconds = (groups: Record<string, string | undefined>): number =>
  Number(groups.took) * UNIT_SECONDS[groups.unit ?? 's']

/** tqdm's `mm:ss` or `h:mm:ss` in seconds. */
export const clockSeconds = (text: string): number => text.split(':').reduce((acc, part) => acc * 60 + Number(part), 0)
