import { fixturePath } from '../fixtures/log-fixture.mjs'
import { freePort } from '../../src/simulator/server.js'
import { parseSettings } from '../../src/inputs/parse-settings.js'
import type { InputName } from '../../src/inputs/input-names.js'
import { gate } from '../../src/wait/gate.js'
import { systemClock } from '../../src/runtime/clock.js'
import { sandbox } from '../helpers/sandbox.js'

/**
 * The still-waiting lines of a replayed engine log: a phase's progress and the time left. They come every 30 s,
 * which no input changes and a replay compressed in time never reaches: the gate runs from source here, given a
 * second instead (the rest of the profile, through dist/, is startup-profile.e2e.test.ts's).
 */
const replay = new URL('../fixtures/replay-log.mjs', import.meta.url).pathname
const box = sandbox('wait-for-model-progress-')

async function replayedLines(name: string, speedup: number, inputs: Partial<Record<InputName, string>> = {}) {
  const port = await freePort()
  const given: Partial<Record<InputName, string>> = {
    url: `http://127.0.0.1:${port}/v1/models`,
    model: 'model',
    start: `node ${replay} ${fixturePath(name)} ${speedup} ${port} 5`,
    'log-file': box.path(`${name}.log`),
    interval: '200ms',
    timeout: '40s',
    'history-file': box.path('history.jsonl'),
    stop: 'never',
    ...inputs
  }
  const settings = { ...parseSettings((n) => given[n] ?? ''), progressIntervalMs: 1_000 }
  const lines: string[] = []
  const outcome = await gate(settings, {
    clock: systemClock,
    log: (line) => lines.push(line),
    env: { ...process.env, RUNNER_TEMP: box.dir() }
  })
  if (outcome.server?.pid !== undefined) box.pids.push(outcome.server.pid)
  expect(outcome.ready).toBe(true)
  return lines.join('\n')
}

const seconds = (text: string): number => {
  const m = /^(?:(\d+)m)?(\d+(?:\.\d+)?)(s|ms)$/.exec(text) as RegExpExecArray
  return m[3] === 'ms' ? Number(m[2]) / 1000 : Number(m[1] ?? 0) * 60 + Number(m[2])
}

describe('the progress of a replayed start-up, in the still-waiting lines', () => {
  it("vLLM: shard progress with the time left at tqdm's pace", async () => {
    const out = await replayedLines('vllm', 80)
    // While the shards load (2.7s here, 213s recorded): "loading weights 45% (29/64 shards), about 1m54s left"
    const progress = [
      ...out.matchAll(
        /: loading weights (\d+)% \((\d+)\/64 shards\), about (\S+) left; the server still answers: connection refused \(\d+ probes so far\)(\n|$)/g
      )
    ]
    expect(progress.length).toBeGreaterThanOrEqual(1)
    for (const [, percent, n, left] of progress) {
      expect(Number(percent)).toBe(Math.floor((Number(n) / 64) * 100))
      // 3.3s a shard by tqdm's own clock (whole seconds), less the moments since its last line
      expect(Math.abs(seconds(left) - (64 - Number(n)) * 3.3)).toBeLessThan(5)
    }
  })

  it('SGLang: shard progress with the time left', async () => {
    const out = await replayedLines('sglang', 60)
    const progress = [...out.matchAll(/: loading weights (\d+)% \((\d+)\/64 shards\), about (\S+) left;/g)]
    expect(progress.length).toBeGreaterThanOrEqual(1)
    for (const [, , n, left] of progress) expect(Math.abs(seconds(left) - (64 - Number(n)) * 2.9)).toBeLessThan(5)
  })

  it('TGI: downloads counted as files', async () => {
    const out = await replayedLines('tgi', 50)
    expect(out).toMatch(
      /: downloading \d+% \([0-4]\/4 files\)(, about \S+ left|, almost done)?; the server still answers/
    )
  })

  it('llama.cpp: a phase without progress says how long it has run', async () => {
    const out = await replayedLines('llamacpp', 15)
    expect(out).toMatch(/: loading weights for (\d+\.\ds|\d+ms); the server still answers: connection refused/)
  })

  it("Triton, a second run: its model load timed by the first run's", async () => {
    const inputs = { 'history-key': 'triton-progress' }
    await replayedLines('triton', 4, inputs)
    const out = await replayedLines('triton', 4, { ...inputs, 'regression-threshold': '1000%' })
    expect(out).toMatch(
      /: loading model for \d+\.\ds; ready in about \S+ going by earlier runs; the server still answers: connection refused/
    )
  })
})
