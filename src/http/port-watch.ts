/**
 * Sees a closed port on this machine open, so the probe goes out the moment a server listens rather than an
 * `interval` later; a refused connect costs the server nothing. One poller serves every URL, its rounds spaced by
 * `roundGapMs`.
 */
import { close, open, read } from 'node:fs'
import { connect } from 'node:net'
import { type Clock, systemClock } from '../runtime/clock.js'
import { bareHost, isLoopback, loopbackAddresses } from './hosts.js'

/** A port on this machine's loopback (or a remote host's, seen there): it sees what a connection would. */
export interface PortWatch {
  /** The port counts as closed from the first call until one sees it open: the calls of a wait share that time. */
  opened(signal: AbortSignal): Promise<void>
  /** Known closed now: a failed connection counts as refused (through a forward, which accepts whatever is there). */
  closed?(): boolean
}

export const MIN_ROUND_MS = 100
/** A closed port is looked at no less often than the probes of a cheap route go out (`probeGapMs` of the settings). */
export const MAX_ROUND_MS = 250
/** The share of one core the poller may spend: for a fleet read through /proc, this sets the pace. */
const CPU_BUDGET = 0.015
/** Rounds space out with the time a port has been closed: the lag stays a small share of the wait. */
const CLOSED_SHARE = 0.01

/** Long enough for the last round to keep within `budget` of one core, and a share of the newest closed time. */
export function roundGapMs(costMs: number, budget: number, closedForMs: number | undefined): number {
  const growth = closedForMs === undefined ? 0 : closedForMs * CLOSED_SHARE
  return Math.min(MAX_ROUND_MS, Math.max(MIN_ROUND_MS, costMs / budget, growth))
}
/** From this many loopback ports, one read of /proc/net/tcp{,6} (a walk of the kernel's hash table) beats connects. */
export const PROC_MIN_PORTS = 24
const PROC_TABLES = ['/proc/net/tcp', '/proc/net/tcp6']

export function listeningLoopbackPorts(table: string): Set<number> {
  const ports = new Set<number>()
  for (const line of table.split('\n')) {
    const m = /^\s*\d+:\s+([0-9A-F]+):([0-9A-F]{4})\s+[0-9A-F]+:[0-9A-F]+\s+0A\s/i.exec(line)
    if (m && isLoopbackOrAny(m[1].toUpperCase())) ports.add(parseInt(m[2], 16))
  }
  return ports
}

/** The kernel prints addresses as 32-bit words in host (little-endian) order. */
function isLoopbackOrAny(hex: string): boolean {
  if (hex.length === 8) return hex === '00000000' || hex.endsWith('7F')
  return (
    /^0+$/.test(hex) ||
    hex === '00000000000000000000000001000000' || // ::1
    /^0000000000000000FFFF0000[0-9A-F]{6}7F$/.test(hex) // ::ffff:127.x.x.x
  )
}

export function tcpConnects(host: string, port: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: ms })
    const done = (open: boolean) => (): void => {
      socket.destroy()
      resolve(open)
    }
    socket.once('connect', done(true))
    socket.once('error', done(false))
    socket.once('timeout', done(false))
  })
}

interface Watcher {
  /** Where to connect, and in which rounds. */
  targets: Array<{ address: string; everyRounds: number }>
  port: number
  closedSince: number
  resolve(open: boolean): void
}

/** A loopback address as it is; `localhost`: 127.0.0.1 every round, ::1 (where fewer servers listen alone) every fourth. */
function connectTargets(host: string): Watcher['targets'] {
  const both = loopbackAddresses(host)
  if (both === undefined) return [{ address: host, everyRounds: 1 }]
  return both.map((a) => ({ address: a.address, everyRounds: a.family === 6 ? 4 : 1 }))
}

/** Polls every watched port in rounds; runs only while someone watches. */
export class PortPoller {
  private watchers = new Set<Watcher>()
  /** The running chain of rounds; aborted when no one watches. */
  private rounds: AbortController | undefined
  private procReadable: boolean | undefined

  constructor(
    private readonly budget = CPU_BUDGET,
    private readonly clock: Clock = systemClock
  ) {}

  /** Undefined for another host's URL: a connection refused there says nothing the probe's own does not. */
  watchFor(url: URL): PortWatch | undefined {
    if (!isLoopback(url.hostname)) return undefined
    let closedSince: number | undefined
    return {
      opened: async (signal) => {
        closedSince ??= this.clock.now()
        if (await this.watch(url, signal, closedSince)) closedSince = undefined
      }
    }
  }

  /** Ends every watch (each resolves) and the rounds. */
  close(): void {
    for (const watcher of [...this.watchers]) watcher.resolve(false)
    this.idle()
  }

  /**
   * Resolves true once something listens on the port of the URL (a loopback one), false when `signal` aborts or the
   * poller closes.
   */
  watch(url: URL, signal: AbortSignal, closedSince = this.clock.now()): Promise<boolean> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(false)
      const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80)
      const targets = connectTargets(bareHost(url.hostname))
      const watcher: Watcher = { targets, port, closedSince, resolve: () => undefined }
      const aborted = (): void => watcher.resolve(false)
      watcher.resolve = (open): void => {
        this.watchers.delete(watcher)
        signal.removeEventListener('abort', aborted)
        if (this.watchers.size === 0) this.idle()
        resolve(open)
      }
      signal.addEventListener('abort', aborted, { once: true })
      this.watchers.add(watcher)
      if (this.rounds === undefined) this.nextRound(new AbortController(), MIN_ROUND_MS)
    })
  }

  private nextRound(chain: AbortController, ms: number): void {
    this.rounds = chain
    void this.clock.sleep(ms, chain.signal).then(() => (chain.signal.aborted ? undefined : this.round(chain)))
  }

  private idle(): void {
    this.rounds?.abort()
    this.rounds = undefined
  }

  private roundCount = 0

  private async round(chain: AbortController): Promise<void> {
    const round = this.roundCount++
    // CPU time rather than wall time: on a busy machine a round waits longer without costing more
    const started = process.cpuUsage()
    const watchers = [...this.watchers]
    let open: Set<number> | undefined
    if (watchers.length >= PROC_MIN_PORTS) open = await this.readProc()
    await Promise.all(
      watchers.map(async (w) => {
        const listening = open
          ? open.has(w.port)
          : (
              await Promise.all(
                w.targets
                  .filter((t) => round % t.everyRounds === 0)
                  .map((t) => tcpConnects(t.address, w.port, MAX_ROUND_MS))
              )
            ).includes(true)
        if (listening) w.resolve(true)
      })
    )
    const used = process.cpuUsage(started)
    const cost = (used.user + used.system) / 1000
    // no one watches any more, or a new chain began while this round ran
    if (this.watchers.size === 0 || chain !== this.rounds) return
    const closedFor = this.clock.now() - Math.max(...[...this.watchers].map((w) => w.closedSince))
    this.nextRound(chain, roundGapMs(cost, this.budget, closedFor))
  }

  private async readProc(): Promise<Set<number> | undefined> {
    // node:fs's callback form: node:fs/promises would be one more module to load at start-up
    if (this.procReadable === false) return undefined
    const tables = await Promise.all(PROC_TABLES.map((f) => readListening(f)))
    this.procReadable = tables[0].startsWith('  sl')
    return this.procReadable ? listeningLoopbackPorts(tables.join('\n')) : undefined
  }
}

const CHUNK_BYTES = 64 * 1024
/** seq_file hands out at most a page per read (4 KiB or more): a read shorter than this ended the table. */
const SHORT_READ_BYTES = 2048
/** A line of a state other than LISTEN (0A). */
const NOT_LISTENING = /^\s*\d+:\s+[0-9A-F]+:[0-9A-F]+\s+[0-9A-F]+:[0-9A-F]+\s+(?!0A)[0-9A-F]{2}\s/im

/**
 * A /proc/net/tcp{,6} table up to its last listening socket ('' when unreadable): the kernel lists those first,
 * and every read past them walks its whole connection hash, so reading stops at another state or a short read.
 */
export function readListening(file: string): Promise<string> {
  return new Promise((resolve) =>
    open(file, 'r', (err, fd) => {
      if (err !== null) return resolve('')
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES)
      const chunks: string[] = []
      const done = (text: string): void => close(fd, () => resolve(text))
      const next = (): void =>
        read(fd, buffer, 0, CHUNK_BYTES, null, (e, bytes) => {
          if (e !== null) return done('')
          const chunk = buffer.toString('latin1', 0, bytes)
          chunks.push(chunk)
          if (bytes < SHORT_READ_BYTES || NOT_LISTENING.test(chunk)) return done(chunks.join(''))
          next()
        })
      next()
    })
  )
}
