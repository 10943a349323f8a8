/**
 * Each engine's own start-up log, from the recorded start-ups (`__tests__/fixtures/logs/`), each line at its share of
 * the load, and its fatal lines. `{T}` is the stamp, `{M}` the model, `{SINCE:share}` the seconds since that share.
 */
import type { EngineName } from './engines.js'

export interface SimulatedLog {
  /** `[share of the load time, line]`, in order; the ready line at 1. */
  lines: ReadonlyArray<readonly [number, string]>
  /** What the engine prints as it dies (`crashAfterMs`): the cause, then the failure. */
  fatal: readonly string[]
  /** Where the layers went (`onGpu`), printed at the share `at` of the load: `n` of `m` layers on the GPU. */
  offload?: { at: number; line(n: number, m: number): string }
  /** The engine's own stamp for a moment: `at` the time, `sinceMs` the time since its start. */
  stamp(at: Date, sinceMs: number): string
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0')
const parts = (d: Date) => ({
  Y: d.getUTCFullYear(),
  M: pad(d.getUTCMonth() + 1),
  D: pad(d.getUTCDate()),
  h: pad(d.getUTCHours()),
  m: pad(d.getUTCMinutes()),
  s: pad(d.getUTCSeconds()),
  ms: pad(d.getUTCMilliseconds(), 3)
})

const VLLM_OOM =
  '(Worker_TP0 pid=452) ERROR {T} [multiproc_executor.py:743] torch.OutOfMemoryError: CUDA out of memory. ' +
  'Tried to allocate 816.82 MiB. GPU 0 has a total capacity of 139.81 GiB of which 601.94 MiB is free.'
const TORCH_OOM =
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 816.82 MiB. GPU 0 has a total capacity of ' +
  '139.81 GiB of which 601.94 MiB is free.'

// an OpenAI-compatible server of no known engine: uvicorn's lines, and PyTorch's error when it dies
const NO_KNOWN_ENGINE: SimulatedLog = {
  stamp: () => '',
  lines: [
    [0, 'INFO:     Started server process [1]'],
    [0.4, 'INFO:     Waiting for application startup.'],
    [1, 'INFO:     Application startup complete.']
  ],
  fatal: [TORCH_OOM]
}

export const SIMULATED_LOGS: Record<EngineName, SimulatedLog> = {
  vllm: {
    stamp: (at) => {
      const p = parts(at)
      return `${p.M}-${p.D} ${p.h}:${p.m}:${p.s}`
    },
    lines: [
      [0, '(APIServer pid=1) INFO {T} [utils.py:302] vLLM (simulated) model {M}'],
      [0.001, "(APIServer pid=1) INFO {T} [utils.py:238] non-default args: {'model_tag': '{M}', 'model': '{M}'}"],
      [
        0.04,
        '(Worker_TP0 pid=452) INFO {T} [parallel_state.py:1208] world_size=1 rank=0 local_rank=0 ' +
          'distributed_init_method=tcp://127.0.0.1:45123 backend=nccl'
      ],
      [0.05, '(Worker_TP0 pid=452) INFO {T} [gpu_model_runner.py:4261] Starting to load model {M}...'],
      [
        0.66,
        "(Worker_TP0 pid=452) INFO {T} [backends.py:743] Using cache directory: /tmp/vllm/torch_compile_cache/rank_0_0/backbone for vLLM's torch.compile"
      ],
      [0.88, '(Worker_TP0 pid=452) INFO {T} [gpu_worker.py:424] Available KV cache memory: 43.27 GiB'],
      [
        0.94,
        '(Worker_TP0 pid=452) Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%|██████████| 51/51 [00:20<00:00,  2.44it/s]'
      ],
      [
        0.99,
        '(EngineCore_DP0 pid=311) INFO {T} [core.py:282] init engine (profile, create kv cache, warmup model) took {SINCE:0.88} seconds'
      ],
      [1, '(APIServer pid=1) INFO:     Application startup complete.']
    ],
    fatal: [VLLM_OOM, '(Worker_TP0 pid=452) ERROR {T} [multiproc_executor.py:743] WorkerProc hit an exception.']
  },
  // the supervisor's own uvicorn (up before any child), then each child's lines under its own prefix, each child's
  // `Application startup complete.` as it comes up; the supervisor says nothing when all are healthy
  'vllm-dp-supervisor': {
    stamp: (at) => {
      const p = parts(at)
      return `${p.M}-${p.D} ${p.h}:${p.m}:${p.s}`
    },
    lines: [
      [0, '(DPSupervisor pid=1) INFO:     Started server process [1]'],
      [0, '(DPSupervisor pid=1) INFO:     Waiting for application startup.'],
      [0, '(DPSupervisor pid=1) INFO:     Application startup complete.'],
      [0, '(DPSupervisor pid=1) INFO:     Uvicorn running on http://0.0.0.0:9000 (Press CTRL+C to quit)'],
      [0.001, '(DPSupervisor pid=1) INFO {T} [dp_supervisor.py:334] Started DPSupervisor on 0.0.0.0:9000'],
      [0.002, '(DPSupervisor pid=1) INFO {T} [dp_supervisor.py:369] Launching vLLM DP Servers'],
      [0.01, "(APIServer_DP0 pid=101) INFO {T} [utils.py:238] non-default args: {'model_tag': '{M}', 'model': '{M}'}"],
      [0.01, "(APIServer_DP1 pid=102) INFO {T} [utils.py:238] non-default args: {'model_tag': '{M}', 'model': '{M}'}"],
      [0.05, '(EngineCore_DP0 pid=201) INFO {T} [gpu_model_runner.py:4261] Starting to load model {M}...'],
      [0.05, '(EngineCore_DP1 pid=202) INFO {T} [gpu_model_runner.py:4261] Starting to load model {M}...'],
      [0.88, '(EngineCore_DP0 pid=201) INFO {T} [gpu_worker.py:424] Available KV cache memory: 43.27 GiB'],
      [0.9, '(APIServer_DP0 pid=101) INFO {T} [api_server.py:602] Starting vLLM server on http://0.0.0.0:8000'],
      [0.9, '(APIServer_DP0 pid=101) INFO:     Application startup complete.'],
      [0.97, '(APIServer_DP1 pid=102) INFO {T} [api_server.py:602] Starting vLLM server on http://0.0.0.0:8001'],
      [0.97, '(APIServer_DP1 pid=102) INFO:     Application startup complete.']
    ],
    fatal: [
      VLLM_OOM.replace('Worker_TP0 pid=452', 'EngineCore_DP1 pid=202'),
      '(EngineCore_DP1 pid=202) ERROR {T} [core.py:708] EngineCore failed to start.'
    ]
  },
  sglang: {
    stamp: (at) => {
      const p = parts(at)
      return `${p.Y}-${p.M}-${p.D} ${p.h}:${p.m}:${p.s}`
    },
    lines: [
      [0, "[{T}] server_args=ServerArgs(model_path='{M}', tokenizer_path='{M}', tokenizer_mode='auto')"],
      [0.03, '[{T} TP0] Init torch distributed begin.'],
      [0.05, '[{T} TP0] Load weight begin. avail mem=138.20 GB'],
      [0.8, '[{T} TP0] Using KV cache dtype: torch.bfloat16'],
      [0.82, '[{T} TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=23.80 GB'],
      [0.95, '[{T} TP0] max_total_num_tokens=1234567, chunked_prefill_size=8192, max_running_requests=2048'],
      [0.96, '[{T}] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)'],
      [1, '[{T}] The server is fired up and ready to roll!']
    ],
    fatal: [`[{T} TP0] ${TORCH_OOM}`, '[{T} TP0] Scheduler hit an exception: torch.OutOfMemoryError']
  },
  llamacpp: {
    // with --log-timestamps: minutes.seconds.milliseconds.microseconds since the start
    stamp: (_at, sinceMs) =>
      `${pad(Math.floor(sinceMs / 60_000))}.${pad(Math.floor(sinceMs / 1000) % 60)}.${pad(Math.floor(sinceMs) % 1000, 3)}.000`,
    lines: [
      [0, 'build: 6428 (aa6192d3) with cc (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0 for x86_64-linux-gnu'],
      [0.005, 'main: loading model'],
      [0.92, 'llama_context: constructing llama_context'],
      [
        0.95,
        'common_init_from_params: warming up the model with an empty run - please wait ... (--no-warmup to disable)'
      ],
      [0.99, 'srv          init: initializing slots, n_slots = 4'],
      [1, 'main: server is listening on http://0.0.0.0:8080']
    ],
    // src/llama-model.cpp load_tensors, with a GPU backend
    offload: { at: 0.5, line: (n, m) => `load_tensors: offloaded ${n}/${m} layers to GPU` },
    fatal: [
      'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 18432.00 MiB on device 0: cudaMalloc failed: out of memory',
      'llama_model_load: error loading model: unable to allocate CUDA0 buffer',
      'main: exiting due to model loading error'
    ]
  },
  tgi: {
    stamp: (at) => {
      const p = parts(at)
      return `${p.Y}-${p.M}-${p.D}T${p.h}:${p.m}:${p.s}.${p.ms}000Z`
    },
    lines: [
      [0, '{T}  INFO text_generation_launcher: Args { model_id: "{M}" }'],
      [0.002, '{T}  INFO download: text_generation_launcher: Starting check and download process for {M}'],
      [0.75, '{T}  INFO shard-manager: text_generation_launcher: Starting shard rank=0'],
      [0.92, '{T}  INFO text_generation_launcher: Starting Webserver'],
      [0.93, '{T}  INFO text_generation_router_v3: backends/v3/src/lib.rs:125: Warming up model'],
      [1, '{T}  INFO text_generation_router::server: router/src/server.rs:2302: Connected']
    ],
    fatal: [
      `{T} ERROR shard-manager: text_generation_launcher: Shard complete standard error output: ${TORCH_OOM}`,
      '{T} ERROR text_generation_launcher: Shard 0 failed to start'
    ]
  },
  ollama: {
    stamp: (at) => {
      const p = parts(at)
      return `${p.Y}-${p.M}-${p.D}T${p.h}:${p.m}:${p.s}.${p.ms}Z`
    },
    lines: [
      [0, 'time={T} level=INFO source=routes.go:1802 msg="server config" env="map[OLLAMA_HOST:http://0.0.0.0:11434]"'],
      [0.005, 'time={T} level=INFO source=runner.go:67 msg="discovering available GPUs..."'],
      [0.56, 'time={T} level=INFO source=server.go:433 msg="starting runner" cmd="/usr/bin/ollama runner --model {M}"'],
      [1, 'time={T} level=INFO source=server.go:1432 msg="llama runner started in {SINCE:0.56} seconds"']
    ],
    fatal: [
      'time={T} level=ERROR source=server.go:1316 msg="llama runner reported out-of-memory during startup"',
      'time={T} level=ERROR source=sched.go:489 msg="error loading llama server" error="llama runner process has terminated: exit status 2"'
    ]
  },
  triton: {
    stamp: (at) => {
      const p = parts(at)
      return `${p.M}${p.D} ${p.h}:${p.m}:${p.s}.${p.ms}000`
    },
    lines: [
      [
        0,
        'I{T} 1 pinned_memory_manager.cc:277] "Pinned memory pool is created at \'0x7f3a40000000\' with size 268435456"'
      ],
      [0.04, 'I{T} 1 model_lifecycle.cc:473] "loading: {M}:1"'],
      [0.97, 'I{T} 1 metrics.cc:889] "Collecting metrics for GPU 0: NVIDIA H200"'],
      [1, 'I{T} 1 http_server.cc:4971] "Started HTTPService at 0.0.0.0:8000"']
    ],
    fatal: [`E{T} 1 model_lifecycle.cc:654] "failed to load '{M}' version 1: ${TORCH_OOM}"`]
  },
  // NIM, LocalAI and KServe: no start-up log of theirs has been recorded (their records in src/engines/ know none), so
  // they print the lines of a server of no known engine rather than lines made up for them
  nim: NO_KNOWN_ENGINE,
  localai: NO_KNOWN_ENGINE,
  kserve: NO_KNOWN_ENGINE,
  openai: NO_KNOWN_ENGINE,
  // the lines of __tests__/fixtures/logs/<engine>-<commit>.log, each from its engine's source
  dynamo: {
    stamp: rfc3339Micros,
    lines: [
      [
        0,
        '{T}  INFO dynamo_llm::http::service::service_v2: Starting HTTP(S) service protocol="HTTP" address="0.0.0.0:8000"'
      ]
    ],
    fatal: [TORCH_OOM]
  },
  // before the tracing fields (ai-dynamo/dynamo PR #532)
  'dynamo-2025': {
    stamp: rfc3339Micros,
    lines: [[0, '{T}  INFO dynamo_llm::http::service::service_v2: Starting HTTP service on: 0.0.0.0:8000']],
    fatal: [TORCH_OOM]
  },
  // trtllm-serve and Ray Serve: no line of their own was read (uvicorn's, or none)
  trtllm: NO_KNOWN_ENGINE,
  'ray-serve': NO_KNOWN_ENGINE,
  // its own loggers' format (log.py build_format), then uvicorn's lines: none says a backend serves
  'production-stack': {
    stamp: (at) => {
      const p = parts(at)
      return `${p.Y}-${p.M}-${p.D} ${p.h}:${p.m}:${p.s},${p.ms}`
    },
    lines: [
      [
        0,
        '[{T}] INFO: Initializing round-robin routing logic (routing_logic.py:681:vllm_router.routers.routing_logic)'
      ],
      ...NO_KNOWN_ENGINE.lines.map(([, line]): readonly [number, string] => [0, line])
    ],
    fatal: NO_KNOWN_ENGINE.fatal
  },
  lmdeploy: {
    stamp: () => '',
    lines: [
      [0, 'INFO:     Started server process [1]'],
      [0.3, 'HINT:    Please open http://0.0.0.0:23333 in a browser for detailed api usage!!!'],
      [0.3, 'HINT:    Please open http://0.0.0.0:23333 in a browser for detailed api usage!!!'],
      [0.3, 'HINT:    Please open http://0.0.0.0:23333 in a browser for detailed api usage!!!']
    ],
    fatal: [TORCH_OOM]
  },
  mistralrs: {
    stamp: rfc3339Micros,
    lines: [
      [0, '{T}  INFO mistralrs_server_core::mistralrs_for_server_builder: Model loaded.'],
      [0, '{T}  INFO mistralrs_cli::commands::serve: Server listening on http://0.0.0.0:1234']
    ],
    fatal: [TORCH_OOM]
  },
  xinference: {
    stamp: () => '',
    lines: [[0, 'INFO     Starting Xinference at endpoint: http://0.0.0.0:9997']],
    fatal: [TORCH_OOM]
  },
  ovms: {
    stamp: (at) => {
      const p = parts(at)
      return `${p.Y}-${p.M}-${p.D} ${p.h}:${p.m}:${p.s}.${p.ms}`
    },
    lines: [
      [0, '[{T}][1][serving][info][httpservermodule.cpp:53] Started REST server at 0.0.0.0:8000'],
      [0.01, `[{T}][1][modelmanager][info][modelversionstatus.cpp:109] ${ovmsStatus('LOADING', 'OK')}`],
      [1, `[{T}][1][modelmanager][info][modelversionstatus.cpp:109] ${ovmsStatus('AVAILABLE', 'OK')}`]
    ],
    fatal: [`[{T}][1][modelmanager][error][modelversionstatus.cpp:109] ${ovmsStatus('LOADING', 'UNKNOWN')}`]
  },
  aphrodite: {
    stamp: (at) => {
      const p = parts(at)
      return `${p.M}-${p.D} ${p.h}:${p.m}:${p.s}`
    },
    lines: [
      [0.99, 'INFO {T} api_server.py:583] Starting Aphrodite server on http://0.0.0.0:2242'],
      [1, 'INFO:     Application startup complete.']
    ],
    fatal: [TORCH_OOM]
  },
  // `kt run` prints its configuration (run.py), then execs SGLang's server: SGLang's lines
  get ktransformers(): SimulatedLog {
    const { sglang } = SIMULATED_LOGS
    const kt = [
      '  CPU Threads (kt-cpuinfer): 60',
      '  NUMA Nodes (kt-threadpool-count): 2',
      'Launching server with command:'
    ]
    return { ...sglang, lines: [...kt.map((line): readonly [number, string] => [0, line]), ...sglang.lines] }
  }
}

function rfc3339Micros(at: Date): string {
  const p = parts(at)
  return `${p.Y}-${p.M}-${p.D}T${p.h}:${p.m}:${p.s}.${p.ms}000Z`
}

function ovmsStatus(state: string, code: string): string {
  return `STATUS CHANGE: Version 1 of model {M} status change. New status: ( "state": "${state}", "error_code": "${code}" )`
}

/** The line as the engine prints it at `at`, `sinceMs` after its start, for a load of `loadMs`. */
export function logLine(
  log: SimulatedLog,
  text: string,
  { model, at, sinceMs, loadMs }: { model: string; at: Date; sinceMs: number; loadMs: number }
): string {
  return text
    .replaceAll('{T}', () => log.stamp(at, sinceMs))
    .replaceAll('{M}', () => model)
    .replace(/\{SINCE:([\d.]+)\}/g, (_, share: string) => ((sinceMs - Number(share) * loadMs) / 1000).toFixed(2))
}
