import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type ActionRun, runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { procStat } from '../../src/server/proc.js'
import { measureLoad } from '../helpers/bounds.js'
import { loopback } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors, fakeServer, savedServers } from '../helpers/support.js'

/**
 * A cancel is a cancel (issue 26, item 7), through dist/: SIGTERM, SIGINT and SIGHUP, each at each stage of a run
 * (the pre-flight before `start`, the server launching, the wait, the smoke test, the diagnostics, the job-end
 * step), end with reason=cancelled, the outputs written and the summary written, within a second of the signal.
 * The runner stand-in signals the action's process as the runner does a cancelled job's step.
 */
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const
type Signal = (typeof SIGNALS)[number]
/**
 * From the signal to the end of the process, with a 2-core machine's slack for Node's exit; times the load measured
 * during the run on a busy one (helpers/bounds.ts).
 */
const CANCEL_MS = 1_000 + 700

const box = sandbox('wfm-signals-e2e-')
const net = loopback()
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const post = new URL('../../dist/post.js', import.meta.url).pathname
const fakeGpuDir = new URL('../fixtures/gpu/', import.meta.url).pathname
/** Each case's time from the signal to the end of the process, printed at the end (docs/guarantees.md quotes them). */
const measured: string[] = []
afterAll(async () => {
  console.log(`measured:\n${measured.join('\n')}`)
  await net.close()
})

/** Running: a zombie waiting for its new parent to reap it is gone. */
const alive = (pid: number): boolean => {
  const state = procStat(pid)?.state
  return state !== undefined && state !== 'Z'
}

interface Signalled {
  run: ActionRun
  /** From the signal to the close of the process's output, in ms. */
  afterSignalMs: number
  /** How many times slower than idle the machine ran meanwhile. */
  stretch: number
}

/**
 * Runs `entry` as the runner does and sends `signal` once `ready(stdout)` holds (checked on each output and every
 * 50 ms), then `afterMs` later. A run that does not end is killed after 20 s, so that the test fails, not hangs.
 */
async function signalled(
  options: Omit<Parameters<typeof runAction>[0], 'onStart'>,
  signal: Signal,
  ready: (stdout: string) => boolean,
  afterMs = 100
): Promise<Signalled> {
  let signalledAt = 0
  let seen = ''
  const onStart = (child: ChildProcess): void => {
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000)
    const look = (): void => {
      if (signalledAt !== 0 || !ready(seen)) return
      signalledAt = -1
      setTimeout(() => {
        signalledAt = performance.now()
        child.kill(signal)
      }, afterMs)
    }
    const poll = setInterval(look, 50)
    child.once('exit', () => {
      clearTimeout(guard)
      clearInterval(poll)
    })
    child.stdout?.on('data', (d: Buffer) => {
      seen += d.toString()
      look()
    })
  }
  const stretch = measureLoad()
  const run = await runAction({ ...options, onStart })
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  expect(signalledAt).toBeGreaterThan(0)
  const afterSignalMs = performance.now() - signalledAt
  measured.push(`${expect.getState().currentTestName}: ${Math.round(afterSignalMs)} ms`)
  return { run, afterSignalMs, stretch: stretch() }
}

/** What every cancelled run of the action ends with, whatever stage the signal came at. */
function expectCancelled({ run, afterSignalMs, stretch }: Signalled, signal: Signal): void {
  expect(afterSignalMs).toBeLessThan(CANCEL_MS * stretch)
  expect(run.code).toBe(1)
  expect(run.outputs).toMatchObject({ ready: 'false', reason: 'cancelled' })
  expect(run.summary).toMatch(/❌ not ready \(cancelled\)/)
  const [error] = errors(run.stdout)
  expect(error).toMatch(/^::error title=Model server not ready \(cancelled\)::/)
  expect(error).toContain(`the job was cancelled (${signal})`)
}

const json = (res: ServerResponse, body: unknown): void =>
  void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))

/** Lists the model; every generation stream opens and sends only keep-alive comments, for ever. */
async function stuckStream(): Promise<string> {
  const url = await net.http((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') return json(res, { data: [{ id: 'kimi' }] })
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const timer = setInterval(() => res.write(': keep-alive\n\n'), 50)
    res.on('close', () => clearInterval(timer))
  })
  return `${url}/v1/models`
}

const notReady = async (): Promise<string> =>
  `${await net.http((_req, res) => void res.writeHead(503).end('Loading model'))}/v1/models`

const base = { model: 'kimi', interval: '200ms', 'history-file': '' }

/**
 * How long the fake nvidia-smi takes to answer each query: past the pre-flight's own 5 s limit, so that only the
 * cancel can end the call as soon as the bound says.
 */
const HANG_MS = 30_000

/** A second process holding the history's lock as the store takes it (`<file>.lock`, created exclusively), kept fresh. */
async function lockHolder(file: string): Promise<ChildProcess> {
  const script =
    "const fs = require('node:fs'); const lock = process.argv[1] + '.lock'; fs.closeSync(fs.openSync(lock, 'wx'));" +
    "setInterval(() => fs.utimesSync(lock, new Date(), new Date()), 1000); console.log('held')"
  const holder = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve, reject) => {
    holder.stdout?.once('data', () => resolve())
    holder.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)))
  })
  return holder
}

describe.each(SIGNALS)('%s', (signal) => {
  it('while the pre-flight looks (nvidia-smi slow): cancelled at once, its call ended, nothing started', async () => {
    const gpu = box.path(`gpu-${signal}.json`)
    writeFileSync(gpu, JSON.stringify({ gpus: [], apps: [], hangMs: HANG_MS }))
    const marker = box.path(`started-${signal}`)
    const port = await freePort()
    const result = await signalled(
      {
        entry,
        inputs: {
          ...base,
          url: `http://127.0.0.1:${port}/v1/models`,
          start: `touch ${marker}; exec node ${fakeServer} ${port} loads 100`,
          'gpu-check': 'warn',
          timeout: '30s'
        },
        env: { PATH: `${fakeGpuDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: gpu }
      },
      signal,
      () => existsSync(`${gpu}.calls`)
    )
    // the cancel ends the hanging call (its 5 s limit would be past the bound): the snapshot's second query is never
    // run, the server never started
    expectCancelled(result, signal)
    expect(readFileSync(`${gpu}.calls`, 'utf8').trim().split('\n')).toHaveLength(1)
    expect(errors(result.run.stdout)[0]).toContain('before the wait began (nothing was started)')
    expect(result.run.outputs.pid).toBe('')
    expect(existsSync(marker)).toBe(false)
  })

  it('while the history waits for a lock another process holds: cancelled at once, the run not recorded', async () => {
    const history = box.path(`history-${signal}.jsonl`)
    const holder = await lockHolder(history)
    let answered = false
    const url = await net.http((_req, res) => {
      res.on('finish', () => (answered = true))
      json(res, { data: [{ id: 'kimi' }] })
    })
    try {
      // the lock wait begins as soon as the ready answer is in; it lasts up to 2 s without a cancel
      const result = await signalled(
        { entry, inputs: { ...base, url: `${url}/v1/models`, timeout: '30s', 'history-file': history } },
        signal,
        () => answered,
        300
      )
      expectCancelled(result, signal)
      expect(readFileSync(history, 'utf8')).toBe('')
    } finally {
      holder.kill('SIGKILL')
    }
  })

  it('while the server started by "start" is launching', async () => {
    const port = await freePort()
    const result = await signalled(
      {
        entry,
        inputs: {
          ...base,
          url: `http://127.0.0.1:${port}/v1/models`,
          start: `exec node ${fakeServer} ${port} hang 0`,
          'log-file': box.path(`server-${signal}.log`),
          timeout: '60s'
        }
      },
      signal,
      (out) => out.includes('Waiting up to')
    )
    expectCancelled(result, signal)
    // the main step leaves the server to the job-end step
    expect(alive(Number(result.run.outputs.pid))).toBe(true)
    expect(String(savedServers(result.run.state)[0].pid)).toBe(result.run.outputs.pid)
  })

  it('during the wait', async () => {
    const result = await signalled(
      { entry, inputs: { ...base, url: await notReady(), timeout: '60s', diagnostics: 'echo never-run' } },
      signal,
      (out) => out.includes('Waiting up to'),
      300
    )
    expectCancelled(result, signal)
    expect(result.run.stdout).not.toContain('never-run')
  })

  it.each(['fail-on-error', 'true'])(
    'during the smoke test (smoke-test: %s): cancelled, not smoke-failed nor ready',
    async (smoke) => {
      const result = await signalled(
        {
          entry,
          inputs: { ...base, url: await stuckStream(), timeout: '30s', 'smoke-test': smoke }
        },
        signal,
        (out) => out.includes('Smoke test: '),
        300
      )
      expectCancelled(result, signal)
      expect(errors(result.run.stdout)[0]).toContain(`the job was cancelled (${signal}) during the smoke test`)
      expect(result.run.stdout).not.toMatch(/::warning title=Smoke test/)
    }
  )

  it('while the diagnostics run: the command and its children killed, no further one, cancelled', async () => {
    const pidFile = box.path(`diagnostic-${signal}.pid`)
    const result = await signalled(
      {
        entry,
        inputs: {
          ...base,
          url: await notReady(),
          timeout: '1s',
          diagnostics: `sleep 30 & echo $! > ${pidFile}; wait\necho second-diagnostic`
        }
      },
      signal,
      (out) => out.includes('::group::Diagnostics') && existsSync(pidFile),
      200
    )
    expectCancelled(result, signal)
    expect(errors(result.run.stdout)[0]).toContain(`the job was cancelled (${signal}) while the diagnostics ran`)
    expect(result.run.stdout).toContain('(stopped: the job was cancelled)')
    expect(result.run.stdout).not.toContain('second-diagnostic')
    expect(alive(Number(readFileSync(pidFile, 'utf8')))).toBe(false)
  })

  it('during the job-end step: the server that ignores SIGTERM is killed at once, the summary says so, the job does not fail', async () => {
    const port = await freePort()
    const log = box.path(`job-end-${signal}.log`)
    const main = await runAction({
      entry,
      inputs: {
        ...base,
        url: `http://127.0.0.1:${port}/v1/models`,
        // the shell ignores SIGTERM, and so does a worker (saying so in the log): only SIGKILL ends them
        start: `trap '' TERM; node -e 'process.on("SIGTERM", () => console.log("worker ignores SIGTERM")); setInterval(() => {}, 1000)' & node ${fakeServer} ${port} loads 100`,
        'log-file': log,
        timeout: '30s'
      }
    })
    const pid = Number(main.outputs.pid)
    box.pids.push(pid)
    expect(main.outputs.ready).toBe('true')
    const env: Record<string, string> = {}
    for (const [name, value] of Object.entries(main.state)) env[`STATE_${name}`] = value
    // the post step says nothing before the stop is done: it is signalled once its SIGTERM reached the worker (by
    // the worker's line in the log), however late a busy machine started it
    const termed = (): boolean => readFileSync(log, 'utf8').includes('worker ignores SIGTERM')
    const result = await signalled({ entry: post, inputs: {}, env }, signal, termed, 100)
    expect(result.afterSignalMs).toBeLessThan((CANCEL_MS + 1_000) * result.stretch)
    expect(result.run.code).toBe(0)
    expect(result.run.stdout).toMatch(/SIGTERM, then SIGKILL at once \(the stop was cancelled\)/)
    expect(result.run.stdout).toContain(`::warning::The job-end step was cancelled (${signal})`)
    expect(result.run.summary).toContain(`| Cancelled | The job-end step was cancelled (${signal})`)
    expect(result.run.summary).toContain('| Last signal sent | SIGKILL |')
    expect(alive(pid)).toBe(false)
  })
})

/** The CLI, signalled once its stderr says `when`: its exit code, its stdout (--json) and its summary file. */
async function signalledCli(url: string, signal: Signal, when: string, summary: string) {
  const args = [cli, '--url', url, '--model', 'kimi', '--timeout', '30s', '--smoke-test', 'fail-on-error']
  args.push('--history-file', '', '--json', '--summary-file', summary)
  const stretch = measureLoad()
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: box.dir() },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000)
  let stdout = ''
  let stderr = ''
  let signalledAt = 0
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
    if (signalledAt !== 0 || !stderr.includes(when)) return
    signalledAt = -1
    setTimeout(() => {
      signalledAt = performance.now()
      child.kill(signal)
    }, 300)
  })
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearTimeout(guard)
  expect(signalledAt).toBeGreaterThan(0)
  const afterSignalMs = performance.now() - signalledAt
  measured.push(`CLI ${signal} at "${when}": ${Math.round(afterSignalMs)} ms`)
  return { code, stdout, stderr, afterSignalMs, stretch: stretch() }
}

describe('the CLI', () => {
  it.each(SIGNALS)(
    '%s during the wait and during the smoke test: reason cancelled in --json and the summary file, exit 1',
    async (signal) => {
      for (const [url, when] of [
        [await notReady(), 'Waiting up to'],
        [await stuckStream(), 'Smoke test: ']
      ]) {
        const summary = box.path(`cli-summary-${signal}.md`)
        const r = await signalledCli(url, signal, when, summary)
        expect(r.afterSignalMs).toBeLessThan(CANCEL_MS * r.stretch)
        expect(r.code).toBe(1)
        expect(JSON.parse(r.stdout)).toMatchObject({ ready: false, reason: 'cancelled' })
        expect(r.stderr).toContain(`the job was cancelled (${signal})`)
        expect(readFileSync(summary, 'utf8')).toMatch(/❌ not ready \(cancelled\)/)
      }
    }
  )
})
