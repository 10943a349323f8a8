import { spawn } from 'node:child_process'
import { runAction } from '../../src/simulator/runner.js'
import { simulate } from '../../src/simulator/server.js'
import type { SimulatorOptions } from '../../src/simulator/options.js'
import { HANG_MS, MAX_STRETCH, measureLoad } from '../helpers/bounds.js'
import { entry } from '../helpers/support.js'

/**
 * Each engine's own readiness, and the states waiting cannot change, through dist/cli.js and dist/index.js
 * against the simulator's engines on loopback (their answers as the engines' source and docs shape them:
 * their records in src/engines/ quote them). The default interval (5s) and schedule: as users run it. "Not before" is
 * bound by what was said (the ready line quotes the engine's own ready answer) and by the test's clock, which only
 * a busy machine's delays push later; "within 1 s" is stretched by the load measured during the run
 * (helpers/bounds.ts), and measured on an idle machine by `npm run bench -- --only bounds`.
 */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname

interface CliRun {
  code: number | null
  out: Record<string, unknown>
  stderr: string
  /** When the command was started, and when its output closed (ms since the epoch). */
  startedAt: number
  endedAt: number
  /** How many times slower than idle the machine ran meanwhile. */
  stretch: number
}

function runCli(args: string[]): Promise<CliRun> {
  const stretch = measureLoad()
  const startedAt = Date.now()
  const child = spawn(process.execPath, [cli, ...args, '--json', '--history-file', ''], {
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({
        code,
        out: JSON.parse(stdout) as Record<string, unknown>,
        stderr,
        startedAt,
        endedAt: Date.now(),
        stretch: stretch()
      })
    )
  )
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

async function withServer<T>(options: SimulatorOptions, body: (base: string, readyAt: number) => Promise<T>) {
  const server = await simulate(options)
  try {
    return await body(server.baseUrl, server.readyAt)
  } finally {
    await server.close()
  }
}

describe("each engine's own readiness: not ready until it says so, and seen within 1 s of it", () => {
  it.each([
    ['nim', 'meta/llama-3.1-8b-instruct', 'NVIDIA NIM GET /v1/health/ready: HTTP 503'],
    ['localai', 'qwen3-8b', 'LocalAI GET /readyz: HTTP 503'],
    ['kserve', 'sklearn-iris', 'KServe GET /v2/models/sklearn-iris/ready: HTTP 503']
  ] as const)(
    '%s lists its model at once, and is ready only once its readiness route says so',
    (engine, model, notYet) =>
      withServer({ engine, model, loadMs: 2_500 }, async (base, readyAt) => {
        const r = await runCli(['--url', `${base}/v1/models`, '--model', model, '--engine', engine, '--timeout', '30s'])
        expect(r.code).toBe(0)
        expect(r.out).toMatchObject({ ready: true, 'model-id': model, 'model-match': 'exact' })
        expect(r.stderr).toContain(notYet)
        // not before the engine said ready: on its own ready answer, and after the moment it was due...
        expect(r.stderr).toMatch(
          new RegExp(`^Ready after .*${escape(notYet.replace(': HTTP 503', ': HTTP 200'))}`, 'm')
        )
        expect(r.endedAt).toBeGreaterThanOrEqual(readyAt)
        // ...and within a second of it (the output's close includes the process's exit)
        expect(r.endedAt - readyAt).toBeLessThanOrEqual(1_000 * r.stretch)
      })
  )

  it('a sleeping vLLM (dev mode: /is_sleeping true) lists its model and /health 200: ready once awake', () =>
    withServer({ engine: 'vllm', model: 'Qwen/Qwen3-8B', loadMs: 200, sleepsUntilMs: 2_500 }, async (base, readyAt) => {
      const awakeAt = readyAt - 200 + 2_500
      const r = await runCli(['--url', `${base}/v1/models`, '--model', 'Qwen/Qwen3-8B', '--timeout', '30s'])
      expect(r.code).toBe(0)
      expect(r.stderr).toContain('vLLM GET /is_sleeping: HTTP 200 {"is_sleeping":true}')
      expect(r.endedAt).toBeGreaterThanOrEqual(awakeAt)
      expect(r.endedAt - awakeAt).toBeLessThanOrEqual(1_000 * r.stretch)
    }))

  it('load: true wakes a sleeping vLLM (POST /wake_up)', () =>
    withServer({ engine: 'vllm', model: 'm', loadMs: 100, sleepsUntilMs: 600_000 }, async (base) => {
      const r = await runCli(['--url', `${base}/v1/models`, '--model', 'm', '--load', 'true', '--timeout', '20s'])
      expect(r.code).toBe(0)
      expect(r.stderr).toContain('Asked vLLM to wake up: POST /wake_up')
      // asleep for 10 minutes unless woken: ready at all is the wake-up; promptly, on the command's own clock
      expect(Number(r.out['elapsed-seconds'])).toBeLessThan(5 * r.stretch)
    }))

  it('a vLLM without dev mode (/is_sleeping 404) is ready as soon as it lists its model', () =>
    withServer({ engine: 'vllm', model: 'm', loadMs: 300 }, async (base) => {
      const r = await runCli(['--url', `${base}/v1/models`, '--model', 'm', '--timeout', '20s'])
      expect(r.out).toMatchObject({ ready: true, reason: 'ready' })
      // the first answer that lists it is the ready one: no line of a listed model still waiting
      expect(r.stderr.match(/^[\d.]+m?s: HTTP 200, serving \[m\].*$/gm)).toEqual([
        expect.stringMatching(/— vLLM GET \/health: HTTP 200$/)
      ])
    }))
})

describe('what waiting cannot change ends the wait at once', () => {
  it(
    "Triton's UNAVAILABLE model ends it within 10 s with reason=load-failed, quoting Triton's reason",
    () =>
      withServer(
        { engine: 'triton', model: 'densenet', loadMs: 300, failsToLoad: 'unable to find model.onnx' },
        async (base) => {
          const r = await runCli(['--url', `${base}/v2/health/ready`, '--engine', 'triton', '--timeout', '2m'])
          expect(r.code).toBe(1)
          expect(r.out).toMatchObject({ ready: false, reason: 'load-failed', 'status-code': 400 })
          expect(r.endedAt - r.startedAt).toBeLessThan(10_000 * r.stretch)
          expect(r.stderr).toContain(
            'the engine says "densenet" failed to load (Triton POST /v2/repository/index: UNAVAILABLE): unable to find model.onnx'
          )
        }
      ),
    10_000 * MAX_STRETCH + HANG_MS
  )

  it("Triton's reason is quoted on one line: a newline and a workflow command in it stay text", () =>
    withServer(
      { engine: 'triton', model: 'm', loadMs: 100, failsToLoad: 'bad\n::error title=pwned::injected\r\nmore' },
      async (base) => {
        const run = await runAction({
          entry,
          inputs: { url: `${base}/v2/health/ready`, engine: 'triton', timeout: '1m', 'history-file': '' }
        })
        expect(run.outputs).toMatchObject({ ready: 'false', reason: 'load-failed' })
        expect(run.stdout).not.toMatch(/^::error title=pwned/m)
        expect(run.stdout).toContain('bad ::error title=pwned::injected more')
      }
    ))

  it(
    'a one-model engine listing another model ends it within 30 s + 15 s, naming what it serves',
    () =>
      withServer({ engine: 'vllm', model: 'Qwen/Qwen3-8B', loadMs: 300 }, async (base) => {
        const r = await runCli(['--url', `${base}/v1/models`, '--model', 'kimi', '--timeout', '3m'])
        expect(r.code).toBe(1)
        expect(r.out).toMatchObject({ ready: false, reason: 'wrong-model', models: ['Qwen/Qwen3-8B'] })
        expect(r.endedAt - r.startedAt).toBeLessThan(30_000 + 15_000 * r.stretch)
        expect(Number(r.out['elapsed-seconds'])).toBeGreaterThanOrEqual(30)
        expect(r.stderr).toMatch(/the server serves "Qwen\/Qwen3-8B", not "kimi", unchanged for \d+\.\ds/)
      }),
    30_000 + 15_000 * MAX_STRETCH + HANG_MS
  )

  it(
    "a vLLM whose engine core died (generations answer EngineCore's error) ends within 20 s with engine-dead",
    () =>
      withServer({ engine: 'vllm', model: 'm', loadMs: 200, generationFails: true }, async (base) => {
        const r = await runCli([
          '--url',
          `${base}/v1/models`,
          '--model',
          'm',
          '--probe-generation',
          'true',
          '--timeout',
          '2m'
        ])
        expect(r.code).toBe(1)
        expect(r.out).toMatchObject({ ready: false, reason: 'engine-dead' })
        // stretched by the load measured meanwhile: a busy machine delays Node's start and every request
        expect(r.endedAt - r.startedAt).toBeLessThan(20_000 * r.stretch)
        expect(r.stderr).toContain("answered the engine's own dead-engine error 3 times in a row (HTTP 500)")
      }),
    // the test's own limit is never shorter than the stretched bound it waits for
    20_000 * MAX_STRETCH + HANG_MS
  )
})

describe('how the model matched', () => {
  it('exact, or partial with a warning naming both; model-match: exact refuses the partial one', async () => {
    await withServer({ engine: 'vllm', model: '/shared/kimi-k2.5-int4', loadMs: 100 }, async (base) => {
      const url = `${base}/v1/models`
      const exact = await runCli(['--url', url, '--model', 'Kimi-K2.5-INT4'])
      expect(exact.out).toMatchObject({ ready: true, 'model-match': 'exact' })
      expect(exact.stderr).not.toContain('warning:')
      const partial = await runCli(['--url', url, '--model', 'kimi-k2'])
      expect(partial.out).toMatchObject({ ready: true, 'model-match': 'partial', 'model-id': '/shared/kimi-k2.5-int4' })
      expect(partial.stderr).toContain(
        'warning: "kimi-k2" matched the listed id "/shared/kimi-k2.5-int4" only partly (the id contains it)'
      )
      const refused = await runCli(['--url', url, '--model', 'kimi-k2', '--model-match', 'exact', '--timeout', '2s'])
      expect(refused.out).toMatchObject({ ready: false, reason: 'timeout', 'model-match': '' })
      expect(refused.stderr).toContain('"/shared/kimi-k2.5-int4" contains it, which "model-match: exact" refuses')
    })
  })

  it('the action sets the output and warns with an annotation', () =>
    withServer({ engine: 'vllm', model: '/shared/kimi-k2.5-int4', loadMs: 100 }, async (base) => {
      const run = await runAction({
        entry,
        inputs: { url: `${base}/v1/models`, model: 'kimi', 'history-file': '' }
      })
      expect(run.outputs).toMatchObject({ ready: 'true', 'model-match': 'partial' })
      expect(run.stdout).toMatch(/^::warning title=Model matched only partly::"kimi" matched the listed id/m)
    }))
})
