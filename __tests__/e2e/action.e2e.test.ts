import type { RequestListener } from 'node:http'
import { runAction } from '../../src/simulator/runner.js'
import { freePort, simulate } from '../../src/simulator/server.js'
import type { SimulatedServer } from '../../src/simulator/options.js'
import { ANSWER_TIMEOUT_MS, expectEndedByDeadline } from '../helpers/bounds.js'
import { loopback, ownPath } from '../helpers/loopback.js'
import { entry, errors, runMeasured } from '../helpers/support.js'

/** End to end: `node dist/index.js` as the runner starts it, against real servers on loopback. */
const net = loopback()
/** Serves on 127.0.0.1; returns host:port. */
const serve = async (handler: RequestListener): Promise<string> => (await net.http(handler)).slice('http://'.length)

describe('the packaged action', () => {
  it('passes the gate once SGLang lists --model-path /shared/kimi-k2.5-int4 for model: kimi, and records the load time', async () => {
    // The engine starts once the action's first probe has been refused, however late a busy machine started the
    // action, and its warm-up lasts until it has answered the action's first probe of it (the model list, /health)
    // as well as to 90% of the load: each phase is seen, bound by the probes, not by a window of time.
    const port = await freePort()
    let server: Promise<SimulatedServer> | undefined
    let seen = ''
    try {
      const run = await runAction({
        entry,
        inputs: { url: `http://127.0.0.1:${port}/v1/models`, model: 'kimi', interval: '250ms', timeout: '30s' },
        onStart: (child) =>
          child.stdout?.on('data', (d: Buffer) => {
            if (server === undefined && /: connection refused\n/.test((seen += String(d))))
              server = simulate({
                engine: 'sglang',
                model: '/shared/kimi-k2.5-int4',
                loadMs: 2_500,
                loadingAnswers: 2,
                port
              })
          })
      })
      expect(run.code).toBe(0)
      expect(run.outputs).toMatchObject({
        ready: 'true',
        reason: 'ready',
        'status-code': '200',
        'model-id': '/shared/kimi-k2.5-int4',
        models: '["/shared/kimi-k2.5-int4"]'
      })
      // the port opens at 90% of the load (warm-up), when /v1/models first lists the model; ready only once the
      // warm-up has ended and SGLang's own /health says 200 (the engine started after the action's clock did)
      expect(Number(run.outputs['first-response-seconds'])).toBeGreaterThanOrEqual(2.2)
      expect(Number(run.outputs['elapsed-seconds'])).toBeGreaterThanOrEqual(2.4)
      expect(Number(run.outputs['elapsed-seconds'])).toBeGreaterThan(Number(run.outputs['first-response-seconds']))
      // one probe refused, then the port watch stood in until the port opened; then the model listed, /health 503
      expect(Number(run.outputs.attempts)).toBeGreaterThanOrEqual(3)
      expect(run.stdout).toMatch(/: connection refused\n/)
      expect(run.stdout).toMatch(/: HTTP 200, serving \[\/shared\/kimi-k2.5-int4\] — SGLang GET \/health: HTTP 503\n/)
      expect(run.stdout).toMatch(/Ready after \d+\.\ds \(\d+ probes\); model "\/shared\/kimi-k2.5-int4"/)
      expect(run.summary).toMatch(/\| Result \| ✅ ready \|/)
      expect(run.summary).toMatch(/\| Matched model \| `\/shared\/kimi-k2.5-int4` \|/)
      expect(run.summary).toMatch(/#### Timeline[\s\S]*connection refused[\s\S]*HTTP 200, serving/)
      expect(errors(run.stdout)).toEqual([])
    } finally {
      await (await server)?.close()
    }
  })

  it('fails a wrong model with a message that names the model the server does serve, from the first answer on', async () => {
    const server = await simulate({ engine: 'vllm', model: '/shared/kimi-k2.5-int4', loadMs: 0 })
    try {
      const run = await runAction({
        entry,
        // long enough for a late-starting process to probe: the point is the line and the message about the answer
        inputs: {
          url: `${server.baseUrl}/v1/models`,
          model: 'llama',
          interval: '500ms',
          timeout: `${ANSWER_TIMEOUT_MS}ms`
        }
      })
      expect(run.code).toBe(1)
      expect(run.outputs).toMatchObject({
        ready: 'false',
        reason: 'timeout',
        'model-id': '',
        models: '["/shared/kimi-k2.5-int4"]'
      })
      const lines = run.stdout.split('\n')
      expect(lines[1]).toMatch(
        /^[\d.]+m?s: HTTP 200, serving \[\/shared\/kimi-k2.5-int4\] — "llama" is not among the listed models$/
      )
      const [error] = errors(run.stdout)
      expect(error).toMatch(
        /^::error title=Model server not ready \(timeout\)::Timed out after \d+\.\ds and \d+ probes \(timeout 6.0s\) waiting for .* list model "llama"/
      )
      expect(error).toMatch(/The server lists: \/shared\/kimi-k2.5-int4\./)
      expect(run.summary).toMatch(/❌ not ready \(timeout\)/)
    } finally {
      await server.close()
    }
  })

  it("on a timeout, fails with one error and still writes the outputs (continue-on-error is the workflow's)", async () => {
    const run = await runAction({ entry, inputs: { url: 'http://127.0.0.1:9/v1/models', timeout: '1s' } })
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({
      ready: 'false',
      reason: 'timeout',
      'status-code': '',
      'first-response-seconds': ''
    })
    const found = errors(run.stdout)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(/^::error title=Model server not ready \(timeout\)::Timed out after/)
  })

  it.each([
    ['fail-on-regresion', 'true', 'fail-on-regression'],
    ['match-regex', 'ready', 'match'],
    ['fail-on-timeout', 'false', 'timeout']
  ])(
    'refuses an input action.yml does not declare (%s) before any request, naming the closest one',
    async (name, value, closest) => {
      let requests = 0
      const own = ownPath()
      const host = await serve((req, res) => {
        if (req.url?.startsWith(own)) requests++
        res.end()
      })
      const run = await runAction({ entry, inputs: { url: `http://${host}${own}/v1/models`, [name]: value } })
      expect(run.code).toBe(1)
      expect(requests).toBe(0)
      expect(errors(run.stdout)).toEqual([
        `::error title=Invalid input::Input "${name}" is not an input of this action (action.yml): did you mean "${closest}"?`
      ])
      expect(run.outputs).toEqual({})
    }
  )

  it('titles every annotation, and a server that keeps going away is one warning, not one per time', async () => {
    let requests = 0
    // it answers "loading", then drops the connection, three times over (each drop a "stopped answering"), then
    // lists a model: bound by what the server did, not by how many drops fit in a timeout on a busy machine
    const host = await serve((req, res) => {
      const n = requests++
      if (n < 6 && n % 2 === 1) return void req.socket.destroy()
      if (n < 6) return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"Loading model"}')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[{"id":"m"}]}')
    })
    const run = await runAction({
      entry,
      inputs: { url: `http://${host}/v1/models`, interval: '100ms', timeout: '60s', 'insecure-tls': 'true' }
    })
    expect(run.code).toBe(0)
    const annotations = run.stdout.split('\n').filter((l) => /^::(warning|error|notice)\b/.test(l))
    expect(annotations.filter((l) => !/^::(warning|error|notice) title=[^:]+::\S/.test(l))).toEqual([])
    expect(annotations.map((l) => /title=([^:]+)::/.exec(l)?.[1])).toEqual([
      'TLS certificate checks are off',
      'Model server stopped answering'
    ])
    // the later drops are in the log, as warnings that are not annotations
    const later = run.stdout.match(/^warning: [\d.]+m?s: the server stopped answering/gm) ?? []
    expect(later).toHaveLength(2)
  })

  it('stops at once on 401, never printing the api-key', async () => {
    let requests = 0
    const own = ownPath()
    const host = await serve((req, res) => {
      if (req.url?.startsWith(own)) requests++
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized"}')
    })
    const run = await runAction({
      entry,
      inputs: { url: `http://${host}${own}/v1/models`, 'api-key': 'sk-very-secret-1', timeout: '30s' }
    })
    expect(run.code).toBe(1)
    expect(requests).toBe(1)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'unauthorized', 'status-code': '401' })
    expect(errors(run.stdout)[0]).toMatch(/unauthenticated: set "api-key"/)
    expect(run.stdout).toContain('::add-mask::sk-very-secret-1')
    expect(run.stdout.replace('::add-mask::sk-very-secret-1', '')).not.toContain('sk-very-secret-1')
    expect(run.summary).not.toContain('sk-very-secret-1')
  })

  it('stops at once on an untrusted certificate', async () => {
    const url = await net.https((_q, r) => r.end())
    const run = await runAction({ entry, inputs: { url: `${url}/v1/models`, timeout: '30s' } })
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'tls' })
    expect(errors(run.stdout)[0]).toMatch(/certificate was not accepted \(DEPTH_ZERO_SELF_SIGNED_CERT\)/)
  })

  it('ends at its deadline even when the server accepts and never answers', async () => {
    const host = await serve(() => undefined)
    const run = await runMeasured({
      url: `http://${host}/v1/models`,
      // within a probe's own limit: the one probe runs until the deadline
      timeout: `${ANSWER_TIMEOUT_MS}ms`
    })
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ reason: 'timeout', attempts: '1' })
    expect(run.stdout).toMatch(/: no answer \(request timed out\)\n/)
    // timeout + 1 s on the step's own clock (idle, spawn to exit: npm run bench -- --only bounds)
    expectEndedByDeadline(run, ANSWER_TIMEOUT_MS)
  })

  it.each([
    ['interval', 'fast'],
    ['timeout', '-1'],
    ['url', 'localhost:8000/v1/models'],
    ['match', '/([/'],
    ['headers', 'Authorization Bearer x']
  ])('rejects %s=%p before any request, with one error naming the input', async (name, value) => {
    let requests = 0
    const own = ownPath()
    const host = await serve((req, res) => {
      if (req.url?.startsWith(own)) requests++
      res.end()
    })
    const run = await runAction({ entry, inputs: { url: `http://${host}${own}/v1/models`, [name]: value } })
    expect(run.code).toBe(1)
    expect(requests).toBe(0)
    const found = errors(run.stdout)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(new RegExp(`^::error title=Invalid input::Input "${name}": `))
    expect(run.outputs).toEqual({})
  })
})
