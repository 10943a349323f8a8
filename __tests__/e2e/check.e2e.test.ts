import { simulate } from '../../src/simulator/server.js'
import { loopback, ownPath } from '../helpers/loopback.js'
import { type ProcessRun, runProcess } from '../helpers/support.js'

/** `wait-for-model check` through dist/cli.js: one probe, one line, the exit status a health check reads. */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const net = loopback()

const check = (args: string[]): Promise<ProcessRun> =>
  runProcess(process.execPath, [cli, 'check', ...args], { env: { PATH: process.env.PATH ?? '' } })

describe('wait-for-model check', () => {
  it('says not ready while the simulated engine loads and ready once it lists the model, one line each', async () => {
    const server = await simulate({ engine: 'sglang', model: '/shared/kimi-k2.5-int4', loadMs: 1500 })
    try {
      const url = `${server.baseUrl}/v1/models`
      const loading = await check(['--url', url, '--model', 'kimi'])
      expect(loading).toMatchObject({ code: 1, stderr: '' })
      expect(loading.stdout).toMatch(/^not ready after \d+ms: .+\n$/)
      await new Promise((r) => setTimeout(r, 1700))
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
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"error":"Loading model"}')
    })
    const r = await check(['--url', `${url}${own}/v1/models`, '--request-timeout', '10s'])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^not ready after \d+ms: HTTP 503 Loading model\n$/)
    expect(requests).toBe(1)
    // no sleep until the next probe: it ends long before the 10s request-timeout (Node's start included)
    expect(r.wallMs).toBeLessThan(5000)
  })

  it('ends within --request-timeout when the server never answers', async () => {
    const url = await net.http(() => {})
    const r = await check(['--url', `${url}/v1/models`, '--request-timeout', '1s'])
    expect(r.code).toBe(1)
    expect(r.stdout.split('\n')).toHaveLength(2)
    expect(r.stdout).toMatch(/^not ready after 1\.\ds: /)
    expect(r.wallMs).toBeGreaterThanOrEqual(1000)
    expect(r.wallMs).toBeLessThan(4000)
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
        ['--url', url, '--timeout', '5m'],
        /^wait-for-model: --timeout: check probes once, within --request-timeout; it takes no --timeout\n/
      ],
      [['--url', url, '--start', 'vllm serve x'], /^wait-for-model: --start: check probes once/],
      [['--url', url, '--request-timeout', 'soon'], /^wait-for-model: --request-timeout: "soon" is not a duration/],
      [['--model', 'kimi'], /^wait-for-model: --url/]
    ] as Array<[string[], RegExp]>) {
      const r = await check(args)
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' })
      expect(r.stderr).toMatch(message)
    }
    expect(requests).toBe(0)
  })
})
