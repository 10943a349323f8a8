import { writeFileSync } from 'node:fs'
import type { ActionRun } from '../../src/simulator/runner.js'
import { loopback } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { ANSWER_TIMEOUT_MS, expectEndedByDeadline, HANG_MS } from '../helpers/bounds.js'
import { errors, runMeasured } from '../helpers/support.js'

/**
 * Wrong and hostile input through the packaged action: each fails before any request (the server counts them),
 * with exactly one error naming the input (how soon on an idle machine, under a second: `npm run bench -- --only
 * bounds`; here only a hang fails it, helpers/bounds.ts); no secret reaches any output; a server's body cannot issue
 * workflow commands; a backtracking `match-regex` cannot hold the action past its deadline.
 */
const net = loopback('file')
let server = ''
let requests = 0
let echo: (headers: Record<string, string | string[] | undefined>) => { status: number; body: string } = () => ({
  status: 200,
  body: '{}'
})
beforeAll(async () => {
  server = await net.http((req, res) => {
    requests++
    const { status, body } = echo(req.headers)
    res.writeHead(status, { 'content-type': 'application/json' }).end(body)
  })
})

const files = sandbox('wait-for-model-inputs-', 'file')
const dir = files.dir()
const notPem = files.path('not.pem')
writeFileSync(notPem, 'hello\n')
const brokenPem = files.path('broken.pem')
writeFileSync(brokenPem, '-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n')
const huge = 'x'.repeat(70_000)

// [input, value, what the message must say]; NUL cannot travel in an environment variable, so \u0001 stands in
const bad: Array<[string, string, RegExp]> = [
  ['url', '', /is required: give an http:\/\/ or https:\/\/ URL/],
  ['url', 'localhost:8000/v1/models', /is not an http:\/\/ or https:\/\/ URL/],
  ['url', 'ftp://127.0.0.1/models', /is not an http/],
  ['url', 'file:///etc/passwd', /is not an http/],
  ['url', 'http://[::1/v1/models', /is not an http/],
  ['url', 'http://user:hunter2@127.0.0.1:8000/v1/models', /must not carry credentials/],
  // a line break makes a fleet of two, and the second line is no URL
  ['url', 'http://127.0.0.1:8000/v1/\nmodels', /line 2: "models" is not an http/],
  ['url', 'http://127.0.0.1:8000/\u0001', /contains a control character/],
  ['url', `http://${huge}`, /the limit is 65536/],
  ['model', 'kimi\u0007', /contains a control character/],
  ['model', huge, /the limit is/],
  ['match', 'ready\u001b[0m', /contains a control character/],
  ['match', '/([/', /is not a valid JavaScript regular expression/],
  ['match', '/kimi/ii', /is not a valid JavaScript regular expression/],
  ['match', '/a{2,1}/', /is not a valid JavaScript regular expression/],
  ['interval', 'fast', /a duration such as 250ms/],
  ['interval', '10ms', /too short: give at least 100ms/],
  ['interval', '-1', /a duration such as/],
  ['interval', '1e3', /a duration such as/],
  ['interval', '169h', /longer than the 168h/],
  ['timeout', '0', /too short/],
  ['timeout', 'forever', /a duration such as/],
  ['timeout', '1d', /a duration such as/],
  ['timeout', '10 seconds', /a duration such as/],
  ['headers', 'Authorization Bearer x', /line 1 is not one "Name: value" per line/],
  ['headers', 'X-A: ok\r\nX-B: b\rInjected: 1', /line 2 \(X-B\) has a control character/],
  ['headers', 'Bad Name: x', /is not one "Name: value"/],
  ['headers', ': no name', /is not one "Name: value"/],
  ['headers', 'X-A: a\u0001b', /control character/],
  ['api-key', 'Bearer sk-1', /white space; give the key alone/],
  ['api-key', 'sk-1\r\nX-Evil: 1', /the key contains a control character/],
  ['api-key', 'sk\u0001x', /the key contains a control character/],
  ['fail-on-regression', 'sometimes', /true or false/],
  ['ca-cert', '/nonexistent/ca.pem', /cannot read "\/nonexistent\/ca.pem" \(ENOENT\)/],
  ['ca-cert', dir, /cannot read .* \(EISDIR\)/],
  ['ca-cert', notPem, /holds no certificate/],
  ['ca-cert', brokenPem, /holds a certificate that cannot be read/],
  ['insecure-tls', 'maybe', /true or false/]
]

describe('bad input', () => {
  const shown = (value: string): string =>
    value.length > 60 ? `${JSON.stringify(value.slice(0, 30))}… (${value.length} characters)` : JSON.stringify(value)
  it.each(bad.map(([name, value, says]) => [name, shown(value), value, says] as const))(
    '%s=%s fails before any request, with one error naming it',
    async (name, _shown, value, says) => {
      const before = requests
      const run = await runMeasured({ url: `${server}/v1/models`, [name]: value })
      expect(run.code).toBe(1)
      expect(requests).toBe(before)
      const found = errors(run.stdout)
      expect(found).toHaveLength(1)
      expect(found[0]).toMatch(new RegExp(`^::error title=Invalid input::Input "${name}": `))
      expect(found[0]).toMatch(says)
      expect(run.outputs).toEqual({})
      expect(run.wallMs).toBeLessThan(HANG_MS)
    }
  )
})

describe('a match regular expression that backtracks exponentially', () => {
  it('cannot hold the action past its deadline', async () => {
    echo = () => ({ status: 200, body: `${'a'.repeat(40)}b` })
    const run = await runMeasured({
      url: `${server}/health`,
      match: '/^(a+)+$/',
      // long enough for a late-starting process to probe: the point is the line about the regex
      timeout: `${ANSWER_TIMEOUT_MS}ms`
    })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout', 'status-code': '200' })
    expect(run.stdout).toMatch(
      /: HTTP 200 a+b — \/\^\(a\+\)\+\$\/ ran out of time on the body \(it backtracks too much: simplify "match"\)$/m
    )
    expectEndedByDeadline(run, ANSWER_TIMEOUT_MS)
  })
})

describe('secrets', () => {
  const secrets = ['sk-apikey-0451', 'basic-0452', 'session-0453', 'proxy-0454', 'xkey-0455', 'hunter2-0456']
  const inputs = {
    'api-key': secrets[0],
    headers: `Authorization: Basic ${secrets[1]}\nCookie: session=${secrets[2]}\nProxy-Authorization: Basic ${secrets[3]}\nX-Api-Key: ${secrets[4]}`
  }
  /** Everything a run printed or wrote, with the mask registrations (which the runner consumes) removed. */
  const everything = (run: ActionRun): string =>
    [run.stdout, run.stderr, run.summary, JSON.stringify(run.outputs)].join('\n').replace(/^::add-mask::.*$/gm, '')

  it('never appear in stdout, stderr, the summary or an output, on any path that prints', async () => {
    // a server that echoes the credentials it receives into every answer, as some error pages do
    const echoed = (h: Record<string, string | string[] | undefined>): string =>
      `${h.authorization} ${h.cookie} ${h['proxy-authorization']} ${h['x-api-key']}`
    const debug = { ACTIONS_STEP_DEBUG: 'true', RUNNER_DEBUG: '1' }
    const runs: ActionRun[] = []
    // answer lines, a timeout failure with the body excerpt, the summary and debug lines
    echo = (h) => ({ status: 503, body: JSON.stringify({ error: `Loading model for ${echoed(h)}` }) })
    runs.push(
      await runMeasured(
        {
          ...inputs,
          url: `${server}/v1/models`,
          model: 'kimi',
          // probes need a window that a late start on a loaded machine cannot use up
          timeout: `${ANSWER_TIMEOUT_MS}ms`,
          interval: '200ms'
        },
        debug
      )
    )
    // the echoed credentials did reach the lines, masked
    expect(runs[0].stdout).toMatch(/Loading model for Bearer \*\*\* \*\*\* \*\*\* \*\*\*/)
    expect(runs[0].stdout).toMatch(/^::debug::probe: HTTP 503/m)
    // ready, with the secret in the model id the server lists
    echo = (h) => ({ status: 200, body: JSON.stringify({ object: 'list', data: [{ id: `kimi ${echoed(h)}` }] }) })
    runs.push(await runMeasured({ ...inputs, url: `${server}/v1/models`, model: 'kimi', timeout: '30s' }, debug))
    expect(runs[1].outputs.ready).toBe('true')
    // stopped at once by a 401 that quotes the credentials
    echo = (h) => ({ status: 401, body: JSON.stringify({ error: `bad credentials: ${echoed(h)}` }) })
    runs.push(await runMeasured({ ...inputs, url: `${server}/v1/models`, timeout: '30s' }, debug))
    expect(runs[2].outputs.reason).toBe('unauthorized')
    // a password in the URL, and a bad input while secrets are set
    runs.push(
      await runMeasured({ url: server.replace('http://', `http://user:${secrets[5]}@`), timeout: '30s' }, debug)
    )
    runs.push(await runMeasured({ url: `http://user:${secrets[5]}@[::1/`, timeout: '30s' }, debug))
    runs.push(await runMeasured({ ...inputs, url: `${server}/v1/models`, interval: 'two hundred' }, debug))
    for (const run of runs) {
      // the runs did reach the paths that print: each has a progress line or an error
      expect(run.stdout.length).toBeGreaterThan(0)
      for (const secret of secrets) expect(everything(run)).not.toContain(secret)
    }
  }, 60_000)
})

describe("a server's body", () => {
  it('cannot issue workflow commands', async () => {
    const injection =
      'x\n::set-output name=ready::true\n::add-mask::wait\r::stop-commands::pwned\n##[set-output name=ready;]true\n::error::fake'
    // an error message, then a model list (a body with an `error` is never read as a model list)
    echo = () => ({ status: 503, body: JSON.stringify({ error: injection }) })
    const runs = [
      await runMeasured(
        { url: `${server}/v1/models`, timeout: `${ANSWER_TIMEOUT_MS}ms`, interval: '200ms' },
        { RUNNER_DEBUG: '1' }
      )
    ]
    echo = () => ({ status: 200, body: JSON.stringify({ object: 'list', data: [{ id: injection }] }) })
    runs.push(
      await runMeasured(
        { url: `${server}/v1/models`, model: 'kimi', timeout: `${ANSWER_TIMEOUT_MS}ms` },
        { RUNNER_DEBUG: '1' }
      )
    )
    for (const run of runs) {
      const lines = run.stdout.split(/\r\n|\r|\n/)
      // the only commands are the action's own: debug lines and the one error
      const commands = lines.filter((l) => l.trimStart().startsWith('::'))
      expect(commands.every((l) => /^::(debug|error title=[^:]*)::/.test(l))).toBe(true)
      expect(commands.filter((l) => l.startsWith('::error '))).toHaveLength(1)
      expect(run.stdout).not.toContain('##[')
      expect(run.outputs.ready).toBe('false')
    }
    // the model id reached a log line, its line breaks turned into spaces
    expect(runs[1].stdout).toContain('serving [x ::set-output name=ready::true ::add-mask::wait')
  }, 60_000)
})
