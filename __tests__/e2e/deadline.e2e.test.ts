import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { ANSWER_TIMEOUT_MS, expectEndedByDeadline } from '../helpers/bounds.js'
import { loopback } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { errors, type MeasuredRun, runMeasured } from '../helpers/support.js'

/**
 * The deadline and cancellation, through the packaged action, with a probe hanging in each state a request can
 * hang in before any HTTP: a connect whose SYN is never answered, a TLS handshake that never starts, a name
 * the system resolver never answers. Also a diagnostic still running and a history file that blocks.
 * Bounds asserted here are the ones docs/guarantees.md states: the deadline on the step's own clock, a cancel on
 * the test's, each with its slack stretched by the load measured during the run (helpers/bounds.ts).
 */
const net = loopback()
const box = sandbox('wait-for-model-deadline-')
const cleanups: Array<() => void> = []
afterEach(() => cleanups.splice(0).forEach((c) => c()))

/** What each test measured, printed at the end (docs/guarantees.md quotes these figures). */
const measured: string[] = []
afterAll(() => console.log(`measured:\n${measured.join('\n')}`))

/** How soon after a signal the process ends on an idle machine (times the run's measured load on a busy one). */
const CANCEL_MS = 1_000

/**
 * A loopback port whose accept queue is full, so that the kernel drops every new SYN and a connect waits for
 * ever: a listening socket nobody accepts on (backlog 0, from python3, since Node accepts by itself), filled by
 * one connection. Returns `http://127.0.0.1:PORT`.
 */
async function unansweredPort(): Promise<string> {
  const holder = spawn(
    'python3',
    [
      '-c',
      'import socket,sys\ns=socket.socket()\ns.bind(("127.0.0.1",0))\ns.listen(0)\nprint(s.getsockname()[1],flush=True)\nsys.stdin.read()'
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] }
  )
  const fillers: Socket[] = []
  cleanups.push(() => {
    fillers.forEach((s) => s.destroy())
    holder.kill('SIGKILL')
  })
  const port = await new Promise<number>((resolve) => holder.stdout.once('data', (d) => resolve(Number(String(d)))))
  // the first connection fills the queue; the second shows that it is full (it cannot connect)
  const connected = await Promise.all(
    [0, 1].map(
      (i) =>
        new Promise<boolean>((resolve) => {
          const s = connect(port, '127.0.0.1')
          fillers.push(s)
          s.on('error', () => undefined).once('connect', () => resolve(true))
          setTimeout(() => resolve(false), 300 + i * 100)
        })
    )
  )
  expect(connected).toEqual([true, false])
  return `http://127.0.0.1:${port}`
}

/** A server that accepts the connection and never says a word: a TLS client waits for the handshake for ever. */
const silentTls = async (): Promise<string> => (await net.tcp(() => undefined)).replace(/^http:/, 'https:')

/** Whether this machine lets a test have its own user, mount and network namespaces (see silent-dns.sh). */
const namespaces =
  spawnSync('unshare', ['--map-root-user', '--mount', '--net', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' })
    .status === 0
const silentDns = new URL('../fixtures/silent-dns.sh', import.meta.url).pathname
const itWithNamespaces = namespaces ? it : it.skip
if (!namespaces) console.warn('unshare or ip is not available here: the silent-resolver tests are skipped')

interface Timed {
  run: MeasuredRun
  /** When the process ended, on performance.now()'s scale. */
  endedAt: number
  /** When the signal was sent (0: none). */
  signalledAt: number
}

/** Runs the packaged action; with `signal`, sends it once the action is `afterMs` into its wait (or at `when` in its stdout). */
async function timedRun(
  inputs: Record<string, string>,
  options: { dns?: boolean; signal?: NodeJS.Signals; when?: string; afterMs?: number; killAfterMs?: number } = {}
): Promise<Timed> {
  let signalledAt = 0
  let seen = ''
  const onStart = (child: ChildProcess): void => {
    // A run that hangs is ended here, so that the test fails rather than hangs.
    const guard = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 25_000)
    child.once('exit', () => clearTimeout(guard))
    child.stdout?.on('data', (d: Buffer) => {
      seen += d.toString()
      if (options.signal === undefined || signalledAt !== 0 || !seen.includes(options.when ?? 'Waiting up to')) return
      signalledAt = -1
      setTimeout(() => {
        signalledAt = performance.now()
        child.kill(options.signal)
      }, options.afterMs ?? 300)
    })
  }
  const run = await runMeasured(inputs, options.dns ? { NODE: process.execPath } : {}, {
    node: options.dns ? silentDns : undefined,
    onStart
  })
  return { run, endedAt: performance.now(), signalledAt }
}

const hanging: Array<[string, () => Promise<string>]> = [
  ['a connect whose SYN is never answered', async () => `${await unansweredPort()}/v1/models`],
  ['a TLS handshake that never starts', async () => `${await silentTls()}/v1/models`]
]

describe('a probe hanging before any HTTP answer', () => {
  it.each(hanging)('is cut at the deadline, and the action ends then: %s', async (state, url) => {
    const { run } = await timedRun({
      url: await url(),
      // long enough for a late-starting process to have a probe cut: the point is the line
      timeout: `${ANSWER_TIMEOUT_MS}ms`,
      interval: '100ms'
    })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expect(run.stdout).toMatch(/no answer \(request timed out\)/)
    // a probe is given at most 10 s, and never past the deadline (the loop's unit tests cut shorter ones)
    measured.push(`deadline slack, ${state}: ${run.exitAtMs - ANSWER_TIMEOUT_MS} ms (own clock)`)
    expect(Number(run.outputs.attempts)).toBeGreaterThanOrEqual(1)
    expectEndedByDeadline(run, ANSWER_TIMEOUT_MS)
  })

  itWithNamespaces('is cut at the deadline, and the action ends then: a name the resolver never answers', async () => {
    const { run } = await timedRun(
      { url: 'http://model-server.example:8000/v1/models', timeout: `${ANSWER_TIMEOUT_MS}ms` },
      { dns: true }
    )
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expect(run.stdout).toMatch(/no answer \(request timed out\)/)
    // the process itself ends too: a lookup still pending must not hold it (Node waits for its thread)
    measured.push(`deadline slack, a silent resolver: ${run.exitAtMs - ANSWER_TIMEOUT_MS} ms (own clock)`)
    expectEndedByDeadline(run, ANSWER_TIMEOUT_MS)
  })

  const cancellable: Array<[string, () => Promise<string>]> = [
    ...hanging,
    ['a name the resolver never answers', async () => 'http://model-server.example:8000/v1/models']
  ]
  it.each(cancellable)(
    'is cut by SIGTERM, and the action ends within a second, outputs written: %s',
    async (state, url) => {
      const dns = state.includes('resolver')
      if (dns && !namespaces) return
      const { run, endedAt, signalledAt } = await timedRun(
        { url: await url(), timeout: '60s' },
        { dns, signal: 'SIGTERM' }
      )
      expect(signalledAt).toBeGreaterThan(0)
      measured.push(`SIGTERM to exit, ${state}: ${Math.round(endedAt - signalledAt)} ms`)
      expect(endedAt - signalledAt).toBeLessThan(CANCEL_MS * run.stretch)
      expect(run.outputs).toMatchObject({ ready: 'false', reason: 'cancelled' })
      expect(errors(run.stdout)[0]).toMatch(/the job was cancelled \(SIGTERM\)/)
    }
  )

  it('is cut by SIGINT as well', async () => {
    const { run, endedAt, signalledAt } = await timedRun(
      { url: `${await silentTls()}/v1/models`, timeout: '60s' },
      { signal: 'SIGINT' }
    )
    measured.push(`SIGINT to exit, a TLS handshake that never starts: ${Math.round(endedAt - signalledAt)} ms`)
    expect(endedAt - signalledAt).toBeLessThan(CANCEL_MS * run.stretch)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'cancelled' })
  })
})

/** Whether a process runs (a zombie, ended but not yet reaped by whoever inherited it, does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

describe('diagnostics', () => {
  it('are ended by SIGTERM within a second, the whole process group of each', async () => {
    const pidFile = join(box.dir(), 'diagnostic.pid')
    const url = `${await net.http((_req, res) => void res.writeHead(503).end())}/v1/models`
    const { run, endedAt, signalledAt } = await timedRun(
      {
        url,
        timeout: '1s',
        // the shell starts a child of its own (sleep), which must end too
        diagnostics: `sleep 30 & echo $! > ${pidFile}; wait\necho second-diagnostic`
      },
      { signal: 'SIGTERM', when: '::group::Diagnostics', afterMs: 300 }
    )
    expect(signalledAt).toBeGreaterThan(0)
    measured.push(`SIGTERM to exit, a diagnostic running: ${Math.round(endedAt - signalledAt)} ms`)
    expect(endedAt - signalledAt).toBeLessThan(CANCEL_MS * run.stretch)
    // a cancel is a cancel: the outputs, written after the diagnostics, say so (issue 26)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'cancelled' })
    expect(run.stdout).toMatch(/\(stopped: the job was cancelled\)/)
    expect(run.stdout).not.toMatch(/second-diagnostic/)
    const sleeper = Number(readFileSync(pidFile, 'utf8'))
    expect(sleeper).toBeGreaterThan(0)
    expect(running(sleeper)).toBe(false)
  })
})

describe('a history file that blocks', () => {
  const neverReady = async (): Promise<string> =>
    `${await net.http((_req, res) => void res.writeHead(503).end())}/v1/models`

  it('that is a FIFO turns history off with a notice, and holds nothing', async () => {
    const fifo = join(box.dir(), 'history.jsonl')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const { run } = await timedRun({ url: await neverReady(), timeout: '1500ms', 'history-file': fifo })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expect(run.stdout).toMatch(
      /::notice title=Startup history::History is off: cannot write .*history\.jsonl \(not a regular file\)/
    )
    measured.push(`deadline slack, a FIFO history file: ${run.exitAtMs - 1_500} ms (own clock)`)
    expectEndedByDeadline(run, 1_500)
  })

  it('whose lock another process holds does not keep the action past its deadline; the run is still recorded', async () => {
    const file = join(box.dir(), 'history.jsonl')
    writeFileSync(file, '')
    const lock = `${file}.lock`
    // a fresh lock, as a live process holds it (one older than 10 s is taken as left by a dead one)
    closeSync(openSync(lock, 'w'))
    const { run } = await timedRun({ url: await neverReady(), timeout: '1500ms', 'history-file': file })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    measured.push(`deadline slack, a locked history file: ${run.exitAtMs - 1_500} ms (own clock)`)
    expectEndedByDeadline(run, 1_500)
    expect(readFileSync(file, 'utf8')).toMatch(/"reason":"timeout"/)
  })
})
