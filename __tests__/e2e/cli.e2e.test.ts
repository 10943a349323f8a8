import { spawn } from 'node:child_process'
import { appendFileSync, readFileSync } from 'node:fs'
import type { IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, simulate } from '../../src/simulator/server.js'
import { ANSWER_TIMEOUT_MS } from '../helpers/bounds.js'
import { loopback } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, fakeServer, type ProcessRun, runProcess } from '../helpers/support.js'
import { runAction } from '../../src/simulator/runner.js'

/** End to end: `node dist/cli.js` as a person or a script runs it, against real servers on loopback. */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
const actionOutputs = [
  ...readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')
    .split(/^outputs:$/m)[1]
    .matchAll(/^ {2}([a-z-]+):$/gm)
].map((m) => m[1])

/** The CLI's history (its default: under the user's cache directory) goes to a directory of the tests' own. */
const cacheHome = sandbox('wait-for-model-cli-cache-', 'file').dir()
/** A directory for each test, for what a run writes (the server log under RUNNER_TEMP). */
const box = sandbox('wait-for-model-cli-')

// A clean environment: nothing inherited may set an input or NO_COLOR.
const run = (args: string[], env: Record<string, string> = {}): Promise<ProcessRun> =>
  runProcess(process.execPath, [cli, ...args], {
    // TMPDIR: this run's, whose leftovers the tests' teardown looks for
    env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: cacheHome, TMPDIR: tmpdir(), ...env }
  })

const net = loopback()
function serve(status: number, body: string, seen: IncomingHttpHeaders[] = []): Promise<string> {
  return net.http((req, res) => {
    seen.push(req.headers)
    res.writeHead(status, { 'content-type': 'application/json' }).end(body)
  })
}

describe('wait-for-model (the CLI)', () => {
  it("keeps its history under the user's cache directory, and fails on a regression with --fail-on-regression", async () => {
    const url = `${await serve(200, '{"object":"list","data":[{"id":"kimi-k2"}]}')}/v1/models`
    const args = ['--url', url, '--model', 'kimi', '--history-key', 'cli-history', '--json']
    const first = await run(args)
    expect(JSON.parse(first.stdout)).toMatchObject({
      ready: true,
      'expected-seconds': null,
      'regression-percent': null
    })
    const file = join(cacheHome, 'wait-for-model', 'history.jsonl')
    expect(readFileSync(file, 'utf8')).toContain('"key":"cli-history"')
    // two earlier runs on record that were ready in a millisecond: the median, far below this run
    const fast = JSON.stringify({
      v: 1,
      key: 'cli-history',
      at: '2026-07-01T00:00:00Z',
      ready: true,
      reason: 'ready',
      elapsedSeconds: 0.001,
      phases: []
    })
    appendFileSync(file, `${fast}\n${fast}\n`)
    const second = await run([...args, '--fail-on-regression', 'true'])
    expect(second.code).toBe(1)
    expect(JSON.parse(second.stdout)).toMatchObject({ ready: true, 'regression-percent': expect.any(Number) })
    expect(second.stderr).toMatch(
      /\nerror: Startup took \d+\.\ds, \d+\.\d% over the median of 0\.0s of the last 3 ready runs\.\n$/
    )
    // the runs on record, as `history` prints them: this suite's two waits around the two written above
    const history = await run(['history', '--key', 'cli-history', '--format', 'json'])
    expect(history.code).toBe(0)
    const rows = JSON.parse(history.stdout) as Array<{ ready: boolean; 'elapsed-seconds': number; phases: unknown[] }>
    expect(rows.map((r) => r['elapsed-seconds'] === 0.001)).toEqual([false, true, true, false])
    expect(rows.every((r) => r.ready === true && Array.isArray(r.phases))).toBe(true)
    expect(history.stderr).toBe(`4 runs with key "cli-history" (of 4 runs) in ${file}.\n`)
    const off = await run([...args, '--history-file', ''])
    expect(JSON.parse(off.stdout)).toMatchObject({ ready: true, 'expected-seconds': null })
  })

  it('waits for SGLang to list the model, logging to stderr like the action, and prints the outputs as JSON', async () => {
    const server = await simulate({ engine: 'sglang', model: '/shared/kimi-k2.5-int4', loadMs: 1_500 })
    try {
      const r = await run([
        '--url',
        `${server.baseUrl}/v1/models`,
        '--model',
        'kimi',
        '--interval=200ms',
        '--timeout',
        '30s',
        '--json'
      ])
      expect(r.code).toBe(0)
      const out = JSON.parse(r.stdout) as Record<string, unknown>
      expect(Object.keys(out).sort()).toEqual([...actionOutputs].sort())
      // typed: numbers, booleans and lists as JSON values, under the output names
      expect(out).toMatchObject({
        ready: true,
        reason: 'ready',
        'model-id': '/shared/kimi-k2.5-int4',
        'status-code': 200,
        models: ['/shared/kimi-k2.5-int4'],
        results: [expect.objectContaining({ ready: true, 'status-code': 200 })],
        phases: expect.any(Array),
        pid: null,
        'log-file': ''
      })
      expect(out.attempts).toEqual(expect.any(Number))
      // it waited for the engine: ended after its ready moment on the test's clock (which a busy machine's delays only
      // push later; elapsed-seconds counts from the process's start, which the test cannot see)
      expect(Date.now()).toBeGreaterThanOrEqual(server.readyAt)
      expect(out['elapsed-seconds']).toBeGreaterThan(0)
      const lines = r.stderr.trimEnd().split('\n')
      expect(lines[0]).toMatch(
        /^Waiting up to 30.0s for http:\/\/127.0.0.1:\d+\/v1\/models .* list model "kimi"; probing every 200ms$/
      )
      // the first probe's answer, at its time (on a busy machine the process may start after the port opened)
      expect(lines[1]).toMatch(/^[\d.]+m?s: (connection refused|HTTP 200, serving .*)$/)
      // SGLang's /health is asked at most once a second (past its warm-up it is a one-token generation)
      expect(lines.at(-1)).toMatch(
        /^Ready after [\d.]+s \(\d+ probes?\); model "\/shared\/kimi-k2.5-int4": HTTP 200, serving/
      )
      // plain text for a pipe: no workflow commands, no colour
      expect(r.stderr).not.toContain('::')
      expect(r.stderr).not.toContain('\u001b[')
    } finally {
      await server.close()
    }
  })

  it("--summary-file writes the action's job summary, for a wait that fails as for one that succeeds", async () => {
    const url = `${await serve(200, '{"object":"list","data":[{"id":"llama-3"}]}')}/v1/models`
    // a timeout in which a process that starts late on a loaded machine still probes (the summary quotes the last
    // answer; one with 0 probes has other rows), the two runs side by side so that it costs the suite one window
    const inputs = { url, model: 'kimi', interval: '200ms', timeout: '6s', 'history-file': '' }
    const file = join(box.dir(), 'summary.md')
    const flags = Object.entries(inputs).flatMap(([name, value]) => [`--${name}`, value])
    const [r, action] = await Promise.all([run([...flags, '--summary-file', file]), runAction({ entry, inputs })])
    expect(r.code).toBe(1)
    expect(action.outputs.attempts).not.toBe('0')
    // the same Markdown, but for the times and probe counts of two different runs
    const masked = (markdown: string): string => markdown.replace(/\d+(\.\d+)?/g, 'N')
    expect(masked(readFileSync(file, 'utf8'))).toBe(masked(action.summary))
    expect(readFileSync(file, 'utf8')).toMatch(/^### wait-for-model\n[\s\S]*\| Result \| ❌ not ready \(timeout\) \|/)
  })

  it('--summary-file: a path that cannot be written is bad usage, before any request', async () => {
    const seen: IncomingHttpHeaders[] = []
    const url = await serve(200, '{}', seen)
    const r = await run(['--url', url, '--summary-file', join(box.dir(), 'no', 'such', 'dir', 's.md')])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^wait-for-model: --summary-file: cannot write .*s\.md \(ENOENT\)\n/)
    expect(seen).toEqual([])
  })

  // what a user can get wrong, found before the wait or during it: one line naming the input, never a stack trace
  const missing = (name: string): string => join(box.dir(), 'no', 'such', 'dir', name)
  it.each([
    ['wait, a pid file that does not exist', () => ['--url', 'http://127.0.0.1:9/v1/models', '--pid', missing('pid')]],
    ['wait, no container engine', () => ['--url', 'http://127.0.0.1:9/v1/models', '--container', 'vllm']],
    ['wait, a CA file that does not exist', () => ['--url', 'http://127.0.0.1:9/', '--ca-cert', missing('ca.pem')]],
    [
      'check, a CA file that does not exist',
      () => ['check', '--url', 'http://127.0.0.1:9/', '--ca-cert', missing('ca')]
    ],
    ['stop, a pid file that does not exist', () => ['stop', '--pid', missing('pid')]],
    ['stop, no container engine', () => ['stop', '--container', 'vllm']],
    [
      'simulate, a log file it cannot open',
      () => ['simulate', '--engine', 'vllm', '--model', 'm', '--log-file', missing('l')]
    ]
  ])('%s: bad usage in one line naming what to fix, no stack trace', async (_, args) => {
    const r = await run(args(), { DOCKER_HOST: `unix://${missing('engine.sock')}` })
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' })
    expect(r.stderr).toMatch(
      /^wait-for-model: --(pid|container|ca-cert|log-file): .+\nRun "wait-for-model --help" for usage\.\n$/
    )
    expect(r.stderr).not.toMatch(/^\s+at /m)
  })

  it('exits 1 on timeout, with the failure message on stderr and ready=false in the JSON', async () => {
    const url = await serve(200, '{"object":"list","data":[{"id":"llama-3"}]}')
    const r = await run([
      '--url',
      `${url}/v1/models`,
      '--model',
      'kimi',
      '--interval',
      '200ms',
      '--timeout',
      `${ANSWER_TIMEOUT_MS}ms`,
      '--json'
    ])
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({
      ready: false,
      reason: 'timeout',
      models: ['llama-3'],
      'model-id': ''
    })
    // a timeout long enough for a Node started late on a busy machine to hear an answer (helpers/bounds.ts)
    const timeout = (ANSWER_TIMEOUT_MS / 1000).toFixed(1)
    expect(r.stderr).toMatch(new RegExp(`^Not ready after ${timeout[0]}\\.\\ds \\(\\d+ probes?\\): timeout$`, 'm'))
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: Timed out after ${timeout[0]}\\.\\ds and \\d+ probes? \\(timeout ${timeout}s\\) waiting for .* list model "kimi"\\.\nLast answer: .*\nThe server lists: llama-3\\.$`,
        'm'
      )
    )
  })

  it('exits 1 at once on 401 and never prints the api-key', async () => {
    const seen: IncomingHttpHeaders[] = []
    const url = await serve(401, '{"error":"Unauthorized"}', seen)
    const r = await run(['--url', `${url}/v1/models`, '--api-key', 'sk-cli-secret-9', '--json'])
    expect(r.code).toBe(1)
    expect(seen).toHaveLength(1)
    expect(seen[0].authorization).toBe('Bearer sk-cli-secret-9')
    expect(JSON.parse(r.stdout)).toMatchObject({ reason: 'unauthorized', 'status-code': 401 })
    expect(r.stdout + r.stderr).not.toContain('sk-cli-secret-9')
  })

  it('reads inputs from INPUT_* variables, in the runner form and the shell form, and flags win over them', async () => {
    const seen: IncomingHttpHeaders[] = []
    const url = await serve(200, '{"status":"ok","model":"kimi"}', seen)
    const r = await run(['--timeout', '5s', '--json'], {
      INPUT_URL: `${url}/health`,
      INPUT_TIMEOUT: 'not-a-duration',
      INPUT_MATCH: '/"status":"ok"/',
      INPUT_HEADERS: 'X-Team: ml',
      'INPUT_API-KEY': 'sk-runner-form',
      INPUT_INSECURE_TLS: 'true',
      INPUT_INTERVAL: '100ms'
    })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ ready: true, attempts: 1 })
    expect(seen[0]['x-team']).toBe('ml')
    expect(seen[0].authorization).toBe('Bearer sk-runner-form')
    expect(r.stderr).toMatch(/^warning: insecure-tls is on/m)
  })

  it('sends each repeated --headers flag', async () => {
    const seen: IncomingHttpHeaders[] = []
    const url = await serve(200, '{}', seen)
    const r = await run(['--url', url, '--headers', 'X-A: 1', '--headers=X-B: 2'])
    expect(r.code).toBe(0)
    expect(seen[0]).toMatchObject({ 'x-a': '1', 'x-b': '2' })
  })

  it.each([
    [
      ['--url', 'http://h/', '--timeout', 'soon', '--json'],
      {},
      /^wait-for-model: --timeout: "soon" is not a duration such as 250ms/
    ],
    [
      ['--timeout', '10s', '--json'],
      { INPUT_URL: 'localhost:8000' },
      /^wait-for-model: INPUT_URL: "localhost:8000" is not an http:\/\/ or https:\/\/ URL/
    ],
    [[], {}, /^wait-for-model: --url: is required/],
    [['--url', 'http://h/', '--wait'], {}, /^wait-for-model: Unknown option '--wait'/],
    [['--url', 'http://h/', '--fail-on-timeout', 'false'], {}, /^wait-for-model: Unknown option '--fail-on-timeout'/],
    [['--json', '--url'], {}, /^wait-for-model: Option '--url <value>' argument missing/],
    [
      ['simulate', '--engine', 'vlm', '--model', 'm'],
      {},
      /^wait-for-model: --engine: give one of vllm, vllm-dp-supervisor, sglang, llama.cpp, tgi, ollama, triton/
    ],
    [
      ['simulate', '--engine', 'vllm', '--model', 'm', '--load', 'long'],
      {},
      /^wait-for-model: --load: "long" is not a duration/
    ],
    [
      ['simulate', '--engine', 'vllm', '--model', 'm', '--port', '70000'],
      {},
      /^wait-for-model: --port: "70000" is not a port number/
    ]
  ])('exits 2 on bad usage %j, naming the flag or variable', async (args, env, message) => {
    const r = await run(args, env)
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(message)
    expect(r.stderr).toMatch(/Run "wait-for-model --help" for usage\.\n$/)
  })

  it('starts a server that dies, says how, shows the end of its log and runs each repeated --diagnostics', async () => {
    const port = await freePort()
    const r = await run(
      [
        '--url',
        `http://127.0.0.1:${port}/v1/models`,
        '--start',
        `node ${fakeServer} ${port} exit 300 3`,
        '--diagnostics',
        'echo first-diag',
        '--diagnostics',
        'echo second-diag',
        '--json'
      ],
      { RUNNER_TEMP: box.dir() }
    )
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout) as Record<string, unknown>
    // vLLM's own fatal line ends the wait, quoted with the exit code that follows it
    expect(out).toMatchObject({
      ready: false,
      pid: expect.any(Number),
      reason: 'log-error',
      'log-file': expect.stringMatching(new RegExp(`/model-server-\\d+-[0-9a-f]{12}\\.log$`))
    })
    expect(r.stderr).toMatch(
      /Last \d+ lines of .*model-server-\d+-[0-9a-f]{12}\.log:\n(?: {2}\d+: .*\n)* {2}\d+: event at \d+\n {2}\d+: ERROR .* EngineCore failed to start\.\n/
    )
    expect(r.stderr).toMatch(
      /── Diagnostics: echo first-diag\nfirst-diag\n── Diagnostics: echo second-diag\nsecond-diag\n/
    )
    expect(r.stderr).toMatch(
      new RegExp(
        `error: Stopped after .* is a known fatal vLLM line: .*EngineCore failed to start\\.; the server process ${out.pid} then exited with code 3\\.`
      )
    )
  })

  it('prints its version, and help that lists every action input as a flag with its default', async () => {
    const { code, stdout, stderr } = await run(['--version'])
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' })
    const help = await run(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^ {2}--timeout DURATION +give up after this long \(default: 15m\)$/m)
    expect(help.stdout).toMatch(/Exit status: 0 ready, 1 not ready .*, 2 bad usage/)
  })
})

describe('wait-for-model simulate', () => {
  it('serves the engine on --port until --crash-after, when the port closes and the process exits 1; the gate sees it come and go', async () => {
    const port = await freePort()
    const sim = run([
      'simulate',
      '--engine',
      'vllm',
      '--model',
      '/shared/kimi-k2.5-int4',
      // a load long enough that the gate, started beside it, probes the closed port first even when a loaded
      // machine starts node late
      '--load',
      '3s',
      '--port',
      String(port),
      '--crash-after',
      '6s'
    ])
    const url = `http://127.0.0.1:${port}/v1/models`
    const first = await run(['--url', url, '--model', 'kimi', '--interval', '200ms', '--timeout', '30s', '--json'])
    expect(first.code).toBe(0)
    expect(first.stderr).toMatch(/connection refused[\s\S]*Ready after/)
    const after = await sim
    expect(after.code).toBe(1)
    const lines = after.stderr.trimEnd().split('\n')
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\[simulated vllm\\] serving "/shared/kimi-k2.5-int4" on http://127.0.0.1:${port}: the port opens at 3.0s, the model is ready at 3.0s, the engine crashes at 6.0s`
        )
      ),
      expect.stringMatching(/^\[simulated vllm\] \d+\.\ds: port open, answering HTTP$/),
      expect.stringMatching(/^\[simulated vllm\] \d+\.\ds: model ready$/),
      expect.stringMatching(/^\[simulated vllm\] \d+\.\ds: crashed: the port is closed and the process exits$/)
    ])
    // each event at its time or later (a timer never fires early; a loaded machine may fire it late)
    const at = lines.slice(1).map((l) => Number(/\] (\d+\.\d)s:/.exec(l)?.[1]))
    expect(at[0]).toBeGreaterThanOrEqual(3)
    expect(at[1]).toBeGreaterThanOrEqual(3)
    expect(at[2]).toBeGreaterThanOrEqual(6)
    // the deadline counts from the process start, and node alone can take seconds to start on a loaded machine:
    // a window in which the first probe always lands (the point is what it says)
    const gone = await run(['--url', url, '--timeout', '6s', '--json'])
    expect(JSON.parse(gone.stdout)).toMatchObject({ ready: false, 'status-code': null })
    expect(gone.stderr).toMatch(/connection refused/)
  }, 60_000)

  it("takes the gate's spelling llama.cpp; with --generation-fails the gate ends with generation-failed", async () => {
    const port = await freePort()
    // the simulator runs until the gate has its verdict (bound by that event, not by a --crash-after window that a
    // loaded machine may spend starting node), and the gate starts once the simulator says it serves
    const sim = spawn(
      process.execPath,
      [
        cli,
        'simulate',
        '--engine',
        'llama.cpp',
        '--model',
        'qwen3-8b.gguf',
        '--load',
        '0s',
        '--port',
        String(port),
        '--generation-fails'
      ],
      {
        env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: cacheHome, TMPDIR: tmpdir() },
        stdio: ['ignore', 'ignore', 'pipe']
      }
    )
    let simStderr = ''
    const closed = new Promise<void>((resolve) => sim.once('close', () => resolve()))
    try {
      await new Promise<void>((resolve, reject) => {
        sim.stderr.on('data', (d: Buffer) => {
          simStderr += d.toString()
          if (/ serving "/.test(simStderr)) resolve()
        })
        sim.once('close', () => reject(new Error(`the simulator ended before serving: ${simStderr}`)))
      })
      expect(simStderr).toMatch(
        /^\[simulated llamacpp\] serving "qwen3-8b\.gguf" .*, every generation request fails\./m
      )
      const url = `http://127.0.0.1:${port}/v1/models`
      // a failing generation is retried until the timeout: a window in which a late start still probes
      const gate = await run([
        '--url',
        url,
        '--model',
        'qwen3',
        '--probe-generation',
        'true',
        '--interval',
        '200ms',
        '--timeout',
        '6s',
        '--json'
      ])
      expect(gate.code).toBe(1)
      expect(JSON.parse(gate.stdout)).toMatchObject({ ready: false, reason: 'generation-failed' })
      expect(gate.stderr).toMatch(/POST \/v1\/completions: HTTP 500 Compute error: failed to decode the batch/)
    } finally {
      sim.kill('SIGTERM')
      await closed
    }
  }, 60_000)

  it('exits 2 when the port is taken', async () => {
    const url = await serve(200, '{}')
    const r = await run(['simulate', '--engine', 'ollama', '--model', 'llama3.2', '--port', new URL(url).port])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^wait-for-model: --port: cannot open 127.0.0.1:\d+ \(EADDRINUSE\)/)
  })
})
