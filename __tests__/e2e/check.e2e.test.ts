import { simulate } from '../../src/simulator/server.js'
import { HANG_MS, measureLoad } from '../helpers/bounds.js'
import { loopback, ownPath } from '../helpers/loopback.js'
import { measuredBy, peakRssHook, type ProcessRun, runProcess } from '../helpers/support.js'

/** `wait-for-model check` through dist/cli.js: one probe, one line, the exit status a health check reads. */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const net = loopback()

const check = (args: string[]): Promise<ProcessRun> =>
  runProcess(process.execPath, [cli, 'check', ...args], { env: { PATH: process.env.PATH ?? '' } })

describe('wait-for-model check', () => {
  it('says not ready while the simulated engine loads and ready once it lists the model, one line each', async () => {
    // open from the start, and loading until it has answered the first check (the model list, /health) as well as
    // for 1.5 s: the first check sees it loading however late a busy machine starts it
    const server = await simulate({
      engine: 'sglang',
      model: '/shared/kimi-k2.5-int4',
      loadMs: 1500,
      opensAfterMs: 0,
      loadingAnswers: 2
    })
    try {
      const url = `${server.baseUrl}/v1/models`
      const loading = await check(['--url', url, '--model', 'kimi'])
      expect(loading).toMatchObject({ code: 1, stderr: '' })
      expect(loading.stdout).toMatch(/^not ready after \d+ms: HTTP 200, serving .+ SGLang GET \/health: HTTP 503\n$/)
      await new Promise((r) => setTimeout(r, Math.max(0, server.readyAt - Date.now())))
      const ready = await check(['--url', url, '--model', 'kimi'])
      expect(ready).toMatchObject({ code: 0, stderr: '' })
      expect(ready.stdout).toMatch(/^ready in \d+ms: model "\/shared\/kimi-k2.5-int4" HTTP 200.*\n$/)
      // the gate's whole judgement: another model is not ready, however healthy the server
      const other = await check(['--url', url, '--model', 'llama'])
      expect(other.code).toBe(1)
      expect(other.stdout).toMatch(/^not ready after \d+ms: HTTP 200.*"llama" is not among the listed models\n$/)
    } finally {
      await server.close()
    }
  })

  it('sends one request, however the server answers, and does not wait for a better one', async () => {
    let requests = 0
    const own = ownPath()
    const url = await net.http((req, res) => {
      if (req.url?.startsWith(own)) requests++
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '60' }).end('{"error":"Loading model"}')
    })
    const r = await check(['--url', `${url}${own}/v1/models`, '--timeout', '10m'])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^not ready after \d+ms: HTTP 503 Loading model\n$/)
    expect(requests).toBe(1)
    // no sleep until a next probe (the Retry-After's 60 s) nor until the deadline (the 10 m timeout): only
    // a wait of either runs this long, on however busy a machine (idle, it ends within a second)
    expect(r.wallMs).toBeLessThan(HANG_MS)
  })

  it('ends within --timeout when the server never answers', async () => {
    const url = await net.http(() => {})
    const stretch = measureLoad()
    const r = await runProcess(process.execPath, [cli, 'check', '--url', `${url}/v1/models`, '--timeout', '1s'], {
      env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: `--import ${peakRssHook}` }
    })
    // what a busy machine adds past the timeout: slower work, not a longer wait (idle: 1 s)
    const slackMs = 1_000 * stretch()
    expect(r.code).toBe(1)
    expect(r.stdout.split('\n')).toHaveLength(2)
    // the probe's own measure of its time, and its process's exit, each on the check's own clock
    const took = /^not ready after (\d+\.\d)s: /.exec(r.stdout)
    expect(took).not.toBeNull()
    expect(Number(took?.[1])).toBeGreaterThanOrEqual(1)
    expect(Number(took?.[1]) * 1000).toBeLessThanOrEqual(1_000 + slackMs)
    expect(measuredBy(r.stderr).exitAtMs).toBeLessThanOrEqual(1_000 + slackMs)
    expect(r.wallMs).toBeGreaterThanOrEqual(1000)
    expect(r.wallMs).toBeLessThan(1_000 + HANG_MS)
  })

  it('with --probe-generation, is not ready while generation fails although the model is listed', async () => {
    const server = await simulate({ engine: 'vllm', model: 'Qwen/Qwen3-0.6B', loadMs: 0, generationFails: true })
    try {
      const url = `${server.baseUrl}/v1/models`
      expect((await check(['--url', url, '--model', 'qwen3'])).code).toBe(0)
      const r = await check(['--url', url, '--model', 'qwen3', '--probe-generation', 'true'])
      expect(r.code).toBe(1)
      expect(r.stdout).toMatch(/^not ready \(generation-failed\) after \d+ms: .+\n$/)
    } finally {
      await server.close()
    }
  })

  it("refuses the wait's own flags and bad values with status 2, before any request", async () => {
    let requests = 0
    // only requests for this test's own path count (see ownPath): counting all failed 2 runs in 3 ("got 3")
    const own = `${ownPath()}/v1/models`
    const url = `${await net.http((req, res) => (req.url === own && requests++, res.end('{}')))}${own}`
    for (const [args, message] of [
      [
        ['--url', url, '--interval', '5m'],
        /^wait-for-model: --interval: check probes once, within --timeout; it takes no --interval\n/
      ],
      [['--url', url, '--start', 'vllm serve x'], /^wait-for-model: --start: check probes once/],
      [['--url', url, '--timeout', 'soon'], /^wait-for-model: --timeout: "soon" is not a duration/],
      [['--url', url, '--request-timeout', '5s'], /^wait-for-model: Unknown option '--request-timeout'/],
      [['--model', 'kimi'], /^wait-for-model: --url/]
    ] as Array<[string[], RegExp]>) {
      const r = await check(args)
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' })
      expect(r.stderr).toMatch(message)
    }
    expect(requests).toBe(0)
  })
})
