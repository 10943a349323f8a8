import {
  listeningLoopbackPorts,
  MAX_ROUND_MS,
  MIN_ROUND_MS,
  PortPoller,
  PROC_MIN_PORTS,
  readListening,
  roundGapMs,
  tcpConnects
} from '../../../src/http/port-watch.js'
import { writeFileSync } from 'node:fs'
import type { Clock } from '../../../src/runtime/clock.js'
import { freePort } from '../../../src/simulator/server.js'
import { Loopback, loopback } from '../../helpers/loopback.js'
import { sandbox } from '../../helpers/sandbox.js'

const net = loopback()

describe('listeningLoopbackPorts', () => {
  it('reads LISTEN sockets on loopback and wildcard addresses from /proc/net/tcp and tcp6', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 633 1',
      '   1: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 634 1',
      '   2: 0100007F:1F92 0100007F:9C2D 01 00000000:00000000 00:00000000 00000000     0        0 0 3',
      '   3: 0500000A:1F93 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 635 1',
      '   4: 00000000000000000000000001000000:1F94 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 636 1',
      '   5: 00000000000000000000000000000000:1F95 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 637 1',
      '   6: 0000000000000000FFFF00000100007F:1F96 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 638 1'
    ].join('\n')
    // 8082 is an established connection and 8083 listens on 10.0.0.5 only: neither counts
    expect([...listeningLoopbackPorts(table)].sort()).toEqual([8080, 8081, 8084, 8085, 8086])
  })
})

describe('readListening', () => {
  const box = sandbox('proc-')
  const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n'
  const line = (i: number, state: string): string =>
    `${String(i).padStart(4)}: 0100007F:${(8000 + i).toString(16).toUpperCase()} 00000000:0000 ${state} 00000000:00000000 00:00000000 00000000     0        0 ${600 + i} 1\n`
  const table = (states: string[]): string => header + states.map((state, i) => line(i, state)).join('')

  it('stops at the first line that is not LISTEN: the kernel prints listening sockets first', async () => {
    // 160 KB: past the first 64 KiB read, lines no read needs (LISTEN lines there would be read if reading went on)
    const file = box.path('tcp')
    writeFileSync(file, table([...Array<string>(10).fill('0A'), '01', ...Array<string>(1_600).fill('0A')]))
    const ports = listeningLoopbackPorts(await readListening(file))
    expect(ports.size).toBeLessThan(1_000)
    expect([...ports]).toEqual(expect.arrayContaining([8000, 8009]))
  })

  it('reads a table of listening sockets only to its end, over several reads', async () => {
    const file = box.path('tcp')
    writeFileSync(file, table(Array<string>(1_600).fill('0A')))
    expect(listeningLoopbackPorts(await readListening(file)).size).toBe(1_600)
  })

  it("reads the machine's own tables, and gives an empty text for one that cannot be read", async () => {
    expect(await readListening('/proc/net/tcp')).toMatch(/^\s+sl\s+local_address/)
    expect(await readListening('/nonexistent/tcp')).toBe('')
  })
})

describe('a port watch on a real port', () => {
  it.each(['127.0.0.1', 'localhost'])('resolves once something listens on %s', async (host) => {
    const port = await freePort()
    let listeningAt = 0
    const opened = new PortPoller()
      .watchFor(new URL(`http://${host}:${port}/v1/models`))!
      .opened(new AbortController().signal)
      .then(() => performance.now())
    setTimeout(() => void net.tcp(undefined, '127.0.0.1', port).then(() => (listeningAt = performance.now())), 150)
    const openedAt = await opened
    expect(listeningAt).toBeGreaterThan(0)
    expect(openedAt).toBeGreaterThanOrEqual(listeningAt)
  })

  it('sees a server that listens on ::1 only through localhost', async () => {
    const port = await freePort('::1')
    const opened = new PortPoller().watchFor(new URL(`http://localhost:${port}/`))!.opened(new AbortController().signal)
    let listening = false
    setTimeout(() => void net.tcp(undefined, '::1', port).then(() => (listening = true)), 100)
    await opened
    expect(listening).toBe(true)
  })

  it("watches no other host's port: a connection refused there says nothing the probe's own does not", () => {
    const poller = new PortPoller()
    for (const url of ['http://10.0.0.5:8000/', 'http://gpu-box.example:30000/', 'http://[2001:db8::1]:8000/'])
      expect(poller.watchFor(new URL(url))).toBeUndefined()
    for (const url of ['http://0.0.0.0:8000/', 'http://[::1]:8000/', 'http://127.0.0.2:8000/'])
      expect(poller.watchFor(new URL(url))).toBeDefined()
  })

  it('stops watching when aborted, leaving nothing running', async () => {
    const port = await freePort()
    const stop = new AbortController()
    const watching = new PortPoller().watchFor(new URL(`http://127.0.0.1:${port}/`))!.opened(stop.signal)
    stop.abort()
    await expect(watching).resolves.toBeUndefined()
  })
})

describe('tcpConnects', () => {
  it('says whether a bare TCP connect is accepted', async () => {
    const port = await freePort()
    expect(await tcpConnects('127.0.0.1', port, 1_000)).toBe(false)
    await net.tcp(undefined, '127.0.0.1', port)
    expect(await tcpConnects('127.0.0.1', port, 1_000)).toBe(true)
  })
})

describe('PortPoller with many ports', () => {
  it('watches a fleet of loopback ports (through /proc when there are many) and resolves each as it opens', async () => {
    const ports = await Promise.all(Array.from({ length: PROC_MIN_PORTS + 6 }, () => freePort()))
    const poller = new PortPoller()
    const stop = new AbortController()
    const opened: number[] = []
    const watching = ports.map((port) =>
      poller.watch(new URL(`http://127.0.0.1:${port}/`), stop.signal).then(() => opened.push(port))
    )
    const listening = Promise.all(ports.slice(0, 10).map((port) => net.tcp(undefined, '127.0.0.1', port)))
    await Promise.all(watching.slice(0, 10))
    expect(opened.sort()).toEqual(ports.slice(0, 10).sort())
    stop.abort()
    await Promise.all(watching)
    await listening
  })
})

describe('roundGapMs', () => {
  it('keeps 100 ms rounds for a port closed under 10 s, then a hundredth of the closed time, up to 400 ms', () => {
    expect(roundGapMs(0.5, 0.02, 0)).toBe(MIN_ROUND_MS)
    expect(roundGapMs(0.5, 0.02, 9_000)).toBe(MIN_ROUND_MS)
    expect(roundGapMs(0.5, 0.02, 20_000)).toBe(200)
    expect(roundGapMs(0.5, 0.02, 40_000)).toBe(MAX_ROUND_MS)
    expect(roundGapMs(0.5, 0.02, 3_600_000)).toBe(MAX_ROUND_MS)
    expect(roundGapMs(0.5, 0.02, undefined)).toBe(MIN_ROUND_MS)
  })

  it('spaces rounds that cost more so that they keep within the CPU budget, never past 400 ms', () => {
    expect(roundGapMs(5, 0.02, 0)).toBe(250)
    expect(roundGapMs(50, 0.02, 0)).toBe(MAX_ROUND_MS)
  })
})

describe('a port watch closed for long', () => {
  it('spaces its rounds by the time the port has been closed, over every call of one wait, until it opens', async () => {
    const port = await freePort()
    let now = 0
    const gaps: number[] = []
    // the rounds run at once (real connects), on a clock that says how long the port has been closed
    const clock: Clock = {
      now: () => now,
      wallMs: () => now,
      sleep: (ms, signal) => (gaps.push(ms), signal?.aborted ? Promise.resolve() : new Promise((r) => setTimeout(r, 1)))
    }
    // a budget of a whole core: a round's own CPU (more than 1.5 ms on a loaded machine) never sets the pace here
    const poller = new PortPoller(1, clock)
    // closed whatever happens: a failed expectation must not leave rounds running
    try {
      const watch = poller.watchFor(new URL(`http://127.0.0.1:${port}/`))!
      const rounds = async (n: number): Promise<number[]> => {
        gaps.length = 0
        while (gaps.length < n) await new Promise((r) => setTimeout(r, 1))
        return gaps.slice(0, n)
      }
      // a first call that ends unopened (the loop's sleep is over), then the next call 60 s later
      const first = new AbortController()
      const ending = watch.opened(first.signal)
      expect((await rounds(3)).slice(1)).toEqual([MIN_ROUND_MS, MIN_ROUND_MS])
      first.abort()
      await ending
      now = 60_000
      const opened = watch.opened(new AbortController().signal)
      expect((await rounds(3)).slice(1)).toEqual([MAX_ROUND_MS, MAX_ROUND_MS])
      const server = new Loopback()
      await server.tcp(undefined, '127.0.0.1', port)
      await opened
      await server.close()
      // it opened, and closed again: a new closed time begins with the next call
      const again = new AbortController()
      const next = watch.opened(again.signal)
      expect((await rounds(3)).slice(1)).toEqual([MIN_ROUND_MS, MIN_ROUND_MS])
      again.abort()
      await next
    } finally {
      poller.close()
    }
  })
})

describe('PortPoller.close', () => {
  it('ends every watch and its rounds, so that a gate leaves no timer behind', async () => {
    const port = await freePort()
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    const before = timers()
    const poller = new PortPoller()
    const opened = poller.watchFor(new URL(`http://127.0.0.1:${port}/`))!.opened(new AbortController().signal)
    expect(timers()).toBe(before + 1)
    poller.close()
    await opened
    expect(timers()).toBe(before)
  })
})
