import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ANSWER_TIMEOUT_MS } from '../helpers/bounds.js'
import { errors } from '../helpers/support.js'
import type { ActionRun } from '../../src/simulator/runner.js'
import { cli, hostileKit, list, send } from '../helpers/hostile-kit.js'

/**
 * What a hostile server or log can write (commands, markup, secrets, false ready; hostile-content.e2e.test.ts: the logs, the bodies), through the packaged action (and the CLI): memory and time stay
 * bounded, nothing becomes a workflow command or markup, no secret leaks in any form, and nothing that is not
 * a completion or a model list reads as one. The bounds asserted here are the ones docs/guarantees.md states; time
 * bounds on the step's own clock (helpers/bounds.ts), and a case that needs an answer to judge gets ANSWER_TIMEOUT_MS.
 */

const { box, dir, net, run } = hostileKit('wait-for-model-output-')

/** The characters .NET's String.TrimStart() removes (Char.IsWhiteSpace) and invisible format characters. */
const INVISIBLE = [
  ...'\t\u000b\u000c \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000',
  ...'\u200b\u200c\u200d\u2060\ufeff\u00ad'
]
// eslint-disable-next-line no-control-regex -- .NET trims vertical tab and form feed too
const DOTNET_WHITE = /^[\t\n\u000b\u000c\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/u
/** What the runner would take for a command: `::` at the start of a line once .NET trimmed it (and BOM/ZW dropped). */
const commands = (text: string): string[] =>
  text
    .split(/\r\n|\r|\n/)
    .map((l) => l.replace(DOTNET_WHITE, '').replace(/^[\u200b-\u200d\u2060\ufeff\u00ad]+/, ''))
    .filter((l) => l.startsWith('::'))

describe('nothing a server or a log writes becomes a workflow command', () => {
  const injections = INVISIBLE.map((c) => `${c}::error title=pwned::owned ${c.codePointAt(0)?.toString(16)}`)
  injections.push('\u0085::stop-commands::pwned')
  // log lines that the runner splits at a lone carriage return, each injection then at the start of a line
  const script = join(dir, 'inject.mjs')
  writeFileSync(script, `process.stdout.write(${JSON.stringify(injections.map((l) => `x\r${l}\n`).join(''))})`)
  const cliRun = async (args: string[]): Promise<string> => {
    const child = spawn(process.execPath, [cli, '--json', ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        TMPDIR: dir,
        INPUT_TIMEOUT: `${ANSWER_TIMEOUT_MS}ms`,
        INPUT_HISTORY_FILE: ''
      },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    expect(await new Promise((r) => child.on('close', r))).toBe(1)
    const { pid } = JSON.parse(stdout) as { pid: number | null }
    if (pid) box.pids.push(Number(pid))
    return stderr
  }

  it.concurrent('on the action’s stdout (the log tail)', async () => {
    const url = await net.http((_req, res) => send(res, 503, '{"error":"loading"}'))
    const r = await run({
      url: `${url}/v1/models`,
      start: `${process.execPath} ${script}; sleep 30`,
      // the test's own server answers for it, as a proxy in front of it would
      'port-check': 'false',
      'log-file': join(dir, 'inject.log'),
      // long enough for a late-starting process to start the script and read its lines
      timeout: `${ANSWER_TIMEOUT_MS}ms`
    })
    expect(r.outputs.ready).toBe('false')
    expect(r.stdout).toContain('pwned')
    // the runner's own commands: the tail's stop-commands pair, the group, and the one error (with its title)
    expect(
      commands(r.stdout).filter(
        (l) =>
          !/^::(error title=Model server not ready \(timeout\)|group|endgroup|stop-commands)::|^::[0-9a-f-]{36}::$/.test(
            l
          )
      )
    ).toEqual([])
    expect(commands(r.stdout).filter((l) => l.includes('pwned'))).toEqual([])
  })

  it.concurrent('on the CLI’s stderr (a text body quoted in the failure message)', async () => {
    const url = await net.http(
      (_req, res) =>
        void res.writeHead(503, { 'content-type': 'text/plain' }).end(`x\n${injections.slice(0, 8).join('\n')}`)
    )
    const stderr = await cliRun(['--url', `${url}/v1/models`])
    expect(stderr).toContain('\n\u0085: :error title=pwned')
    expect(commands(stderr)).toEqual([])
  })

  it.concurrent('on the CLI’s stderr (the log tail)', async () => {
    const url = await net.http((_req, res) => send(res, 503, '{"error":"loading"}'))
    const stderr = await cliRun([
      '--url',
      `${url}/v1/models`,
      '--port-check',
      'false',
      '--start',
      `${process.execPath} ${script}; sleep 30`,
      '--log-file',
      join(dir, 'inject-cli.log')
    ])
    expect(stderr).toContain('pwned')
    expect(commands(stderr)).toEqual([])
  })
})

describe('nothing a server writes becomes markup in the job summary', () => {
  it('backticks, links and images from a model id or an error are shown as text', async () => {
    const id =
      'kimi` <img src=x onerror=alert(1)> [click](https://evil.example/) ![i](https://evil.example/i.png) **b**'
    // a model list on one probe, an error quoting the same text on the next: both reach the summary
    let n = 0
    const url = await net.http((_req, res) =>
      n++ % 2
        ? send(res, 503, JSON.stringify({ error: id }))
        : send(res, 200, JSON.stringify({ object: 'list', data: [{ id }] }))
    )
    const r = await run({
      url: `${url}/v1/models`,
      model: 'nothere',
      // long enough for a late-starting process to get both answers
      timeout: `${ANSWER_TIMEOUT_MS}ms`,
      interval: '200ms'
    })
    expect(r.summary).toMatch(/Listed models \| kimi/)
    // what renders is what lies outside fenced code blocks (the failure message and the log tail are fenced)
    const rendered = r.summary.replace(/^(`{3,})\n[\s\S]*?\n\1$/gm, '')
    expect(rendered).toContain('kimi')
    expect(rendered).not.toMatch(/<img/i)
    expect(rendered).not.toContain('](https://evil')
    expect(rendered).not.toContain('**b**')
    expect(rendered).not.toContain('https://evil')
    // the only backticks outside the fenced failure message are the action's own, in pairs per cell; the
    // server's are escaped
    const table = rendered
    expect(table).toContain('kimi\\`')
    for (const row of table.split('\n').filter((l) => l.startsWith('|')))
      expect((row.match(/(?<!\\)`/g) ?? []).length % 2).toBe(0)
  })
})

describe('secrets in forms the redaction did not know', () => {
  const everything = (r: ActionRun): string =>
    [r.stdout, r.stderr, r.summary, JSON.stringify(r.outputs)].join('\n').replace(/^::add-mask::.*$/gm, '')

  it('the token after an auth scheme, one cookie value, a key cut at 120 characters, JSON-escaped keys', async () => {
    const token = 'tok_schemepart_7781'
    const cookie = 'cookievalue_7782'
    const key = 'sk-cutkey-0123456789abcdef'
    const quoted = 'q"uo\\ted-secret-7783'
    // a server per run, each answering with the body that quotes its run's secret; the three runs at once
    const serving = (body: (authorization: string) => string): Promise<string> =>
      net.http((req, res) => send(res, 503, JSON.stringify({ error: body(String(req.headers.authorization)) })))
    const [first, second, third] = await Promise.all([
      // the token alone, and one cookie value alone
      serving(() => `invalid token ${token} for session ${cookie}`),
      // the key where the 120-character cut falls inside it
      serving(() => `${'x'.repeat(110)}${key}`),
      // a key with a quote and a backslash, JSON-escaped in the body and again in the debug line
      serving((authorization) => `bad key ${authorization.slice(7)}`)
    ])
    const debug = { RUNNER_DEBUG: '1' }
    const runs: ActionRun[] = await Promise.all([
      run(
        {
          url: `${first}/v1/models`,
          headers: `Authorization: Bearer ${token}\nCookie: lang=en; session=${cookie}`,
          timeout: `${ANSWER_TIMEOUT_MS}ms`
        },
        debug
      ),
      run({ url: `${second}/v1/models`, 'api-key': key, timeout: `${ANSWER_TIMEOUT_MS}ms` }, debug),
      run({ url: `${third}/v1/models`, 'api-key': quoted, timeout: `${ANSWER_TIMEOUT_MS}ms` }, debug)
    ])
    // each run had the answer that quotes its secret
    for (const r of runs) expect(r.outputs['status-code']).toBe('503')
    expect(runs[0].stdout).toContain('invalid token')
    for (const r of runs) {
      const all = everything(r)
      for (const secret of [token, cookie, key.slice(0, 10), 'ted-secret-7783']) expect(all).not.toContain(secret)
    }
  }, 60_000)

  it('env-report never writes a known secret, whatever the variable is called (history file included)', async () => {
    const key = 'sk-envreport-9931'
    const history = join(dir, 'history.jsonl')
    const url = await net.http((_req, res) => send(res, 200, list(['kimi'])))
    const r = await run(
      {
        url: `${url}/v1/models`,
        'api-key': key,
        start: 'sleep 30',
        // the test's own server answers for it, as a proxy in front of it would
        'port-check': 'false',
        'env-report': 'MODEL_AUTH',
        'history-file': history,
        timeout: '30s'
      },
      { MODEL_AUTH: key }
    )
    expect(r.outputs.ready).toBe('true')
    expect(r.stdout).toMatch(/MODEL_AUTH=\*\*\*/)
    expect(readFileSync(history, 'utf8')).toContain('MODEL_AUTH')
    expect(readFileSync(history, 'utf8')).not.toContain(key)
    expect(everything(r)).not.toContain(key)
  })

  it('a token in the URL query string is masked everywhere, results included', async () => {
    const token = 'querytoken-5512'
    const url = await net.http((_req, res) => send(res, 503, '{"error":"loading"}'))
    const r = await run({ url: `${url}/v1/models?api_key=${token}&x=1`, timeout: '1500ms' })
    expect(r.outputs.results).toContain('api_key=***')
    expect(everything(r)).not.toContain(token)
  })

  it.each([
    ['api-key', 'ab3'],
    ['headers', 'Authorization: Bearer xy']
  ])('a credential of fewer than 4 characters (%s) is an input error', async (name, value) => {
    const r = await run({ url: 'http://127.0.0.1:9/v1/models', [name]: value, timeout: '2s' })
    const found = errors(r.stdout)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(new RegExp(`^::error title=Invalid input::Input "${name}": .*fewer than 4 characters`))
  })
})

describe('no false ready', () => {
  const completions: Array<[string, number, string]> = [
    [
      'an OpenAI error object',
      200,
      '{"object":"error","message":"CUDA error: out of memory","type":"InternalServerError","code":500}'
    ],
    ['an empty 200', 200, ''],
    ['a 202', 202, '{"status":"queued"}'],
    ['a 200 with an unrelated JSON object', 200, '{"ok":true}']
  ]
  it.concurrent.each(completions)(
    'probe-generation: %s is generation-failed, never ready',
    async (_what, status, answer) => {
      const url = await net.http((req, res) =>
        req.url === '/v1/models' ? send(res, 200, list(['kimi'])) : send(res, status, answer)
      )
      const r = await run({
        url: `${url}/v1/models`,
        model: 'kimi',
        'probe-generation': 'true',
        timeout: `${ANSWER_TIMEOUT_MS}ms`
      })
      expect(r.outputs).toMatchObject({ ready: 'false', reason: 'generation-failed' })
    }
  )

  it('probe-generation: a real completion is ready', async () => {
    const url = await net.http((req, res) =>
      req.url === '/v1/models'
        ? send(res, 200, list(['kimi']))
        : send(res, 200, '{"object":"text_completion","choices":[{"index":0,"text":" Hello"}]}')
    )
    const r = await run({ url: `${url}/v1/models`, model: 'kimi', 'probe-generation': 'true', timeout: '30s' })
    expect(r.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
  })

  it.concurrent.each([
    ['an OpenAI error object with a name', '{"object":"error","name":"kimi","message":"model kimi failed to load"}'],
    ['an error object that names the model', '{"name":"kimi","error":"CUDA error: out of memory"}'],
    ['an object whose name is not a model status', '{"name":"kimi","message":"not loaded yet"}']
  ])('a 200 whose body is %s is never a model list', async (_what, body) => {
    const url = await net.http((_req, res) => send(res, 200, body))
    const r = await run({ url: `${url}/v2/models/kimi`, model: 'kimi', timeout: `${ANSWER_TIMEOUT_MS}ms` })
    expect(r.outputs).toMatchObject({ ready: 'false', reason: 'timeout', 'status-code': '200', models: '[]' })
  })
})
