import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { runAction } from '../../src/simulator/runner.js'
import { freePort, simulate } from '../../src/simulator/server.js'
import { entry, errors } from '../helpers/support.js'
import { sandbox } from '../helpers/sandbox.js'

/**
 * SGLang lists its model during its warm-up while its own /health answers 503: through dist/cli.js and
 * dist/index.js against the simulator, ready only once /health is 200, and the log and summary say so.
 */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // in an environment of its own: no HOME, so no history in the user's cache
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH ?? '', TMPDIR: tmpdir() },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

describe("SGLang's warm-up", () => {
  it('the CLI (engine auto, from owned_by): listed during the warm-up is not ready; ready once /health is 200', async () => {
    // the port opens at 0.3s and lists the model; the warm-up ends, /health 200, at 2s and not before the gate's first
    // probe has seen it (both its requests), however busy the machine
    const server = await simulate({
      engine: 'sglang',
      model: 'Qwen/Qwen3-8B',
      loadMs: 2_000,
      opensAfterMs: 300,
      loadingAnswers: 2
    })
    try {
      const r = await runCli([
        '--url',
        `${server.baseUrl}/v1/models`,
        '--model',
        'qwen3-8b',
        '--interval',
        '200ms',
        '--timeout',
        '30s',
        '--json'
      ])
      expect(r.code).toBe(0)
      const out = JSON.parse(r.stdout) as Record<string, unknown>
      expect(out).toMatchObject({ ready: true, 'model-id': 'Qwen/Qwen3-8B' })
      // not before the warm-up ended, whatever the model list said: by /health's answers (below), and on the test's
      // clock, which a busy machine's delays only push later (elapsed-seconds counts from a start the test cannot see)
      expect(Date.now()).toBeGreaterThanOrEqual(server.readyAt)
      expect(r.stderr).toMatch(/\n[\d.]+m?s: HTTP 200, serving \[Qwen\/Qwen3-8B\] — SGLang GET \/health: HTTP 503\n/)
      expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(
        /^Ready after \d\.\ds \(\d+ probes\); model "Qwen\/Qwen3-8B": HTTP 200, serving \[Qwen\/Qwen3-8B\] — SGLang GET \/health: HTTP 200$/
      )
    } finally {
      await server.close()
    }
  })

  it('the action with engine: sglang: the summary says which answers were required and when each came', async () => {
    const server = await simulate({
      engine: 'sglang',
      model: 'Qwen/Qwen3-8B',
      loadMs: 1_500,
      opensAfterMs: 200,
      loadingAnswers: 2
    })
    try {
      const run = await runAction({
        entry,
        inputs: {
          url: `${server.baseUrl}/v1/models`,
          model: 'qwen3-8b',
          engine: 'sglang',
          interval: '200ms',
          timeout: '30s',
          'history-file': ''
        }
      })
      expect(errors(run.stdout)).toEqual([])
      expect(run.outputs.ready).toBe('true')
      expect(run.summary).toMatch(
        /\| Required answers \| the model listed \(at \d+\.\d s\); SGLang GET \/health 200 \(at \d+\.\d s\) \|/
      )
      const [, listed, healthy] = /listed \(at (\d+\.\d) s\); SGLang GET \/health 200 \(at (\d+\.\d) s\)/.exec(
        run.summary
      ) as RegExpExecArray
      expect(Number(healthy)).toBeGreaterThan(Number(listed))
    } finally {
      await server.close()
    }
  })

  it('vLLM (which opens its port only once ready) is asked only its cheap /is_sleeping and /health, once listed', async () => {
    const server = await simulate({ engine: 'vllm', model: 'm', loadMs: 300 })
    try {
      const r = await runCli(['--url', `${server.baseUrl}/v1/models`, '--model', 'm', '--interval', '200ms'])
      expect(r.code).toBe(0)
      // one probe once the port opens: the list, then vLLM's two flag checks (no generation)
      expect(server.requests).toBeLessThanOrEqual(3 * 2)
      expect(r.stderr).toContain('vLLM GET /health: HTTP 200')
    } finally {
      await server.close()
    }
  })
})

describe('generations that keep failing', () => {
  it('SGLang listed, /health 200, every generation HTTP 500: generation-failed after 60 s, not at the timeout', async () => {
    // the new user's case: before, waited out to the timeout (here 120 s; 30 minutes by default)
    const server = await simulate({ engine: 'sglang', model: 'Qwen/Qwen3-8B', loadMs: 0, generationFails: true })
    try {
      const run = await runAction({
        entry,
        inputs: {
          url: `${server.baseUrl}/v1/models`,
          model: 'qwen3-8b',
          'probe-generation': 'true',
          interval: '1s',
          timeout: '120s',
          'history-file': ''
        }
      })
      expect(run.code).toBe(1)
      expect(run.outputs).toMatchObject({ ready: 'false', reason: 'generation-failed', 'model-id': 'Qwen/Qwen3-8B' })
      const elapsed = Number(run.outputs['elapsed-seconds'])
      expect(elapsed).toBeGreaterThanOrEqual(60)
      // 60 s of the same error, then at most an interval and a request: far from the timeout on a busy machine too
      expect(elapsed).toBeLessThan(100)
      expect(Number(run.outputs.attempts)).toBeGreaterThanOrEqual(10)
      expect(errors(run.stdout)[0]).toMatch(
        /^::error title=Model server not ready \(generation-failed\)::Stopped after .*, but POST \/\S+ answered the same error for 1m0\ds \(\d+ times in a row\): HTTP 500 Internal server error: the scheduler is not responding/
      )
      expect(run.summary).toMatch(/not ready \(generation-failed\)/)
    } finally {
      await server.close()
    }
  }, 200_000)
})

describe('SGLANG_ENABLE_HEALTH_ENDPOINT_GENERATION=0', () => {
  const box = sandbox('wfm-sglang-env-e2e-')

  it('on the start line: /health no longer generates, so /health_generate is asked; a wedged engine is never ready', async () => {
    // before, /health (a plain 200 then) said ready while every generation failed
    const port = await freePort()
    const sim = `"${process.execPath}" "${cli}" simulate --engine sglang --model Qwen/Qwen3-8B --load 300ms --port ${port} --generation-fails`
    const run = await runAction({
      entry,
      inputs: {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: 'qwen3-8b',
        start: `SGLANG_ENABLE_HEALTH_ENDPOINT_GENERATION=0 ${sim}`,
        'log-file': box.path(`sglang-${port}.log`),
        interval: '200ms',
        timeout: '6s',
        'history-file': ''
      }
    })
    if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expect(run.stdout).toContain('SGLang GET /health_generate: HTTP 503')
  }, 60_000)
})
