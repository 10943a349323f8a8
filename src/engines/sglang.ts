/** SGLang: what it prints while it starts (0.5.x), and its /health, a generation that must be paced. */
import { cause, type EngineRecord, failure, readinessRoute, TORCH_FATAL, tqdm } from './engine-record.js'

export const sglang: EngineRecord<'sglang'> = {
  name: 'sglang',
  label: 'SGLang',
  log: {
    signature: /server_args=ServerArgs\(|sglang is using nccl|^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (?:[A-Z]{2}\d+ ?)+\]/,
    stamp: /^\[(?<Y>\d{4})-(?<M>\d\d)-(?<D>\d\d) (?<h>\d\d):(?<m>\d\d):(?<s>\d\d)[^\]]*\]/,
    ready: /The server is fired up and ready to roll/,
    phases: [
      { phase: 'initializing', start: /server_args=/ },
      {
        phase: 'initializing distributed',
        start: /Init torch distributed begin/,
        end: /Init torch distributed ends/,
        took: /Init torch distributed ends\. elapsed=(?<took>[\d.]+) s/
      },
      {
        phase: 'loading weights',
        start: /Load weight begin/,
        progress: tqdm('Loading (?:safetensors|pt) checkpoint shards'),
        unit: 'shards',
        end: /Load weight end/,
        took: /Load weight end\. elapsed=(?<took>[\d.]+) s/
      },
      { phase: 'allocating KV cache', start: /Using KV cache dtype|KV Cache is allocated/, end: /Memory pool end/ },
      {
        phase: 'capturing CUDA graphs',
        // newer: `Capture target decode CUDA graph begin`, `Capture piecewise CUDA graph begin`, `Capture draft …`
        start: /Capture (?:[\w ]*)(?:cuda|CUDA|cpu|npu) graph begin/,
        progress: tqdm(String.raw`Capturing batches \([^)]*\)`),
        unit: 'batch sizes',
        end: /Capture (?:[\w ]*)(?:cuda|CUDA|cpu|npu) graph end/,
        took: /graph end\. (?:Time elapsed: |elapsed=)(?<took>[\d.]+) s/
      },
      { phase: 'starting server', start: /max_total_num_tokens=|Started server process/ },
      // `/model_info` and `/server_info` replace `/get_model_info` and `/get_server_info`
      { phase: 'warming up', start: /Uvicorn running on|GET \/(?:get_)?(?:model|server)_info/ }
    ],
    fatal: [
      ...TORCH_FATAL,
      cause(/Capture cuda graph failed/),
      cause(/but there are other ranks that didn't finish loading/),
      failure(/Scheduler hit an exception/),
      failure(/Received sigquit from a child process|SIGQUIT received/),
      // newer: `Server warmup failed; aborting startup: %s` (entrypoints/http_server.py), then SIGTERM to itself
      failure(/Initialization failed\. warmup error|Server warmup failed; aborting startup/),
      failure(/Subprocess \S+ \(pid=\d+\) crashed/)
    ],
    // each TP rank, on whichever node it runs (`--nnodes`: node n holds TP n×k … n×k+k-1), once it joined the group
    ranks: {
      joined: /\b(?<rank>(?:[A-Z][A-Z_]*\d+ ?)+)\] Init torch distributed ends\./,
      // `--dp` replicas each of tp × pp ranks, unless DP attention splits the TP ranks themselves
      factors: [
        /server_args=ServerArgs\(.*?\btp_size=(?<n>\d+)/,
        /server_args=ServerArgs\(.*?\bpp_size=(?<n>\d+)/,
        /server_args=ServerArgs\(.*?\bdp_size=(?<n>\d+)(?=.*\benable_dp_attention=False)/
      ],
      flags: [
        ['--tp-size', '--tp', '--tensor-parallel-size'],
        ['--pp-size', '--pp', '--pipeline-parallel-size']
      ],
      // no DP bound: a router's SGLANG_DP_RANK tags each replica of dp_size 1 with its own DP index
      taggedFactors: ['TP', 'PP'],
      // the head's /health can stay 200 with a worker node gone (sgl-project/sglang#4780)
      healthMissesWorkers: true
    }
  },
  ownedBy: 'sglang',
  modelLists: ['openai'],
  // /health answers 503 while ServerStatus is Starting (the warm-up) since PR #8444; older SGLang says 200 at once.
  // Past Starting it runs a one-token generation (about a second of engine time): never two at once, at most once a
  // second after one that took long; the quick 503 of the warm-up is asked at the cheap pace. Without an answer in SGLANG_HEALTH_CHECK_TIMEOUT it says 503, then 200 again (so no deadAfterReady);
  // SGLANG_ENABLE_HEALTH_ENDPOINT_GENERATION=false makes it a plain 200.
  readiness: [
    readinessRoute({
      path: '/health',
      minGapMs: 1_000,
      oneAtATime: true,
      because: 'SGLang lists its model during its warm-up, while its /health answers 503 until the warm-up ends',
      // `false`/`0` makes /health a plain 200 once past Starting; /health_generate (the same handler) still generates
      instead: {
        variable: 'SGLANG_ENABLE_HEALTH_ENDPOINT_GENERATION',
        when: /^(?:0|false|no|off)$/i,
        path: '/health_generate'
      }
    })
  ],
  // No dead-engine answer: a scheduler or detokenizer that dies sends SIGQUIT to the server, which kills its
  // process tree ("Received sigquit from a child process"): the port closes, and `start` sees the exit.
  servesOneModel: true,
  generation: ['openai'],
  stream: 'openai',
  sources: [
    'sgl-project/sglang@0025436e:python/sglang/srt/entrypoints/http_server.py (/health; 503 while Starting since PR #8444)',
    'sgl-project/sglang:python/sglang/srt/environ.py (SGLANG_ENABLE_HEALTH_ENDPOINT_GENERATION)',
    'sgl-project/sglang:python/sglang/srt/entrypoints/http_server.py (/health and /health_generate one handler; the fast path without generation)',
    'sgl-project/sglang:python/sglang/srt/entrypoints/engine.py (SIGQUIT from a dying child)',
    '__tests__/fixtures/logs/sglang-v0.5.8.post1.log, sglang-v0.5.8.post1-nccl-fail.log'
  ]
}
