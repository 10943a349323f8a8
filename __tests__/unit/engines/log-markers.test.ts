import { readdirSync } from 'node:fs'
import { fixturePath, readFixture } from '../../fixtures/log-fixture.mjs'
import {
  clockSeconds,
  ENGINE_LOGS,
  engineLog,
  engineOfLine,
  engineOfModelList,
  phaseMarkers,
  stampOf,
  tookSeconds
} from '../../../src/engines/log-markers.js'
import { ENGINE_NAMES, ENGINE_RECORDS, type Engine } from '../../../src/engines/index.js'

const fixture = fixturePath
const ENGINES: Engine[] = ['vllm', 'sglang', 'tgi', 'llamacpp', 'ollama', 'triton']
/** Every recorded startup of every engine version that starts well. */
const HEALTHY = readdirSync(new URL('../../fixtures/logs/', import.meta.url))
  .filter((f) => f.endsWith('.log') && !f.endsWith('-fail.log'))
  .map((f) => f.slice(0, -'.log'.length))

describe('the engine log table', () => {
  it('has one table per engine the `engine` input names, in the same order', () => {
    expect(ENGINE_LOGS.map((e) => e.engine)).toEqual([...ENGINE_NAMES])
  })

  it('has phase rows for each of the six engines, each row able to start or time its phase', () => {
    for (const engine of ENGINES) {
      expect([engine, phaseMarkers(engine).length >= 3]).toEqual([engine, true])
      expect(engineLog(engine).fatal.length).toBeGreaterThan(2)
    }
    const rows = ENGINE_RECORDS.flatMap((r) => r.log.phases.map((p) => ({ engine: r.name, ...p })))
    for (const row of rows)
      expect([row.phase, row.start ?? row.progress ?? row.took]).toEqual([row.phase, expect.any(RegExp)])
    // one row per engine and phase
    const keys = rows.map((m) => `${m.engine}/${m.phase}`)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('names the engine from the first line only it prints, in each recorded startup', () => {
    for (const engine of ENGINES) {
      const { writes } = readFixture(fixture(engine))
      const first = writes
        // eslint-disable-next-line no-control-regex
        .map((w) => (w.text === undefined ? undefined : engineOfLine(w.text.replace(/\x1b\[[0-9;]*m/g, ''))))
        .find((e) => e !== undefined)
      expect([engine, first]).toEqual([engine, engine])
    }
    expect(engineOfLine('Traceback (most recent call last):')).toBeUndefined()
    expect(engineOfLine('INFO:     Application startup complete.')).toBeUndefined()
  })

  it('names the engine from /v1/models owned_by', () => {
    const list = (owner: string): unknown => ({ object: 'list', data: [{ id: 'm', object: 'model', owned_by: owner }] })
    expect(engineOfModelList(list('vllm'))).toBe('vllm')
    expect(engineOfModelList(list('sglang'))).toBe('sglang')
    expect(engineOfModelList(list('llamacpp'))).toBe('llamacpp')
    expect(engineOfModelList(list('Triton Inference Server'))).toBe('triton')
    // TGI says the model id, Ollama the namespace: neither names the engine
    expect(engineOfModelList(list('library'))).toBeUndefined()
    expect(engineOfModelList({ data: null })).toBeUndefined()
    expect(engineOfModelList(undefined)).toBeUndefined()
  })

  it("reads each engine's stamp; differences are what count", () => {
    const at = (engine: Engine, line: string): number | undefined => stampOf(engineLog(engine), line)
    const diff = (engine: Engine, a: string, b: string): number => (at(engine, b) as number) - (at(engine, a) as number)
    expect(
      diff(
        'vllm',
        '(APIServer pid=1) INFO 07-08 10:12:13 [utils.py:302] x',
        '(Worker_TP0 pid=4) WARNING 07-08 10:14:01 [a.py:1] y'
      )
    ).toBe(108_000)
    expect(diff('sglang', '[2026-07-08 10:12:13 TP0] x', '[2026-07-08 10:12:14 DP1 TP3] y')).toBe(1000)
    expect(diff('tgi', '2026-07-08T10:12:01.118734Z  INFO x', '2026-07-08T10:12:02.000000Z  INFO y')).toBeCloseTo(
      881.266,
      3
    )
    expect(diff('ollama', 'time=2026-07-08T23:59:59.500Z level=INFO', 'time=2026-07-09T00:00:00.250Z level=INFO')).toBe(
      750
    )
    expect(diff('triton', 'I0708 10:12:01.118734 1 a.cc:1] "x"', 'E0708 10:12:03.000000 1 a.cc:1] "y"')).toBeCloseTo(
      1881.266,
      3
    )
    // to the microsecond: 1 min 2 s less 345.474 ms
    expect(diff('llamacpp', '0.00.345.474 I build: 1', '1.02.000.000 I main: model loaded')).toBeCloseTo(61_654.526, 3)
    expect(at('vllm', 'Loading safetensors checkpoint shards: 1/2')).toBeUndefined()
    expect(at('llamacpp', 'main: model loaded')).toBeUndefined()
  })

  it('reads the durations engines print, in their units', () => {
    expect(tookSeconds({ took: '35.89402713', unit: 's' })).toBeCloseTo(35.894, 3)
    expect(tookSeconds({ took: '850.5', unit: 'ms' })).toBeCloseTo(0.8505, 4)
    expect(tookSeconds({ took: '212.93' })).toBe(212.93)
    expect(clockSeconds('01:35')).toBe(95)
    expect(clockSeconds('1:02:03')).toBe(3723)
  })
})

/** Fatal lines as the research notes quote them from the engines' source and real logs. */
const FATAL: Array<[Engine, string, boolean]> = [
  // users' 2026 logs of data-parallel API servers whose engine cores never came up
  ['vllm', '(ApiServer_1 pid=1217) TimeoutError: Timed out waiting for engine core processes to start.', false],
  [
    'vllm',
    '(ApiServer_0 pid=10466) TimeoutError: Timed out waiting for engines to send initial message on input socket.',
    false
  ],
  ['vllm', '(Worker_TP3 pid=9) ERROR 03-09 10:12:13 [multiproc_executor.py:743] WorkerProc hit an exception.', false],
  [
    'vllm',
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 816.82 MiB. GPU 3 has a total capacity of 139.81 GiB',
    true
  ],
  ['vllm', '(EngineCore_DP0 pid=2) ERROR 03-09 10:12:13 [core.py:866] EngineCore failed to start.', false],
  ['vllm', 'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}', false],
  [
    'vllm',
    'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.',
    true
  ],
  [
    'vllm',
    'ValueError: Free memory on device cuda:0 (15.32/22.04 GiB) on startup is less than desired GPU memory utilization (0.88, 19.39 GiB).',
    true
  ],
  [
    'vllm',
    'torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.27.5',
    true
  ],
  ['sglang', '[2026-02-27 10:12:13 TP1] Scheduler hit an exception: Traceback (most recent call last):', false],
  ['sglang', 'RuntimeError: NCCL error: remote process exited or there was a network error', true],
  ['sglang', 'Exception: Capture cuda graph failed: CUDA out of memory.', true],
  ['sglang', '[2026-02-27 10:12:13] Received sigquit from a child process. It usually means the child failed.', false],
  ['tgi', '2026-07-08T10:12:01.118734Z ERROR text_generation_launcher: Shard 1 failed to start', false],
  ['tgi', '2026-07-08T10:12:01.118734Z ERROR text_generation_launcher: Error when initializing model', true],
  ['tgi', 'Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`', true],
  ['tgi', 'Error: ShardCannotStart', false],
  ['llamacpp', "gguf_init_from_file: failed to open GGUF file '/models/x.gguf' (No such file or directory)", true],
  ['llamacpp', 'main: exiting due to model loading error', false],
  [
    'llamacpp',
    'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 18926.01 MiB on device 0: cudaMalloc failed: out of memory',
    true
  ],
  [
    'ollama',
    'time=2026-07-08T10:12:01.402Z level=ERROR source=sched.go:489 msg="error loading llama server" error="llama runner process has terminated: exit status 2"',
    false
  ],
  ['ollama', 'Error: listen tcp 127.0.0.1:11434: bind: address already in use', true],
  [
    'triton',
    `E0708 10:12:01.118734 1 model_lifecycle.cc:654] "failed to load 'resnet50' version 1: Internal: unable to create TensorRT engine"`,
    true
  ],
  ['triton', 'error: creating server: Internal - failed to load all models', false],
  // Lines of the engines' current source (the commits in __tests__/fixtures/logs/README.md), as they print them
  ['vllm', '(EngineCore_DP0 pid=2) ERROR 03-09 10:12:13 [core.py:1012] EngineCore encountered a fatal error.', false],
  [
    'sglang',
    '[2026-07-08 10:12:13] Server warmup failed; aborting startup: CUDA error: an illegal memory access',
    false
  ],
  [
    'tgi',
    '2026-07-08T10:12:01.118734Z ERROR text_generation_router: Not enough memory to handle `max_total_tokens=8192`',
    true
  ],
  ['tgi', '2026-07-08T10:12:01.118734Z ERROR text_generation_launcher: text-generation-router not found in PATH', true],
  ['tgi', 'Error: NotEnoughCUDADevices("`sharded` is true but `num_shard` <= 1")', true],
  ['tgi', 'Error: WebserverFailed', false],
  [
    'tgi',
    '2026-07-08T10:12:01.118734Z ERROR text_generation_launcher: Failed to start webserver: Permission denied',
    false
  ],
  [
    'ollama',
    'time=2026-07-08T10:12:13.118Z level=INFO source=sched.go:632 msg="model is too large for system memory" requireFull=false',
    true
  ],
  [
    'ollama',
    'time=2026-07-08T10:12:13.118Z level=INFO source=sched.go:641 msg="Load failed" model=/m error="llama-server process no longer running: exit status 1 "',
    false
  ],
  [
    'triton',
    'E0708 10:12:01.118734 1 main.cc:282] "failed to start HTTP service: Unavailable - Socket \'0.0.0.0:8000\' already in use "',
    true
  ]
]

describe('fatal lines', () => {
  it.each(FATAL)('%s: %s', (engine, line, cause) => {
    const found = engineLog(engine).fatal.find((f) => f.pattern.test(line))
    expect(found?.cause).toBe(cause)
  })

  it("no benign line of any recorded startup matches any engine's fatal lines", () => {
    const all = ENGINE_LOGS.flatMap((e) => e.fatal)
    for (const name of HEALTHY) {
      for (const w of readFixture(fixture(name)).writes) {
        if (w.text !== undefined) expect([w.text, all.some((f) => f.pattern.test(w.text))]).toEqual([w.text, false])
      }
    }
  })
})

describe('Ollama v0.33.0-rc2 (the llama-server runner), built from its source', () => {
  const lines = readFixture(fixture('ollama-v0.33.0-rc2'))
    .writes.map((w) => w.text)
    .filter((t): t is string => t !== undefined)
  const matching = (pattern: RegExp | undefined): string[] => lines.filter((l) => pattern?.test(l) === true)

  it('its ready line is `llama-server started in`, not the passed-through llama.cpp `model loaded`', () => {
    expect(matching(engineLog('ollama').ready)).toEqual([
      expect.stringContaining('msg="llama-server started in 9.47 seconds"')
    ])
    expect(lines.some((l) => l.includes('llama_server: model loaded'))).toBe(true)
  })

  it('each of its phases starts at its own line, and its load took what it says', () => {
    const starts = phaseMarkers('ollama').map((m) => [m.phase, matching(m.start).length > 0])
    expect(starts).toEqual([
      ['starting server', true],
      ['discovering GPUs', true],
      ['loading model', true]
    ])
    const took = lines.map((l) => phaseMarkers('ollama')[2].took?.exec(l)?.groups).find((g) => g !== undefined)
    expect(tookSeconds(took ?? {})).toBe(9.47)
  })

  it('names Ollama from its first line, and nothing in it is fatal', () => {
    expect(lines.map((l) => engineOfLine(l)).find((e) => e !== undefined)).toBe('ollama')
    expect(lines.filter((l) => engineLog('ollama').fatal.some((f) => f.pattern.test(l)))).toEqual([])
  })
})

/** Phase lines of the engines' current source that earlier ones did not print (commits in fixtures/logs/README.md). */
const PHASE_LINES: Array<[Engine, string, string]> = [
  // vLLM's model runner v2 (vllm/v1/worker/gpu/model_runner.py)
  [
    'vllm',
    '(EngineCore_DP0 pid=2) INFO 03-09 10:12:13 [model_runner.py:214] Loading model from scratch...',
    'loading weights'
  ],
  ['vllm', 'Capturing CUDA graph shapes:  57%|█████▋    | 20/35 [00:05<00:04,  3.55it/s]', 'capturing CUDA graphs'],
  [
    'sglang',
    '[2026-07-08 10:12:13] Capture target decode CUDA graph begin. avail mem=24.14 GB',
    'capturing CUDA graphs'
  ],
  [
    'sglang',
    '[2026-07-08 10:12:13 TP0] Capture cuda graph begin. This can take up to several minutes.',
    'capturing CUDA graphs'
  ]
]

describe('phase lines of the current sources', () => {
  it.each(PHASE_LINES)('%s: %s', (engine, line, phase) => {
    const rows = phaseMarkers(engine).filter((m) => m.start?.test(line) === true || m.progress?.test(line) === true)
    expect(rows.map((m) => m.phase)).toEqual([phase])
  })

  it('vLLM v2 runner: `Model loading took 17.32 GiB and 35.89 seconds` ends and times the load', () => {
    const row = phaseMarkers('vllm').find((m) => m.phase === 'loading weights')
    const line =
      '(Worker pid=3) INFO 03-09 10:12:13 [model_runner.py:232] Model loading took 17.32 GiB and 35.894027 seconds'
    expect(row?.end?.test(line)).toBe(true)
    expect(tookSeconds(row?.took?.exec(line)?.groups ?? {})).toBeCloseTo(35.894, 3)
  })

  it('vLLM: `init engine … took 212.68 s (compilation: 13.01 s)` starts the server phase', () => {
    const line =
      '(EngineCore_DP0 pid=2) INFO 03-09 10:12:13 [core.py:349] init engine (profile, create kv cache, warmup model) took 212.68 s (compilation: 13.01 s)'
    const rows = phaseMarkers('vllm').filter((m) => m.start?.test(line) === true)
    expect(rows.map((m) => m.phase)).toEqual(['starting server'])
  })
})
