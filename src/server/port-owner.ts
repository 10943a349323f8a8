/**
 * Who listens on a local TCP port, from Linux's /proc: the listening sockets of /proc/net/tcp and tcp6, each
 * socket's inode among the processes' file descriptors, and each holder's command line. /proc/net/tcp is this
 * network namespace's: a server in a container with its own (docker -p) shows as the proxy that forwards the port.
 */
import { descendantsOf } from './guard.js'
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { commandLine, procPids } from './proc.js'
import { bareHost, isLoopback } from '../http/hosts.js'

interface ProcessInfo {
  pid: number
  command: string
}

export interface Listener {
  /** `0.0.0.0`, `127.0.0.1`, `::`, `::ffff:127.0.0.1`, … */
  address: string
  port: number
  inode: number
  /** The processes holding the socket (several after a fork); empty when none is visible to this user. */
  holders: ProcessInfo[]
}

export type PortOwner =
  | { kind: 'free'; port: number }
  | { kind: 'listening'; port: number; listeners: Listener[] }
  /** No /proc/net/tcp to read (not Linux, or /proc not mounted). */
  | { kind: 'unknown'; port: number }

const LISTEN = '0A'

/** Who listens on `port` (any local address, IPv4 and IPv6); `proc`: where procfs is mounted. */
export function portOwner(port: number, { proc = '/proc' }: { proc?: string } = {}): PortOwner {
  const sockets = listeningSockets(proc, port)
  if (sockets === undefined) return { kind: 'unknown', port }
  if (sockets.length === 0) return { kind: 'free', port }
  const holders = socketHolders(proc, new Set(sockets.map((s) => s.inode)))
  return {
    kind: 'listening',
    port,
    listeners: sockets.map((s) => ({ ...s, holders: holders.get(s.inode) ?? [] }))
  }
}

export type Ownership =
  /** `pid` or one of its descendants (`holder`) holds a socket listening on the port. */
  | { kind: 'ours'; port: number; holder: ProcessInfo }
  /** Only other processes listen there (a holder this user cannot see leaves `holders` empty). */
  | { kind: 'foreign'; port: number; listeners: Listener[] }
  | { kind: 'free'; port: number }
  | { kind: 'unknown'; port: number }

/** Whether what listens on `port` belongs to `pid` or its descendants (a `start` shell's child, forked workers). */
export function listenerOwnership(port: number, pid: number, { proc = '/proc' }: { proc?: string } = {}): Ownership {
  const owner = portOwner(port, { proc })
  if (owner.kind !== 'listening') return owner
  const family = processTree(proc, pid)
  for (const l of owner.listeners) {
    const holder = l.holders.find((h) => family.has(h.pid))
    if (holder !== undefined) return { kind: 'ours', port, holder }
  }
  return { kind: 'foreign', port, listeners: owner.listeners }
}

/** `pid` and every process descended from it, from the parent ids of /proc/<pid>/stat. */
export const processTree = (proc: string, pid: number): Set<number> => descendantsOf([pid], proc)

/** The listening sockets on `port`; undefined when neither table can be read. */
function listeningSockets(proc: string, port: number): Array<Omit<Listener, 'holders'>> | undefined {
  let read = false
  const found: Array<Omit<Listener, 'holders'>> = []
  for (const table of ['tcp', 'tcp6']) {
    let text: string
    try {
      text = readFileSync(`${proc}/net/${table}`, 'utf8')
      read = true
    } catch {
      continue // tcp6 is absent on a kernel without IPv6
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
      const f = line.trim().split(/\s+/)
      if (f.length < 10 || f[3] !== LISTEN) continue
      const [hexAddress, hexPort] = f[1].split(':')
      if (parseInt(hexPort, 16) !== port) continue
      found.push({ address: decodeAddress(hexAddress), port, inode: Number(f[9]) })
    }
  }
  return read ? found : undefined
}

/** The kernel prints each 32-bit word of the address in host order (little-endian on the runners' x86 and arm64). */
function decodeAddress(hex: string): string {
  const words = hex.match(/.{8}/g) ?? []
  const bytes = words.flatMap((w) => (w.match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)))
  if (bytes.length === 4) return bytes.join('.')
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] << 8) | bytes[2 * i + 1]).toString(16))
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') return `::ffff:${bytes.slice(12).join('.')}`
  // the shortest form for the common cases (:: and ::1); other addresses in full
  const text = groups.join(':')
  return text === '0:0:0:0:0:0:0:0' ? '::' : text === '0:0:0:0:0:0:0:1' ? '::1' : text
}

/** The processes holding each of `inodes` among their file descriptors (those this user may read). */
function socketHolders(proc: string, inodes: ReadonlySet<number>): Map<number, ProcessInfo[]> {
  const holders = new Map<number, ProcessInfo[]>()
  for (const pid of procPids(proc)) {
    let fds: string[]
    try {
      fds = readdirSync(`${proc}/${pid}/fd`)
    } catch {
      continue // another user's process, or gone
    }
    const held = new Set<number>()
    for (const fd of fds) {
      let target: string
      try {
        target = readlinkSync(`${proc}/${pid}/fd/${fd}`)
      } catch {
        continue
      }
      const m = /^socket:\[(\d+)\]$/.exec(target)
      if (m && inodes.has(Number(m[1]))) held.add(Number(m[1]))
    }
    if (held.size === 0) continue
    const info = { pid, command: commandLine(pid, proc) }
    for (const inode of held) holders.set(inode, [...(holders.get(inode) ?? []), info])
  }
  return holders
}

/**
 * The port to check when `url` names this machine (loopback, `localhost`, this host's name or one of its
 * addresses), else undefined: a server elsewhere is probed as it is, its port is none of this machine's business.
 */
export function localPort(url: URL, hostName = process.getBuiltinModule('node:os').hostname()): number | undefined {
  const host = bareHost(url.hostname)
  const os = process.getBuiltinModule('node:os')
  const addresses = Object.values(os.networkInterfaces()).flatMap((list) =>
    (list ?? []).map((a) => a.address.toLowerCase())
  )
  const local =
    isLoopback(url.hostname) ||
    host.endsWith('.localhost') ||
    host === hostName.toLowerCase() ||
    addresses.includes(host)
  if (!local) return undefined
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port)
}

/** Docker's userland proxy, which holds a container's published port on the host (`docker run -p`). */
export const isDockerProxy = (command: string): boolean => /(^|\/)docker-proxy(\s|$)/.test(command)
