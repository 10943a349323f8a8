import { readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import type { SimulatedServer } from '../../src/simulator/options.js'
import { freePort, simulate } from '../../src/simulator/server.js'
import { runAction } from '../../src/simulator/runner.js'
import { measureLoad } from '../helpers/bounds.js'
import { loopback } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, type ProcessRun, runProcess } from '../helpers/support.js'

/** The throughput smoke test end to end: the packaged action and CLI against the simulator streaming at a pace. */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const box = sandbox('wfm-smoke-e2e-')
const net = loopback()
const servers: SimulatedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function simulated(
  engine: 'sglang' | 'tgi' | 'ollama' | 'llamacpp',
  model: string,
  pace: { tokensPerSecond: number; ttftMs: number },
  generationFails = false
): Promise<string> {
  const server = await simulate({ engine, model, loadMs: 0, pace, generationFails })
  servers.push(server)
  return server.baseUrl
}

const runCli = (args: string[]): Promise<ProcessRun> =>
  runProcess(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: box.dir(), TMPDIR: tmpdir() }
  })

describe('the smoke test', () => {
  it('the action: ttft-ms and decode-tokens-per-second near the pace set, in outputs, results and the summary', async () => {
    const base = await simulated('sglang', '/models/qwen3-8b', { tokensPerSecond: 50, ttftMs: 300 })
    const stretch = measureLoad()
    const run = await runAction({
      entry,
      inputs: {
        url: `${base}/v1/models`,
        model: 'qwen3',
        'smoke-test': 'true',
        'history-file': box.path('history.jsonl')
      }
    })
    const load = stretch()
    expect(run.code).toBe(0)
    expect(run.outputs.ready).toBe('true')
    // generous, and looser by the load measured during the run (the simulator's pace and the action's reading both
    // slow down on a busy machine, never speed up); the bench measures the accuracy
    expect(Number(run.outputs['ttft-ms'])).toBeGreaterThanOrEqual(295)
    expect(Number(run.outputs['ttft-ms'])).toBeLessThan(300 + 300 * load)
    expect(Number(run.outputs['decode-tokens-per-second'])).toBeGreaterThan(40 / load)
    expect(Number(run.outputs['decode-tokens-per-second'])).toBeLessThan(55)
    expect(JSON.parse(run.outputs.results)[0]).toMatchObject({
      'ttft-ms': Number(run.outputs['ttft-ms']),
      'decode-tokens-per-second': Number(run.outputs['decode-tokens-per-second'])
    })
    expect(run.summary).toMatch(/\| Decode rate \(smoke test\) \| \d+\.\d tokens\/s \(median of 3; tokens counted from/)
    expect(run.stdout).toMatch(/Smoke test 3\/3: first token after \d+ ms; 64 tokens at/)
    expect(run.stdout).toMatch(/; probing every 250ms; then a smoke test of 3 streamed generations of 64 tokens$/m)
    expect(readFileSync(box.path('history.jsonl'), 'utf8')).toMatch(
      /"decodeTokensPerSecond":\d+(\.\d)?,"smokeTokens":64/
    )
  })

  it.each([
    ['llamacpp', 'qwen3-8b-q4_k_m.gguf', "llama.cpp's timings: predicted_per_second, prompt_ms", 'timings'],
    ['ollama', 'qwen3:8b', "Ollama's eval_count / eval_duration, prompt_eval_duration", 'eval_duration']
  ] as const)(
    "the action on %s: the engine's own timing beside ours, in the summary, the log, results and the history",
    async (engine, model, words, source) => {
      const base = await simulated(engine, model, { tokensPerSecond: 50, ttftMs: 300 })
      const file = box.path(`engine-${engine}.jsonl`)
      const stretch = measureLoad()
      const run = await runAction({
        entry,
        inputs: {
          url: `${base}${engine === 'ollama' ? '/api/tags' : '/v1/models'}`,
          model: model.split(/[.:-]/)[0],
          'smoke-test': 'true',
          'history-file': file
        }
      })
      const load = stretch()
      expect(run.code).toBe(0)
      const result = JSON.parse(run.outputs.results)[0]
      // the simulated engine times itself as the real one does: its prefill is the time to the first token it was
      // given, its decode rate the pace set (Ollama's counts the first token too: a hair above)
      expect(result['engine-timings']).toMatchObject({ source, 'prompt-ms': 300 })
      expect(result['engine-timings']['decode-tokens-per-second']).toBeGreaterThan(40 / load)
      expect(result['engine-timings']['decode-tokens-per-second']).toBeLessThan(55)
      // the summary's Markdown escapes the underscores
      expect(run.summary).toContain(
        `| Engine's own timing (smoke test) | decode ${result['engine-timings']['decode-tokens-per-second'].toFixed(1)} tokens/s, ` +
          `prompt 300 ms (median of 3; ${words.replace(/_/g, '\\_')}, timed inside the server) |`
      )
      expect(run.stdout).toMatch(
        /^Smoke test: time to first token \d+ ms, decode [^\n]*; the engine's own: decode \d+\.\d tokens\/s, prompt 300 ms \(/m
      )
      expect(run.stdout).toContain(`prompt 300 ms (${words})\n`)
      const record = JSON.parse(readFileSync(file, 'utf8').trim())
      expect(record.enginePromptMs).toBe(300)
      expect(record.engineDecodeTokensPerSecond).toBeCloseTo(result['engine-timings']['decode-tokens-per-second'], 0)
    }
  )

  it('the action: a slower decode rate than earlier runs warns, naming the env-report variable lost; fails with fail-on-regression', async () => {
    const base = await simulated('sglang', '/models/qwen3-8b', { tokensPerSecond: 100, ttftMs: 20 })
    const file = box.path('slower.jsonl')
    const earlier = {
      v: 1,
      key: 'sglang-smoke',
      at: '2026-07-01T00:00:00Z',
      ready: true,
      reason: 'ready',
      elapsedSeconds: 1,
      phases: [],
      env: { NCCL_IB_HCA: 'mlx5_0' },
      envReport: 'NCCL_*',
      ttftMs: 20,
      decodeTokensPerSecond: 400,
      smokeTokens: 64
    }
    writeFileSync(file, `${JSON.stringify(earlier)}\n`.repeat(3))
    const inputs = {
      url: `${base}/v1/models`,
      model: 'qwen3',
      // this process serves the simulator: its environment has no NCCL_IB_HCA
      pid: String(process.pid),
      'env-report': 'NCCL_*',
      'smoke-test': 'true',
      'history-file': file,
      'history-key': 'sglang-smoke'
    }
    const warned = await runAction({ entry, inputs })
    expect(warned.code).toBe(0)
    // the runner's escaping: % is %25 in an annotation
    expect(warned.stdout).toMatch(
      /^::warning title=Model server decodes slower than usual::Decode rate \d+\.\d tokens\/s, \d+\.\d%25 below the median of 400\.0 tokens\/s of the last 3 runs with a smoke test; the server's environment changed since the previous run, a likely cause: NCCL_IB_HCA was "mlx5_0" in the last 3 runs, now unset\./m
    )
    expect(warned.summary).toContain('usual 400.0 tokens/s')
    const failed = await runAction({ entry, inputs: { ...inputs, 'fail-on-regression': 'true' } })
    expect(failed.code).toBe(1)
    expect(failed.outputs.ready).toBe('true')
    expect(failed.stdout).toMatch(/^::error title=Model server decodes slower than usual::Decode rate /m)
  })

  it('the smoke test counts in neither startup-seconds nor the startup phases: they end when the server is ready', async () => {
    const port = await freePort()
    const stretch = measureLoad()
    const run = await runAction({
      entry,
      inputs: {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: 'qwen3',
        start: `node ${cli} simulate --engine vllm --model qwen3 --port ${port} --load 500ms --tokens-per-second 60 --ttft 100`,
        interval: '200ms',
        'smoke-test': 'true',
        'history-file': ''
      }
    })
    if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
    expect(run.code).toBe(0)
    // three requests of 0.1 s + 63 / 60 s each: over 3 s after the server was ready
    expect(Number(run.outputs['decode-tokens-per-second'])).toBeGreaterThan(45 / stretch())
    const startup = Number(run.outputs['startup-seconds'])
    const phases = JSON.parse(run.outputs.phases) as Array<{ seconds: number }>
    expect(startup).toBeLessThan(Number(run.outputs['elapsed-seconds']) + 0.5)
    // the simulated vLLM's log stamps whole seconds (as vLLM does), so its phases are known to a second; the smoke
    // test's 3 s and more would still show
    expect(phases.reduce((sum, p) => sum + p.seconds, 0)).toBeLessThan(startup + 1.5)
    expect(run.wallMs).toBeGreaterThan((startup + 2) * 1000)
  })

  it('the CLI --json: the figures as numbers; fail-on-error fails on a failing generation with reason smoke-failed', async () => {
    const tgi = await simulated('tgi', 'Qwen/Qwen3-8B', { tokensPerSecond: 200, ttftMs: 50 })
    const stretch = measureLoad()
    const ok = await runCli(['--url', `${tgi}/info`, '--smoke-test', 'true', '--json'])
    const load = stretch()
    expect(ok.code).toBe(0)
    const json = JSON.parse(ok.stdout)
    expect(json).toMatchObject({ ready: true, reason: 'ready' })
    expect(typeof json['ttft-ms']).toBe('number')
    expect(json['decode-tokens-per-second']).toBeGreaterThan(150 / load)
    expect(ok.stderr).toContain("tokens counted from the engine's details.generated_tokens")

    const failing = await simulated('ollama', 'llama3.2:latest', { tokensPerSecond: 200, ttftMs: 20 }, true)
    const args = ['--url', `${failing}/api/tags`, '--model', 'llama3.2', '--json']
    const warned = await runCli([...args, '--smoke-test', 'true'])
    expect(warned.code).toBe(0)
    expect(JSON.parse(warned.stdout)).toMatchObject({ ready: true, 'ttft-ms': null, 'decode-tokens-per-second': null })
    expect(warned.stderr).toContain(
      "warning: The smoke test could not measure throughput: the engine's stream said: llama runner process has terminated"
    )
    const failed = await runCli([...args, '--smoke-test', 'fail-on-error'])
    expect(failed.code).toBe(1)
    expect(JSON.parse(failed.stdout)).toMatchObject({ ready: false, reason: 'smoke-failed' })
    expect(failed.stderr).toMatch(/error: The smoke test could not measure throughput/)
  })

  it('a fleet: each endpoint measured, its figures in its entry of results', async () => {
    const fast = await simulated('sglang', 'qwen3', { tokensPerSecond: 400, ttftMs: 20 })
    const slow = await simulated('sglang', 'qwen3', { tokensPerSecond: 100, ttftMs: 150 })
    const flags = ['--model', 'qwen3', '--smoke-test', 'true', '--timeout', '20s', '--json']
    const r = await runCli(['--url', `${fast}/v1/models`, '--url', `${slow}/v1/models`, ...flags])
    expect(r.code).toBe(0)
    const results = JSON.parse(r.stdout).results as Array<Record<string, number>>
    expect(results).toHaveLength(2)
    expect(results[0]['decode-tokens-per-second']).toBeGreaterThan(results[1]['decode-tokens-per-second'])
    expect(results[1]['ttft-ms']).toBeGreaterThanOrEqual(150)
    expect(r.stderr).toContain(`[${fast}/v1/models] Smoke test: time to first token`)
  })

  it("a stream that never ends, or one endless line, is cut at the wait's timeout", async () => {
    const endless = await net.http((req, res) => {
      if (req.method === 'GET')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"m"}]}')
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const timer = setInterval(() => res.write(`data: {"choices":[{"text":"${'x'.repeat(1000)}`), 2)
      res.on('close', () => clearInterval(timer))
    })
    const r = await runCli(['--url', `${endless}/v1/models`, '--smoke-test', 'true', '--timeout', '2s', '--json'])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(
      /warning: The smoke test could not measure throughput: the stream sent a line longer than 64 KiB/
    )
    const trickle = await net.http((req, res) => {
      if (req.method === 'GET')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"m"}]}')
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const timer = setInterval(() => res.write(': keep-alive\n\n'), 20)
      res.on('close', () => clearInterval(timer))
    })
    const stretch = measureLoad()
    const cut = await runCli(['--url', `${trickle}/v1/models`, '--smoke-test', 'true', '--timeout', '2s'])
    expect(cut.code).toBe(0)
    // what was left of the 2 s once the server was ready
    expect(cut.stderr).toMatch(/it did not finish within (\d+ms|1\.\ds)\b/)
    // the whole run: its start, one probe and the smoke test, within the timeout (times the load measured meanwhile)
    expect(cut.wallMs).toBeLessThan(5_000 * stretch())
  })
})

describe('bad usage of the smoke-test flags', () => {
  it.each([
    [
      ['--url', 'http://127.0.0.1:9/v1/models', '--smoke-test', 'maybe'],
      /^wait-for-model: --smoke-test: "maybe" is not one of false, true, fail-on-error/
    ],
    [
      ['--url', 'http://127.0.0.1:9/v1/models', '--smoke-tokens', '1'],
      /^wait-for-model: Unknown option '--smoke-tokens'/
    ],
    [
      ['check', '--url', 'http://127.0.0.1:9/v1/models', '--smoke-test', 'true'],
      /^wait-for-model: --smoke-test: check probes once/
    ],
    [
      ['simulate', '--engine', 'vllm', '--model', 'm', '--tokens-per-second', '0'],
      /^wait-for-model: --tokens-per-second: give a number of tokens a second above 0/
    ],
    [
      ['simulate', '--engine', 'vllm', '--model', 'm', '--ttft', 'soon'],
      /^wait-for-model: --ttft: "soon" is not a duration such as 250ms/
    ]
  ])('exits 2 before any request: %j', async (args, message) => {
    const r = await runCli(args)
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(message)
  })
})
