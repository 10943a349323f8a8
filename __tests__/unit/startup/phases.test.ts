import { fixturePath, physicalLines, readFixture } from '../../fixtures/log-fixture.mjs'
import { phaseLeftMs } from '../../../src/startup/eta.js'
import { PhaseTracker, type TrackerEvent } from '../../../src/startup/phases.js'
import { progressText } from '../../../src/report/profile-report.js'

/** The tracker fed a recorded startup, each line read the moment its newline was written (speedup 1: seconds × 1000). */
const fixture = fixturePath
function replay(
  name: string,
  opts: { until?: number; startedAt?: number } = {}
): { tracker: PhaseTracker; events: TrackerEvent[] } {
  const tracker = new PhaseTracker({ startedAt: opts.startedAt })
  const events: TrackerEvent[] = []
  for (const line of physicalLines(readFixture(fixture(name)).writes)) {
    if (opts.until !== undefined && line.at > opts.until) break
    events.push(...tracker.feed(line.text, line.at * 1000))
  }
  return { tracker, events }
}
const names = (tracker: PhaseTracker): Array<[string, number]> => tracker.timings().map((t) => [t.name, t.seconds])

describe('the phases of each engine, from a recorded startup', () => {
  it('vLLM: stamps to the second, and its own durations preferred (the longest over the ranks)', () => {
    const { tracker, events } = replay('vllm')
    expect(tracker.engine).toBe('vllm')
    expect(tracker.ready).toBe(true)
    expect(names(tracker)).toEqual([
      ['initializing', 14],
      ['initializing distributed', 3],
      ['loading weights', 213.4],
      ['compiling', 74.5],
      ['allocating KV cache', 2],
      ['capturing CUDA graphs', 40],
      // uvicorn's ready line has no stamp: measured to when it was read (the stamps are cut to the second)
      ['starting server', 1.4]
    ])
    expect(tracker.timings().map((t) => t.printed)).toEqual([false, false, true, true, false, true, false])
    expect(events.filter((e) => e.type === 'phase').map((e) => (e as { name: string }).name)).toHaveLength(7)
    expect(tracker.fatal()).toBeUndefined()
  })

  it('SGLang: per-rank lines do not restart a phase, and graph capture counts batch sizes', () => {
    const { tracker, events } = replay('sglang')
    // A phase its end marker closed is still named when the next begins.
    expect(
      events.filter((e) => e.type === 'phase').map((e) => e.type === 'phase' && [e.name, e.previous?.name])
    ).toEqual([
      ['initializing', undefined],
      ['initializing distributed', 'initializing'],
      ['loading weights', 'initializing distributed'],
      ['allocating KV cache', 'loading weights'],
      ['capturing CUDA graphs', 'allocating KV cache'],
      ['starting server', 'capturing CUDA graphs'],
      ['warming up', 'starting server']
    ])
    expect(names(tracker)).toEqual([
      ['initializing', 8],
      ['initializing distributed', 3.9],
      ['loading weights', 187],
      ['allocating KV cache', 3],
      ['capturing CUDA graphs', 32.4],
      ['starting server', 2],
      ['warming up', 5]
    ])
  })

  it('TGI: coloured lines, microsecond stamps, and the Rust duration of "Shard ready in"', () => {
    const { tracker } = replay('tgi')
    expect(tracker.engine).toBe('tgi')
    expect(names(tracker)).toEqual([
      ['downloading', 149.9],
      ['loading weights', 35.9],
      ['starting server', 0.3],
      ['warming up', 14.9]
    ])
  })

  it('llama.cpp: no stamps, so durations are measured from when lines were read; lines before the engine is known are read again', () => {
    const { tracker, events } = replay('llamacpp')
    expect(events[0]).toEqual({ type: 'engine', engine: 'llamacpp', from: 'log' })
    expect(names(tracker)).toEqual([
      ['initializing', 0.1],
      ['loading weights', 40.8],
      ['allocating KV cache', 1.5],
      ['warming up', 1.6],
      // ended by `main: model loaded`, which this build prints once it has set itself ready
      ['starting server', 0.1]
    ])
    expect(tracker.timings().every((t) => !t.printed)).toBe(true)
  })

  it('Ollama: the runner start is the model load, with the duration Ollama prints', () => {
    const { tracker } = replay('ollama')
    expect(names(tracker)).toEqual([
      ['starting server', 0.1],
      ['discovering GPUs', 1.8],
      ['loading model', 9.5]
    ])
  })

  it('Triton: JSON-quoted messages and the tables between them', () => {
    const { tracker } = replay('triton')
    expect(names(tracker)).toEqual([
      ['initializing', 0.4],
      ['loading model', 9.4],
      ['starting server', 0.3]
    ])
  })
})

describe('progress and the estimate while loading', () => {
  it("vLLM weight shards: 45% (29/64 shards) with the time left from tqdm's own pace", () => {
    const { tracker } = replay('vllm', { until: 114.0 })
    const now = 114_000
    const phase = tracker.current(now)
    expect(phase).toMatchObject({
      name: 'loading weights',
      progress: { unit: 'shards', last: { n: 29, total: 64, elapsedS: 95 } }
    })
    const left = phaseLeftMs(phase!.progress!, now)
    // 95 s for 29 shards, 35 to go
    expect(left).toBeCloseTo((95_000 / 29) * 35, 0)
    expect(progressText(phase!, left)).toBe('loading weights 45% (29/64 shards), about 1m54s left')
    // Ten seconds later without a new shard, the estimate has come down by those ten seconds.
    expect(phaseLeftMs(phase!.progress!, now + 10_000)).toBeCloseTo((95_000 / 29) * 35 - 10_000, 0)
  })

  it('a tqdm bar updated in place (\\r, no newline): each update counts, and a second bar starts over', () => {
    const tracker = new PhaseTracker({ engine: 'vllm' })
    const bar = (desc: string, n: number, total: number, el: string): string =>
      `\rCapturing CUDA graphs (${desc}): ${Math.round((100 * n) / total)}%|█    | ${n}/${total} [${el}<00:10, 2.4it/s]`
    tracker.feed(
      `(Worker_TP0 pid=452) ${bar('mixed prefill-decode, PIECEWISE', 0, 51, '00:00')}${bar('mixed prefill-decode, PIECEWISE', 20, 51, '00:08')}`,
      1000
    )
    expect(tracker.current(1000)).toMatchObject({
      name: 'capturing CUDA graphs',
      progress: { unit: 'graphs', last: { n: 20, total: 51 } }
    })
    tracker.feed(bar('decode, FULL', 3, 35, '00:01'), 2000)
    expect(tracker.current(2000)?.progress).toMatchObject({
      first: { n: 3, total: 35 },
      last: { n: 3, total: 35, elapsedS: 1 }
    })
  })

  it("without tqdm's elapsed time, the rate comes from when the counts were read (TGI downloads)", () => {
    const { tracker } = replay('tgi', { until: 120 })
    const phase = tracker.current(120_000)!
    expect(phase.progress?.last).toMatchObject({ n: 3, total: 4 })
    // 3 files over the reads at 40.0 s … 114.3 s: 37.15 s a file, 1 to go, read 5.7 s ago.
    expect(phaseLeftMs(phase.progress!, 120_000)).toBeCloseTo(37_150 - 5_700, -1)
    expect(progressText(phase, phaseLeftMs(phase.progress!, 120_000))).toBe(
      'downloading 75% (3/4 files), about 31.5s left'
    )
  })

  it('a phase without progress says how long it has been going', () => {
    const { tracker } = replay('vllm', { until: 260 })
    const phase = tracker.current(262_000)!
    expect(phase.name).toBe('compiling')
    // began at 236.0 s, stamped 10:15:57 (cut from 57.1): placed 0.1 s early on the read scale
    expect(progressText(phase)).toBe('compiling for 26.1s')
  })
})

describe('the tracker', () => {
  it('counts the time before the first marker as "starting" when the process start is known', () => {
    const { tracker } = replay('llamacpp', { startedAt: -2000 })
    expect(names(tracker).slice(0, 2)).toEqual([
      ['starting', 2.1],
      ['initializing', 0.1]
    ])
  })

  it('maps stamps onto the read scale when a line is read late, and falls back to reads when stamps go back', () => {
    const tracker = new PhaseTracker({ engine: 'sglang' })
    // Read in one burst 60 s after they were written: the durations still come from the stamps.
    tracker.feed('[2026-07-08 10:00:00] server_args=ServerArgs(tp_size=1)', 60_000)
    tracker.feed('[2026-07-08 10:00:20 TP0] Load weight begin. avail mem=78.00 GB', 60_001)
    expect(tracker.current(60_001)).toMatchObject({ name: 'loading weights' })
    // A clock set back by an hour on the server: the reads decide.
    tracker.feed('[2026-07-08 09:00:30 TP0] Using KV cache dtype: torch.bfloat16', 70_001)
    expect(names(tracker)).toEqual([
      ['initializing', 20],
      ['loading weights', 10]
    ])
  })

  it('learns the engine from the model list and reads the lines before it again', () => {
    const tracker = new PhaseTracker()
    // Lines that no engine signs on their own
    expect(
      tracker.feed('Loading safetensors checkpoint shards:  50% Completed | 1/2 [00:04<00:04,  4.00s/it]', 5000)
    ).toEqual([])
    expect(tracker.engine).toBeUndefined()
    const events = tracker.setEngine('sglang')
    expect(events[0]).toEqual({ type: 'engine', engine: 'sglang', from: 'models' })
    expect(events[1]).toMatchObject({ type: 'phase', name: 'loading weights' })
    expect(tracker.setEngine('vllm')).toEqual([])
  })

  it('ends the phase under way when the wait ends, and keeps no phase open after the ready line', () => {
    const tracker = new PhaseTracker({ engine: 'triton' })
    tracker.feed('I0708 10:12:01.000000 1 model_lifecycle.cc:473] "loading: resnet50:1"', 0)
    tracker.finish(4200)
    expect(names(tracker)).toEqual([['loading model', 4.2]])
    expect(tracker.current(5000)).toBeUndefined()
  })
})

describe('fatal lines', () => {
  it('vLLM out of memory: quotes the cause rather than the first failure line, with its line number', () => {
    const tracker = new PhaseTracker()
    let first: ReturnType<PhaseTracker['fatal']>
    for (const line of physicalLines(readFixture(fixture('vllm-oom')).writes)) {
      tracker.feed(line.text, line.at * 1000)
      first ??= tracker.fatal()
    }
    const fatal = tracker.fatal()
    expect(fatal?.cause).toBe(true)
    expect(fatal?.line).toMatch(/torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate 816\.82 MiB/)
    expect(fatal?.lineNumber).toBe(35)
    // The first fatal line seen is the failure that precedes the traceback.
    expect(first).toMatchObject({ line: expect.stringMatching(/WorkerProc hit an exception/), cause: false })
  })

  it('SGLang NCCL error and llama.cpp failed load', () => {
    expect(replay('sglang-nccl').tracker.fatal()?.line).toBe(
      'RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)'
    )
    expect(replay('llamacpp-fail').tracker.fatal()?.line).toBe(
      'llama_model_load: error loading model: llama_model_loader: failed to load model from /models/Qwen3-32B-Q4_K_M.gguf'
    )
  })

  it('are recognised before the engine is known', () => {
    const tracker = new PhaseTracker()
    tracker.feed('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.', 0)
    expect(tracker.engine).toBeUndefined()
    expect(tracker.fatal()).toEqual({
      line: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.',
      lineNumber: 1,
      cause: true
    })
  })

  it('no startup line of a healthy start is taken for a fatal one', () => {
    for (const name of ['vllm', 'sglang', 'tgi', 'llamacpp', 'ollama', 'triton']) {
      expect([name, replay(name).tracker.fatal()]).toEqual([name, undefined])
    }
  })
})
