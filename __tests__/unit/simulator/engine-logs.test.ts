import { fixturePath, physicalLines, readFixture } from '../../fixtures/log-fixture.mjs'
import { SIMULATED_LOGS, logLine } from '../../../src/simulator/engine-logs.js'
import type { EngineName } from '../../../src/simulator/engines.js'
import { simulate } from '../../../src/simulator/server.js'
import { PhaseTracker } from '../../../src/startup/phases.js'

/**
 * The simulator's start-up logs, read by the product's own log reader: each engine's phases as its recorded
 * start-up shows them (__tests__/fixtures/logs/), its ready line, and its fatal lines as it dies.
 */
const fixture = fixturePath
const START = new Date(Date.UTC(2026, 11, 2, 10, 0, 0))

/** The simulated log of `engine` for a load of `loadMs`, read line by line at the moment each is printed. */
function readSimulated(engine: EngineName, loadMs: number, lines = SIMULATED_LOGS[engine].lines): PhaseTracker {
  const log = SIMULATED_LOGS[engine]
  const tracker = new PhaseTracker({})
  for (const [share, text] of lines) {
    const since = share * loadMs
    tracker.feed(
      logLine(log, text, { model: 'the-model', at: new Date(START.getTime() + since), sinceMs: since, loadMs }),
      since
    )
  }
  return tracker
}

const phaseNames = (tracker: PhaseTracker): string[] => tracker.timings().map((t) => t.name)

describe("the simulator's engine logs", () => {
  it.each(['vllm', 'sglang', 'tgi', 'llamacpp', 'ollama', 'triton'] as const)(
    '%s: the engine, its phases in the order of its recorded start-up, and its ready line',
    (engine) => {
      const recorded = new PhaseTracker({})
      for (const line of physicalLines(readFixture(fixture(engine)).writes)) recorded.feed(line.text, line.at * 1000)
      const simulated = readSimulated(engine, 60_000)
      expect(simulated.engine).toBe(engine)
      expect(phaseNames(simulated)).toEqual(phaseNames(recorded))
      expect(simulated.ready).toBe(true)
      expect(simulated.fatal()).toBeUndefined()
      // the phases add up to the load, to the engine's own resolution (vLLM and SGLang stamp whole seconds)
      const total = simulated.timings().reduce((sum, t) => sum + t.seconds, 0)
      expect(Math.abs(total - 60)).toBeLessThanOrEqual(2)
    }
  )

  // OpenVINO Model Server is not PyTorch, and its words for an out-of-memory load were not read: its failed load only
  it.each((Object.keys(SIMULATED_LOGS) as EngineName[]).filter((e) => e !== 'ovms'))(
    '%s: the lines it prints as it dies are a fatal line to the log reader, naming the cause',
    (engine) => {
      const log = SIMULATED_LOGS[engine]
      const tracker = readSimulated(
        engine,
        60_000,
        log.lines.filter(([share]) => share < 0.3)
      )
      for (const text of log.fatal)
        tracker.feed(logLine(log, text, { model: 'the-model', at: START, sinceMs: 20_000, loadMs: 60_000 }), 20_000)
      expect(tracker.fatal()).toMatchObject({ cause: true })
      expect(tracker.fatal()?.line).toMatch(/out of memory|out-of-memory/)
    }
  )

  it('ovms: a model left LOADING with an error code is a fatal line to the log reader', () => {
    const log = SIMULATED_LOGS.ovms
    const tracker = readSimulated('ovms', 60_000, log.lines.slice(0, 2))
    for (const text of log.fatal)
      tracker.feed(logLine(log, text, { model: 'the-model', at: START, sinceMs: 20_000, loadMs: 60_000 }), 20_000)
    expect(tracker.fatal()?.line).toContain('"error_code": "UNKNOWN"')
  })

  it('simulate() prints them in order, the fatal lines last as it crashes, and none after', async () => {
    const lines: string[] = []
    const server = await simulate({
      engine: 'sglang',
      model: 'm',
      loadMs: 60_000,
      crashAfterMs: 200,
      onLog: (line) => lines.push(line)
    })
    await server.ended
    const first = SIMULATED_LOGS.sglang.lines.filter(([share]) => share * 60_000 < 200).length
    expect(lines).toHaveLength(first + SIMULATED_LOGS.sglang.fatal.length)
    expect(lines[0]).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] server_args=ServerArgs\(model_path='m'/)
    expect(lines.at(-1)).toMatch(/Scheduler hit an exception/)
    await new Promise((r) => setTimeout(r, 50))
    expect(lines).toHaveLength(first + SIMULATED_LOGS.sglang.fatal.length)
  })
})
