/**
 * Sees a closed port open, cheaply, so that the HTTP probe goes out the moment a server starts listening
 * instead of up to an `interval` later. Watching a closed port costs the server nothing: a bare TCP connect
 * is refused by the kernel before any server code runs. One poller, made by the gate, serves every URL of a
 * fleet and keeps its own cost near a fixed share of one core by spacing its rounds by what the last round cost.
 */
import { readFile } from 'node:fs'
import { connect } from 'node:net'
import { bareHost, createLookup, isLoopback, type Lookup, loopbackAddresses } from './hosts.js'

export interface PortWatch {
  /** Resolves once something listens on the URL's port (or when `signal` aborts). */
  opened(signal: AbortSignal): Promise<void>
  /**
   * The host is this machine's loopback: the watch sees exactly what a connection would, so HTTP probes of a
   * closed port tell nothing more and can be spaced out.
   */
  local: boolean
}

const MIN_ROUND_MS = 100
const MAX_ROUND_MS = 400
/** The share of one core the poller may spend. */
const CPU_BUDGET = 0.02
/**
 * With this many loopback ports, one read of /proc/net/tcp{,6} replaces one connect per port. Not for fewer:
 * the kernel walks its whole socket hash table for that read, which takes milliseconds on large hosts and
 * in some VMs (about 10 ms on the machine where BENCHMARKS.md was measured), while a refused loopback connect
 * costs about 0.1 ms.
 */
export const PROC_MIN_PORTS = 24
const PROC_TABLES = ['/proc/net/tcp', '/proc/net/tcp6']

/** Ports in LISTEN state on a loopback or wildcard address, from the text of /proc/net/tcp or tcp6. */
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

/** One bare TCP connect: true when accepted, false when refused or not answered within `ms`. */
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
  /** Where to connect, and in which rounds: a name is looked up once, so that rounds make no DNS queries. */
  targets: Promise<Array<{ address: string; everyRounds: number }>>
  port: number
  loopback: boolean
  resolve(): void
}

/**
 * `localhost` is loopback on both families whatever /etc/hosts says (as the probe treats it): 127.0.0.1 is
 * tried every round, ::1, where fewer servers listen alone, every fourth, which keeps a round to one connect.
 * Other names are looked up as the probe looks them up (a resolver that never answers cannot hold the process).
 */
function connectTargets(host: string, lookup: Lookup): Watcher['targets'] {
  return new Promise((resolve) =>
    lookup(host, { all: true }, (err, found) => {
      if (err !== null || typeof found === 'string') return resolve([{ address: host, everyRounds: 1 }])
      const bothFamilies = loopbackAddresses(host) !== undefined
      resolve(found.map((a) => ({ address: a.address, everyRounds: bothFamilies && a.family === 6 ? 4 : 1 })))
    })
  )
}

/** Polls every watched port in rounds; runs only while someone watches. */
export class PortPoller {
  private watchers = new Set<Watcher>()
  private timer: NodeJS.Timeout | undefined
  private procReadable: boolean | undefined
  private readonly lookup = createLookup()

  constructor(private readonly budget = CPU_BUDGET) {}

  /** The watch of one URL's port, for the wait loop. */
  watchFor(url: URL): PortWatch {
    return { opened: (signal) => this.watch(url, signal), local: isLoopback(url.hostname) }
  }

  /** Ends every watch (each resolves) and the rounds. */
  close(): void {
    for (const watcher of [...this.watchers]) watcher.resolve()
    this.idle()
  }

  watch(url: URL, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve()
      const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80)
      const targets = connectTargets(bareHost(url.hostname), this.lookup)
      const watcher: Watcher = { targets, port, loopback: isLoopback(url.hostname), resolve: () => undefined }
      watcher.resolve = (): void => {
        this.watchers.delete(watcher)
        signal.removeEventListener('abort', watcher.resolve)
        if (this.watchers.size === 0) this.idle()
        resolve()
      }
      signal.addEventListener('abort', watcher.resolve, { once: true })
      this.watchers.add(watcher)
      this.timer ??= setTimeout(() => void this.round(), MIN_ROUND_MS)
    })
  }

  private idle(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }

  private rounds = 0

  private async round(): Promise<void> {
    const round = this.rounds++
    // CPU time rather than wall time: on a busy machine a round waits longer without costing more
    const started = process.cpuUsage()
    const watchers = [...this.watchers]
    const loopback = watchers.filter((w) => w.loopback)
    let open: Set<number> | undefined
    if (loopback.length >= PROC_MIN_PORTS) open = await this.readProc()
    await Promise.all(
      watchers.map(async (w) => {
        const listening =
          open && w.loopback
            ? open.has(w.port)
            : (
                await Promise.all(
                  (await w.targets)
                    .filter((t) => round % t.everyRounds === 0)
                    .map((t) => tcpConnects(t.address, w.port, MAX_ROUND_MS))
                )
              ).includes(true)
        if (listening) w.resolve()
      })
    )
    const used = process.cpuUsage(started)
    const cost = (used.user + used.system) / 1000
    if (this.watchers.size === 0) return
    const next = Math.min(MAX_ROUND_MS, Math.max(MIN_ROUND_MS, cost / this.budget))
    this.timer = setTimeout(() => void this.round(), next)
  }

  private async readProc(): Promise<Set<number> | undefined> {
    // node:fs's callback form: node:fs/promises would be one more module to load before the first probe
    if (this.procReadable === false) return undefined
    const tables = await Promise.all(PROC_TABLES.map((f) => readText(f)))
    this.procReadable = tables[0].startsWith('  sl')
    return this.procReadable ? listeningLoopbackPorts(tables.join('\n')) : undefined
  }
}

/** A file's text, or '' when it cannot be read. */
const readText = (file: string): Promise<string> =>
  new Promise((resolve) => readFile(file, 'latin1', (e, text) => resolve(e ? '' : text)))
