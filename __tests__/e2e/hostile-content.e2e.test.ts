import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { join } from 'node:path'
import { type ActionRun, runAction } from '../../src/simulator/runner.js'
import { loopback, ownPath } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { ANSWER_TIMEOUT_MS, expectEndedByDeadline, HANG_MS, measureLoad } from '../helpers/bounds.js'
import { entry, errors, type MeasuredRun, measuredBy, peakRssHook } from '../helpers/support.js'

/**
 * What a hostile server or log can write, through the packaged action (and the CLI): memory and time stay
 * bounded, nothing becomes a workflow command or markup, no secret leaks in any form, and nothing that is not
 * a completion or a model list reads as one. The bounds asserted here are the ones docs/guarantees.md states; time
 * bounds on the step's own clock (helpers/bounds.ts), and a case that needs an answer to judge gets ANSWER_TIMEOUT_MS.
 */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const MiB = 1024 * 1024
const box = sandbox('wait-for-model-content-', 'file')
const dir = box.dir()
const net = loopback('file')
/** What each bounded case measured; CONTENT_FIGURES=<file> writes them (docs/guarantees.md shows a run's). */
const figures: string[] = []
const measured = (what: string, r: MeasuredRun): void =>
  void figures.push(
    `| ${what} | ${Math.round(r.peakRssMb)} MB | ${(r.wallMs / 1000).toFixed(1)} s | ${Buffer.byteLength(r.summary)} B | ${r.stdout.length} B |`
  )
afterAll(() => {
  if (process.env.CONTENT_FIGURES)
    writeFileSync(
      process.env.CONTENT_FIGURES,
      ['| case | peak RSS | wall | summary | stdout |', '|---|---|---|---|---|', ...figures, ''].join('\n')
    )
})

/** Runs dist/index.js, measures its peak memory, and kills it (failing the test) if it outlives `killMs`. */
async function run(
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  { killMs = 20_000, onStart }: { killMs?: number; onStart?: (child: ChildProcess) => void } = {}
): Promise<MeasuredRun & { killed: boolean }> {
  let killed = false
  let timer: NodeJS.Timeout | undefined
  const stretch = measureLoad()
  const result: ActionRun = await runAction({
    entry,
    inputs,
    env: { NODE_OPTIONS: `--import ${peakRssHook}`, ...env },
    onStart(child) {
      timer = setTimeout(() => ((killed = true), child.kill('SIGKILL')), killMs)
      onStart?.(child)
    }
  })
  clearTimeout(timer)
  // a server `start` launched outlives the action by design: the suite ends it
  if (result.outputs.pid) box.pids.push(Number(result.outputs.pid))
  // a process killed here reported nothing: it fails on `killed`, and on its figures
  const unmeasured = { peakRssMb: Infinity, exitAtMs: Infinity, originMs: NaN }
  return {
    ...result,
    killed,
    ...(/peak-rss-kb=/.test(result.stderr) ? measuredBy(result.stderr) : unmeasured),
    stretch: stretch()
  }
}

const list = (ids: string[]): string => JSON.stringify({ object: 'list', data: ids.map((id) => ({ id })) })
const send = (res: ServerResponse, status: number, body: string): void =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(body)

/** A process to watch with `pid`, ended when the test is done. */
function sleeper(): { pid: number; end(): void } {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' })
  return { pid: child.pid as number, end: () => child.kill() }
}

describe('a log-file that is not a regular file', () => {
  const fifo = join(dir, 'fifo.log')
  execFileSync('mkfifo', [fifo])
  const zero = join(dir, 'zero.log')
  symlinkSync('/dev/zero', zero)
  const directory = join(dir, 'a-directory.log')
  mkdirSync(directory)
  it.each([
    ['a FIFO nobody writes', fifo, /is a FIFO/],
    ['a symlink to /dev/zero', zero, /is a character device/],
    ['a directory', directory, /is a directory/]
  ])('%s is an input error before anything runs', async (_what, path, says) => {
    let requests = 0
    const own = ownPath()
    const url = await net.http((req, res) => (req.url?.startsWith(own) && requests++, send(res, 200, list(['kimi']))))
    const r = await run({ url: `${url}${own}/v1/models`, 'log-file': path, 'fail-pattern': 'Error', timeout: '3s' })
    expect(r.killed).toBe(false)
    expect(requests).toBe(0)
    const found = errors(r.stdout)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(/^::error title=Invalid input::Input "log-file": /)
    expect(found[0]).toMatch(says)
    expect(found[0]).toMatch(/give the path of a regular file/)
    // before anything runs, by the server's count; how soon on an idle machine: npm run bench -- --only bounds
    expect(r.wallMs).toBeLessThan(HANG_MS)
  })
})

describe('a log that turns into a directory mid-wait', () => {
  it('ends the wait with a clear reason and the outputs written, no uncaught exception', async () => {
    const url = await net.http((_req, res) => send(res, 503, '{"error":"loading"}'))
    const log = join(dir, 'turns.log')
    const fd = openSync(log, 'w')
    writeSync(fd, 'INFO starting\n')
    closeSync(fd)
    let seen = ''
    const r = await run(
      { url: `${url}/v1/models`, 'log-file': log, timeout: '60s', interval: '200ms' },
      {},
      {
        // once the wait has begun (its first answer is on stdout), however late a busy machine started it
        onStart: (child) =>
          child.stdout?.on('data', (d: Buffer) => {
            if (seen.includes(': HTTP 503') || !(seen += String(d)).includes(': HTTP 503')) return
            rmSync(log)
            mkdirSync(log)
          })
      }
    )
    expect(r.stdout).not.toMatch(/Unexpected error|EISDIR/)
    // the wait ended on the change, not at its timeout
    expect(r.outputs).toMatchObject({ ready: 'false', reason: 'log-error' })
    expect(errors(r.stdout)[0]).toMatch(/is no longer a regular file \(it is a directory now\)/)
    expect(r.killed).toBe(false)
  })
})

describe('a large or flooding log', () => {
  it('a 200 MB log of a server watched with pid delays neither the first probe nor costs its size in memory', async () => {
    const big = join(dir, 'big.log')
    const fd = openSync(big, 'w')
    const block = Buffer.from(
      'INFO 12-01 10:00:00 engine.py:100] some ordinary log line of a busy server\n'.repeat(14_000)
    )
    for (let written = 0; written < 200 * MiB; written += block.length) writeSync(fd, block)
    writeSync(fd, 'ERROR the last line before the wait\n')
    closeSync(fd)
    const server = sleeper()
    let probes = 0
    const url = await net.http((_req, res) => {
      probes++
      send(res, 503, '{"error":"loading"}')
    })
    try {
      const r = await run({
        url: `${url}/v1/models`,
        pid: String(server.pid),
        'log-file': big,
        timeout: `${ANSWER_TIMEOUT_MS}ms`,
        'log-lines': '3'
      })
      measured('a 200 MB existing log, with `pid`', r)
      expect(probes).toBeGreaterThan(0)
      // when the first probe went out, on the step's own clock (its first answer's line): node's own start is most
      // of this second, which a busy machine stretches (idle, spawn to first probe: npm run bench -- --only bounds)
      const first = /^(\d+(?:\.\d+)?)(m?s): HTTP 503 loading$/m.exec(r.stdout)
      expect(first).not.toBeNull()
      expect(Number(first?.[1]) * (first?.[2] === 's' ? 1000 : 1)).toBeLessThan(1_000 * r.stretch)
      expect(r.peakRssMb).toBeLessThan(100)
      expectEndedByDeadline(r, ANSWER_TIMEOUT_MS)
      // the tail still ends with the file's last line, numbered
      expect(r.stdout).toMatch(/^\d+: ERROR the last line before the wait$/m)
    } finally {
      server.end()
    }
  }, 60_000)

  it('a server that floods its log (yes | head -c 100000000) cannot hold the action or grow it', async () => {
    const url = await net.http((_req, res) => send(res, 503, '{"error":"loading"}'))
    const log = join(dir, 'flood.log')
    const r = await run(
      {
        url: `${url}/v1/models`,
        start: 'yes | head -c 100000000; sleep 30',
        // the test's own server answers for it, as a proxy in front of it would
        'port-check': 'false',
        'log-file': log,
        'fail-pattern': 'CUDA error',
        timeout: '4s'
      },
      {},
      { killMs: 15_000 }
    )
    measured('a server flooding its log (`yes`, 100 MB)', r)
    expect(r.killed).toBe(false)
    expect(r.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expectEndedByDeadline(r, 4_000)
    expect(r.peakRssMb).toBeLessThan(100)
  }, 30_000)

  it('a fail-pattern that backtracks cannot hold the action past its deadline', async () => {
    const url = await net.http((_req, res) => send(res, 503, '{"error":"loading"}'))
    const log = join(dir, 'backtrack.log')
    const line = 'INFO worker_process_start_loading_the_weights_of_the_model_from_the_shared_cache_dir now'
    const r = await run(
      {
        url: `${url}/v1/models`,
        start: `echo '${line}'; sleep 30`,
        // the test's own server answers for it, as a proxy in front of it would
        'port-check': 'false',
        'log-file': log,
        'fail-pattern': '(\\w+\\s?)+: CUDA error',
        // long enough for a late-starting process to read the line: the point is what it says of the pattern
        timeout: `${ANSWER_TIMEOUT_MS}ms`
      },
      {},
      { killMs: 20_000 }
    )
    expect(r.killed).toBe(false)
    expectEndedByDeadline(r, ANSWER_TIMEOUT_MS)
    expect(r.outputs.ready).toBe('false')
    expect(r.stdout).toMatch(/fail-pattern .* ran out of time on line 1/)
  }, 30_000)
})

describe('bodies under the 1 MiB cap', () => {
  const depth = 512 * 1024 - 8
  const cases: Array<[string, () => string]> = [
    ['deeply nested JSON', () => `${'['.repeat(depth)}${']'.repeat(depth)}`],
    ['60,000 models', () => list(Array.from({ length: 60_000 }, (_, i) => `m${i}`))]
  ]
  it.each(cases)('%s: peak RSS under 100 MB, summary under 1 MiB', async (what, body) => {
    const text = body()
    expect(text.length).toBeLessThanOrEqual(MiB)
    const url = await net.http((_req, res) => send(res, 200, text))
    const r = await run({
      url: `${url}/v1/models`,
      model: 'kimi',
      timeout: `${ANSWER_TIMEOUT_MS}ms`,
      interval: '300ms'
    })
    measured(`${what} (1 MiB)`, r)
    // an answer was read (so its memory is what was measured)
    expect(r.outputs).toMatchObject({ ready: 'false', reason: 'timeout', 'status-code': '200' })
    expect(r.peakRssMb).toBeLessThan(100)
    expect(Buffer.byteLength(r.summary)).toBeLessThan(MiB)
    expect(r.stdout.length).toBeLessThan(64 * 1024)
  })

  it('100,000 tiny response headers: peak RSS under 100 MB', async () => {
    const head = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${'a: b\r\n'.repeat(100_000)}content-length: 2\r\nconnection: close\r\n\r\n{}`
    // every probe answered so, for the whole timeout (about 20 answers): each left 3 MB of garbage and no body to
    // count, and over 20 of them peaked at 105 MB until an overflow counted as a body for the collector (probe.ts)
    let answered = 0
    const url = await net.tcp((socket) =>
      socket.once('data', () => {
        answered++
        socket.end(head)
      })
    )
    const r = await run({
      url: `${url}/v1/models`,
      model: 'kimi',
      timeout: `${ANSWER_TIMEOUT_MS}ms`,
      interval: '300ms'
    })
    expect(answered).toBeGreaterThan(0)
    measured('100,000 tiny response headers', r)
    expect(r.outputs.ready).toBe('false')
    expect(r.peakRssMb).toBeLessThan(100)
  })

  it('a fleet of 10 URLs answering 1 MiB each: peak RSS under 100 MB, summary under 1 MiB', async () => {
    const urls: string[] = []
    for (let i = 0; i < 10; i++) {
      const body = list(Array.from({ length: 40_000 }, (_, j) => `f${i}-${j}`)).slice(0, MiB)
      urls.push(`${await net.http((_req, res) => send(res, 200, body))}/v1/models`)
    }
    const r = await run({ url: urls.join('\n'), model: 'kimi', timeout: `${ANSWER_TIMEOUT_MS}ms`, interval: '300ms' })
    measured('a fleet of 10 URLs answering 1 MiB (40,000 models) each', r)
    expect(r.outputs.ready).toBe('false')
    // issue 12 asked for 150 MB; 124-152 MB before answers were let go of and collected across the fleet
    expect(r.peakRssMb).toBeLessThan(100)
    expect(Buffer.byteLength(r.summary)).toBeLessThan(MiB)
  })

  it('a model list that changes on every probe: memory, log and summary stay bounded', async () => {
    // 64 lists, then a 401 that ends the wait at once: bound by the answers (more than the timeline keeps), not by
    // how many fit in a timeout on a busy machine
    const LISTS = 64
    let n = 0
    const url = await net.http((_req, res) => {
      if (n === LISTS) return send(res, 401, '{"error":"Unauthorized"}')
      n++
      send(res, 200, list(Array.from({ length: 5_000 }, (_, j) => `p${n}-${j}`)))
    })
    const r = await run(
      { url: `${url}/v1/models`, model: 'kimi', timeout: '10m', interval: '100ms' },
      {},
      { killMs: 110_000 }
    )
    measured(`a list of 5,000 models changing on every probe (${n} probes)`, r)
    expect(r.outputs).toMatchObject({ ready: 'false', reason: 'unauthorized' })
    expect(n).toBe(LISTS)
    expect(r.peakRssMb).toBeLessThan(100)
    expect(r.stdout.length).toBeLessThan(512 * 1024)
    expect(Buffer.byteLength(r.summary)).toBeLessThan(256 * 1024)
    expect(r.summary).toMatch(/\d+ changes? left out/)
    // the first and the last answers are both kept
    expect(r.summary).toContain('p1-0')
    expect(r.summary).toContain(`p${LISTS}-0,`)
  }, 120_000)
})

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

  it('on the action’s stdout (the log tail)', async () => {
    const url = await net.http((_req, res) => send(res, 503, '{"error":"loading"}'))
    const r = await run({
      url: `${url}/v1/models`,
      start: `${process.execPath} ${script}; sleep 30`,
      // the test's own server answers for it, as a proxy in front of it would
      'port-check': 'false',
      'log-file': join(dir, 'inject.log'),
      'log-lines': '100',
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

  it('on the CLI’s stderr (a text body quoted in the failure message)', async () => {
    const url = await net.http(
      (_req, res) =>
        void res.writeHead(503, { 'content-type': 'text/plain' }).end(`x\n${injections.slice(0, 8).join('\n')}`)
    )
    const stderr = await cliRun(['--url', `${url}/v1/models`])
    expect(stderr).toContain('\n\u0085: :error title=pwned')
    expect(commands(stderr)).toEqual([])
  })

  it('on the CLI’s stderr (the log tail)', async () => {
    const url = await net.http((_req, res) => send(res, 503, '{"error":"loading"}'))
    const stderr = await cliRun([
      '--url',
      `${url}/v1/models`,
      '--port-check',
      'false',
      '--start',
      `${process.execPath} ${script}; sleep 30`,
      '--log-file',
      join(dir, 'inject-cli.log'),
      '--log-lines',
      '100'
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
      send(res, 503, JSON.stringify(n++ % 2 ? { error: id } : { object: 'list', data: [{ id }] }))
    )
    const r = await run({
      url: `${url}/v1/models`,
      status: '503',
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
    let which = 0
    const url = await net.http((req, res) => {
      const bodies = [
        // the token alone, and one cookie value alone
        JSON.stringify({ error: `invalid token ${token} for session ${cookie}` }),
        // the key where the 120-character cut falls inside it
        JSON.stringify({ error: `${'x'.repeat(110)}${key}` }),
        // a key with a quote and a backslash, JSON-escaped in the body and again in the debug line
        JSON.stringify({ error: `bad key ${String(req.headers.authorization).slice(7)}` })
      ]
      send(res, 503, bodies[which])
    })
    const runs: ActionRun[] = []
    const debug = { RUNNER_DEBUG: '1' }
    which = 0
    runs.push(
      await run(
        {
          url: `${url}/v1/models`,
          headers: `Authorization: Bearer ${token}\nCookie: lang=en; session=${cookie}`,
          timeout: `${ANSWER_TIMEOUT_MS}ms`
        },
        debug
      )
    )
    which = 1
    runs.push(await run({ url: `${url}/v1/models`, 'api-key': key, timeout: `${ANSWER_TIMEOUT_MS}ms` }, debug))
    which = 2
    runs.push(await run({ url: `${url}/v1/models`, 'api-key': quoted, timeout: `${ANSWER_TIMEOUT_MS}ms` }, debug))
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
  it.each(completions)('probe-generation: %s is generation-failed, never ready', async (_what, status, answer) => {
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
  })

  it('probe-generation: a real completion is ready', async () => {
    const url = await net.http((req, res) =>
      req.url === '/v1/models'
        ? send(res, 200, list(['kimi']))
        : send(res, 200, '{"object":"text_completion","choices":[{"index":0,"text":" Hello"}]}')
    )
    const r = await run({ url: `${url}/v1/models`, model: 'kimi', 'probe-generation': 'true', timeout: '30s' })
    expect(r.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
  })

  it.each([
    ['an OpenAI error object with a name', '{"object":"error","name":"kimi","message":"model kimi failed to load"}'],
    ['an error object that names the model', '{"name":"kimi","error":"CUDA error: out of memory"}'],
    ['an object whose name is not a model status', '{"name":"kimi","message":"not loaded yet"}']
  ])('a 200 whose body is %s is never a model list', async (_what, body) => {
    const url = await net.http((_req, res) => send(res, 200, body))
    const r = await run({ url: `${url}/v2/models/kimi`, model: 'kimi', timeout: `${ANSWER_TIMEOUT_MS}ms` })
    expect(r.outputs).toMatchObject({ ready: 'false', reason: 'timeout', 'status-code': '200', models: '[]' })
  })
})
