import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { remotePortScript } from '../../../src/server/remote-port.js'
import { procStat } from '../../../src/server/proc.js'

/**
 * The remote port watch's loop, run here by this machine's POSIX shell (what ssh runs there): it says `0` while
 * nothing listens on the port, `1` once something does, then ends; it ends too once its parent has gone.
 */
const dir = mkdtempSync(join(tmpdir(), 'wfm-remote-port-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const listen = (host: string, port = 0): Promise<Server> =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(port, host, () => resolve(s))
  })
const freePort = async (): Promise<number> => {
  const s = await listen('127.0.0.1')
  const { port } = s.address() as { port: number }
  await new Promise((r) => s.close(r))
  return port
}

/** Runs the loop; resolves with its lines and the ms from `listenAfterMs` (when a listener comes) to its `1`. */
function runLoop(script: string, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'], env })
  const lines: Array<{ line: string; at: number }> = []
  let rest = ''
  child.stdout.on('data', (d: Buffer) => {
    const parts = (rest + d.toString()).split('\n')
    rest = parts.pop() ?? ''
    for (const line of parts) lines.push({ line, at: Date.now() })
  })
  const ended = new Promise<number | null>((resolve) => child.once('close', resolve))
  return { child, lines, ended }
}

const until = async (check: () => boolean, ms: number): Promise<void> => {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10))
}

describe("a remote port's watch (the loop run there)", () => {
  it('says 0 while the port is closed, 1 within a round once it listens on loopback, then ends', async () => {
    const port = await freePort()
    const loop = runLoop(remotePortScript('127.0.0.1', port))
    await until(() => loop.lines.length > 0, 5_000)
    expect(loop.lines.map((l) => l.line)).toEqual(['0'])
    await new Promise((r) => setTimeout(r, 300))
    const server = await listen('127.0.0.1', port)
    const openedAt = Date.now()
    try {
      expect(await loop.ended).toBe(0)
      expect(loop.lines.map((l) => l.line)).toEqual(['0', '1'])
      // a round is a quarter of a second at most; a busy machine stretches it
      expect(loop.lines[1].at - openedAt).toBeLessThan(2_000)
    } finally {
      server.close()
    }
  })

  it('a listener on every address counts; one on the port of another address than loopback does not', async () => {
    const port = await freePort()
    const any = await listen('0.0.0.0', port)
    const seen = runLoop(remotePortScript('127.0.0.1', port))
    expect(await seen.ended).toBe(0)
    expect(seen.lines.map((l) => l.line)).toEqual(['1'])
    any.close()
    // ::1 asked, only 127.0.0.1 listening: closed there
    const v4 = await listen('127.0.0.1', port)
    const other = runLoop(remotePortScript('::1', port))
    await until(() => other.lines.length > 0, 5_000)
    expect(other.lines.map((l) => l.line)).toEqual(['0'])
    other.child.kill()
    v4.close()
  })

  it('where sleep takes no fractions, sleeps a second a round and still sees the port open', async () => {
    const bin = join(dir, 'bin')
    const { mkdirSync } = await import('node:fs')
    mkdirSync(bin, { recursive: true })
    // a sleep of whole seconds only, as a strict POSIX one
    writeFileSync(
      join(bin, 'sleep'),
      '#!/bin/sh\ncase "$1" in *.*) echo "sleep: invalid time" >&2; exit 1;; esac\nexec /bin/sleep "$1"\n'
    )
    chmodSync(join(bin, 'sleep'), 0o755)
    const port = await freePort()
    const loop = runLoop(remotePortScript('127.0.0.1', port), { ...process.env, PATH: `${bin}:${process.env.PATH}` })
    await until(() => loop.lines.length > 0, 5_000)
    const server = await listen('127.0.0.1', port)
    try {
      expect(await loop.ended).toBe(0)
      expect(loop.lines.map((l) => l.line)).toEqual(['0', '1'])
    } finally {
      server.close()
    }
  })

  it('ends by itself once its parent (the connection there) has gone, the port still closed', async () => {
    const port = await freePort()
    const pidFile = join(dir, 'loop.pid')
    // the parent runs the loop in the background, says its pid, and exits after a moment
    const parent = spawn('sh', ['-c', `sh -c "$LOOP" > /dev/null & echo $! > ${pidFile}; sleep 0.5`], {
      env: { ...process.env, LOOP: remotePortScript('127.0.0.1', port) },
      stdio: 'ignore'
    })
    await new Promise((r) => parent.once('close', r))
    const pid = Number(readFileSync(pidFile, 'utf8'))
    expect(pid).toBeGreaterThan(0)
    const gone = (): boolean => {
      const state = procStat(pid)?.state
      return state === undefined || state === 'Z'
    }
    await until(gone, 5_000)
    expect(gone()).toBe(true)
  })
})

describe("a remote port's watch: its cost", () => {
  it('rounds that cost more than 5% of a core are spaced further than a quarter of a second', async () => {
    const bin = join(dir, 'costly')
    const { mkdirSync } = await import('node:fs')
    mkdirSync(bin, { recursive: true })
    const asked = join(dir, 'asked')
    writeFileSync(asked, '')
    // a sleep that costs CPU time first (its time counts as the loop's, as a costly round's would)
    writeFileSync(
      join(bin, 'sleep'),
      `#!/bin/sh\necho "$1" >> ${asked}\ni=0\nwhile [ $i -lt 30000 ]; do i=$((i + 1)); done\nexec /bin/sleep "$1"\n`
    )
    chmodSync(join(bin, 'sleep'), 0o755)
    const port = await freePort()
    const loop = runLoop(remotePortScript('127.0.0.1', port), { ...process.env, PATH: `${bin}:${process.env.PATH}` })
    const gaps = (): number[] =>
      readFileSync(asked, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map(Number)
    await until(() => gaps().some((g) => g > 0.25), 15_000)
    loop.child.kill()
    expect(Math.max(...gaps())).toBeGreaterThan(0.25)
  })
})
