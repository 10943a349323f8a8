/**
 * vLLM: what it prints while it starts (V1 engine, 0.11–0.16 wordings, and 2026's data-parallel API servers and Rust
 * frontend), its sleep mode and its dead engine core.
 */
import { cause, type EngineRecord, failure, readinessRoute, TORCH_FATAL, tqdm } from './engine-record.js'

export const vllm: EngineRecord<'vllm'> = {
  name: 'vllm',
  label: 'vLLM',
  log: {
    signature:
      /\((?:APIServer(?:_DP\d+)?|ApiServer_\d+|DPSupervisor|EngineCore\w*|Worker\w*|VllmWorker\w*) pid=\d+\)|vLLM API server version|Initializing a V1 LLM engine|Launching Rust frontend: /,
    stamp:
      /\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) (?<M>\d\d)-(?<D>\d\d) (?<h>\d\d):(?<m>\d\d):(?<s>\d\d)(?:\.(?<f>\d+))? \[/,
    // `--api-server-count` API servers (the data-parallel size by default) share the port and each prints it: the
    // first serves. The Rust frontend (VLLM_USE_RUST_FRONTEND=1) has no uvicorn: it says it starts its server. The
    // data-parallel supervisor's own uvicorn says it before any child loads: not its line.
    ready: /^(?!.*\(DPSupervisor pid=\d+\)).*Application startup complete|\] starting OpenAI server bind_address=/,
    phases: [
      // the data-parallel supervisor starts before it launches its children, which then load
      {
        phase: 'initializing',
        start:
          /non-default args:|vLLM API server version|Initializing a V1 LLM engine|Started DPSupervisor on|Launching vLLM DP Servers/
      },
      {
        phase: 'initializing distributed',
        start: /world_size=\d+ rank=\d+ local_rank=\d+ distributed_init_method=/
      },
      {
        phase: 'loading weights',
        // the model runner v2 (vllm/v1/worker/gpu/model_runner.py, 4e179065) says only `Loading model from scratch...`
        start: /Starting to load model|Loading model from scratch/,
        progress: tqdm('Loading (?:safetensors|pt) checkpoint shards'),
        unit: 'shards',
        end: /Model loading took /,
        took: /(?:Model loading took [\d.]+ GiB(?: memory)? and|Loading weights took) (?<took>[\d.]+) seconds/
      },
      {
        phase: 'compiling',
        start: /for vLLM's torch\.compile|Dynamo bytecode transform time/,
        end: /torch\.compile (?:takes|took|and initial profiling run took) [\d.]+ s in total/,
        took: /torch\.compile (?:takes|took|and initial profiling run took) (?<took>[\d.]+) s in total/
      },
      { phase: 'allocating KV cache', start: /Available KV cache memory/, end: /Maximum concurrency for / },
      {
        phase: 'capturing CUDA graphs',
        // before the V1 engine's `(decode, FULL)` bars: `Capturing CUDA graph shapes`
        progress: tqdm(String.raw`Capturing CUDA graph(?:s \([^)]*\)| shapes)`),
        unit: 'graphs',
        end: /Graph capturing finished in /,
        took: /Graph capturing finished in (?<took>[\d.]+) secs/
      },
      {
        phase: 'starting server',
        start:
          /init engine \(profile, create kv cache, warmup model\) took|Supported tasks:|Starting vLLM (?:API )?server|Launching Rust frontend: /
      }
    ],
    fatal: [
      ...TORCH_FATAL,
      cause(/No available memory for the cache blocks/),
      cause(/KV cache is needed, which is larger than the available KV cache memory/),
      cause(/Free memory on device \S+ \([^)]*\) on startup is less than desired GPU memory utilization/),
      failure(/WorkerProc hit an exception|WorkerProc failed to start/),
      failure(/EngineCore failed to start|EngineCore encountered a fatal error/),
      failure(/Engine core initialization failed/),
      // an API server whose engine cores never answered (`(ApiServer_1 pid=…) TimeoutError: …`)
      failure(/Timed out waiting for (?:engine core processes to start|engines to send initial message)/)
    ],
    // every rank (Ray workers and `--headless` nodes alike), its number in the whole world across the nodes
    ranks: {
      joined: /\brank (?<rank>\d+) in world size (?<world>\d+) is assigned as /,
      flags: [
        ['--tensor-parallel-size', '-tp'],
        ['--pipeline-parallel-size', '-pp'],
        ['--data-parallel-size', '-dp']
      ],
      // on Ray, /health and /v1/models stay 200 while generation is dead (vllm-project/vllm#16259, #53157)
      healthMissesWorkers: true
    }
  },
  ownedBy: 'vllm',
  modelLists: ['openai'],
  readiness: [
    // `/is_sleeping` → {"is_sleeping": bool} only with VLLM_SERVER_DEV_MODE=1 (404 without: such a vLLM cannot
    // sleep); `POST /wake_up` without `tags` wakes all of it. Unchanged from v0.14.0 to v0.15.0.
    readinessRoute({
      path: '/is_sleeping',
      ready: { statuses: [200, 404], notReadyWhen: { field: 'is_sleeping', value: true } },
      wake: '/wake_up',
      because: 'a sleeping vLLM (sleep mode) lists its model and its /health says 200'
    }),
    // EngineDeadError once the engine core died: 503 since PR #24897, 500 in earlier V1 builds; a flag check, cheap.
    // A 404 (a proxy that passes only /v1, a vLLM-like server) says nothing: the model list alone decides.
    readinessRoute({
      path: '/health',
      ready: { statuses: [200, 404] },
      deadAfterReady: [500, 503],
      because: "vLLM's /health turns 503 when its engine core dies, while /v1/models keeps listing the model"
    })
  ],
  // EngineDeadError, "EngineCore encountered an issue. See stack trace (above) for the root cause.", in a 500 from
  // every generation route
  deadAnswer: /EngineCore encountered an issue|EngineDeadError/,
  servesOneModel: true,
  generation: ['openai'],
  stream: 'openai',
  sources: [
    'vllm-project/vllm:vllm/entrypoints/openai/api_server.py (the sleep routes, before serve/sleep/)',
    'vllm-project/vllm@v0.14.0:vllm/entrypoints/serve/sleep/api_router.py (/is_sleeping, /wake_up, dev mode only)',
    'vllm-project/vllm@v0.15.0:vllm/entrypoints/serve/__init__.py (the sleep router attached)',
    'vllm-project/vllm@v0.15.0,v0.17.1:vllm/entrypoints/serve/instrumentator/health.py (/health; 503 since PR #24897)',
    'vllm-project/vllm@v0.9.0:vllm/v1/engine/exceptions.py (the dead engine words)',
    'vllm-project/vllm@4e179065:vllm/v1/worker/gpu/model_runner.py (model runner v2 load line)',
    'vllm-project/vllm@00a5fdd2:vllm/entrypoints/cli/serve.py (Defaulting api_server_count to data_parallel_size; Rust frontend launch)',
    'vllm-project/vllm@09ec0f07:vllm/entrypoints/openai/dp_supervisor.py (Started DPSupervisor on; /health, /ready, /readyz)',
    'vllm-project/vllm PR #40848 (Rust frontend: starting OpenAI server bind_address=)',
    '__tests__/fixtures/logs/vllm-v0.16.1rc1.log, vllm-v0.16.1rc1-oom-fail.log, vllm-v0.26.0-dp2.log, vllm-v0.26.0-rust-frontend.log'
  ]
}
