import { type ChildProcess, spawn } from 'node:child_process'
import { measureLoad } from '../helpers/bounds.js'
import { loopback, ownPath } from '../helpers/loopback.js'

/**
 * A cancel is a cancel for the CLI's other commands too (issue 26, item 7), through dist/cli.js: `check` and
 * `stop --pid` listen to SIGTERM, SIGINT and SIGHUP as `wait` does (runtime/halter.ts) instead of dying
 * at once (Node's default). Each signal is sent on an event (the request arrived, the server got its SIGTERM);
 * the bound from the signal to the end of the command is the one signals.e2e.test.ts uses, times the load measured
 * during the run (helpers/bounds.ts).
 */
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const
/** From the signal to the end of the process, with a loaded 2-core machine's slack for Node's exit. */
const CANCEL_MS = 1_000 + 700

const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const net = loopback()
const measured: string[] = []
afterAll(async () => {
  console.log(`measured:\n${measured.join('\n')}`)
  await net.close()
})

interface Ended {
  code: number | null
  signal: NodeJS.Signals | null
  out: string
  afterSignalMs: number
  /** How many times slower than idle the machine ran meanwhile. */
  stretch: number
}

/** Runs the CLI with `args`; `send` signals it and starts the clock; killed after 20 s so that a hang fails. */
function cliRun(args: string[]): { child: ChildProcess; send(signal: NodeJS.Signals): void; ended: Promise<Ended> } {
  const stretch = measureLoad()
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()))
  let signalledAt = 0
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000)
  const ended = new Promise<Ended>((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(guard)
      const afterSignalMs = performance.now() - signalledAt
      measured.push(`${expect.getState().currentTestName}: ${Math.round(afterSignalMs)} ms`)
      resolve({ code, signal, out, afterSignalMs, stretch: stretch() })
    })
  )
  const send = (signal: NodeJS.Signals): void => {
    signalledAt = performance.now()
    child.kill(signal)
  }
  return { child, send, ended }
}

describe.each(SIGNALS)('%s', (signal) => {
  it('ends `check` while its probe waits for an answer: one line, not ready (cancelled), exit 1', async () => {
    const own = ownPath()
    const started: { run?: ReturnType<typeof cliRun> } = {}
    // the server never answers: without the cancel, the probe would wait its 60 s timeout
    const url = await net.http((req) => {
      if (req.url?.startsWith(own)) started.run?.send(signal)
    })
    const run = cliRun(['check', '--url', `${url}${own}/v1/models`, '--timeout', '60s'])
    started.run = run
    const ended = await run.ended
    expect(ended.afterSignalMs).toBeLessThan(CANCEL_MS * ended.stretch)
    expect(ended.signal).toBeNull()
    expect(ended.code).toBe(1)
    expect(ended.out).toMatch(/^not ready \(cancelled\) after [^\n]+\n$/)
  })

  it('ends `stop --pid` waiting for a server that ignores SIGTERM: SIGKILL at once, said, the server gone', async () => {
    // a server of ours, leading its own process group, that says when SIGTERM comes and ignores it
    const server = spawn(
      process.execPath,
      ['-e', "process.on('SIGTERM', () => console.log('TERM')); console.log('up'); setInterval(() => {}, 1000)"],
      { detached: true, stdio: ['ignore', 'pipe', 'ignore'] }
    )
    const serverEnd = new Promise<NodeJS.Signals | null>((resolve) => server.once('exit', (_c, s) => resolve(s)))
    try {
      await new Promise<void>((resolve) => server.stdout?.once('data', () => resolve()))
      const run = cliRun(['stop', '--pid', String(server.pid), '--timeout', '60s'])
      server.stdout?.on('data', (d: Buffer) => {
        if (d.toString().includes('TERM')) run.send(signal)
      })
      const ended = await run.ended
      expect(ended.afterSignalMs).toBeLessThan(CANCEL_MS * ended.stretch)
      expect(ended.signal).toBeNull()
      expect(ended.out).toContain('SIGKILL at once (the stop was cancelled)')
      expect(await serverEnd).toBe('SIGKILL')
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL')
    }
  })
})
