/**
 * The port watch of a server on another host: a forwarded local port always accepts, so whether the remote port
 * listens is read where it is, from that host's /proc/net/tcp{,6}, by a POSIX shell loop over the existing
 * connection, at the local watch's pace. It says once that the port is closed and once that it listens, then ends.
 */
import type { PortWatch } from '../http/port-watch.js'
import { shellQuoted, type SshHost } from './ssh.js'

/** A remote port's watch, as the wait loop uses a local one, and its end. */
export interface RemotePortWatch extends PortWatch {
  /** Ends the watch here; the loop there ends by itself once the connection has gone or the port listens. */
  release(): void
}

/** The local addresses (as /proc/net/tcp{,6} print them) that a connection to `address` on that host reaches. */
function listenedAddresses(address: '127.0.0.1' | '::1'): { v4: string[]; v6: string[] } {
  const any6 = '00000000000000000000000000000000'
  return address === '::1'
    ? { v4: [], v6: ['00000000000000000000000001000000', any6] }
    : { v4: ['0100007F', '00000000'], v6: [any6, '0000000000000000FFFF00000100007F'] }
}

/**
 * The loop there: `0` while nothing listens on the port, `1` once something does (then it ends). Only the listening
 * lines are read (the kernel lists them first); shell builtins only, but for `sleep`. The gap between rounds grows
 * as the local watch's does, a hundredth of the time the port has been closed, from 50 ms (half the local watch's
 * least: the answer still has the connection to cross) to a quarter of a second, and further where rounds cost more
 * than 5% of a core; a `sleep` without fractions sleeps a second.
 * Its parent is the connection's sshd: once that has gone, the loop ends too. No table to read: it says nothing.
 */
export function remotePortScript(address: '127.0.0.1' | '::1', port: number): string {
  const hex = port.toString(16).toUpperCase().padStart(4, '0')
  const { v4, v6 } = listenedAddresses(address)
  const scan = (table: string, addresses: string[]): string =>
    addresses.length === 0
      ? ''
      : `[ $s = 1 ] || { read -r _; while read -r _ a _ st _; do [ "$st" = 0A ] || break; ` +
        `case $a in ${addresses.map((a) => `${a}:${hex}`).join('|')}) s=1; break;; esac; done; } < ${table} 2>/dev/null; `
  return (
    '[ -r /proc/net/tcp ] || exit 0; P0=$PPID; was=; n=0; F=1; sleep 0.01 2>/dev/null || F=; ' +
    'read -r t0 _ < /proc/uptime 2>/dev/null || t0=0.0; t0=${t0%.*}${t0#*.}; ' +
    'while :; do s=0; ' +
    scan('/proc/net/tcp', v4) +
    scan('/proc/net/tcp6', v6) +
    '[ "$s" = "$was" ] || { echo $s; was=$s; }; [ $s = 1 ] && exit 0; ' +
    'read -r l < /proc/$$/stat; l=${l##*) }; set -- $l; [ "$2" = "$P0" ] || exit 0; ' +
    'read -r t _ < /proc/uptime 2>/dev/null || t=0.0; t=${t%.*}${t#*.}; ' +
    'g=$(( (t - t0) / 10 )); [ $g -ge 50 ] || g=50; [ $g -le 250 ] || g=250; ' +
    // its CPU time so far (its own and its sleeps', in ticks of 10 ms): rounds that cost more than 5% of a core
    // are spaced further, up to a second (a host with thousands of listening sockets); a tick early on is not a trend
    'n=$((n + 1)); b=$(( (${12} + ${13} + ${14} + ${15}) * 200 / (n + 4) )); [ $g -ge $b ] || g=$b; [ $g -le 999 ] || g=999; ' +
    'if [ -z "$F" ]; then sleep 1; elif [ $g -lt 100 ]; then sleep 0.0$g; else sleep 0.$g; fi; done'
  )
}

/**
 * Watches `port` on the host's loopback `address`. `closed()` is true only while the loop there has said that
 * nothing listens: a failed connection through the forward then is a refused one. `opened` resolves once it listens,
 * or once the watch has ended without saying so (what it would have said is unknown: the probes go on as before).
 */
export function watchRemotePort(host: SshHost, address: '127.0.0.1' | '::1', port: number): RemotePortWatch {
  let state: 'unknown' | 'closed' | 'listening' | 'ended' = 'unknown'
  const waiting = new Set<() => void>()
  const settle = (next: typeof state): void => {
    if (state === 'ended' || state === next) return
    state = next
    if (next === 'closed') return
    for (const wake of [...waiting]) wake()
  }
  const child = host.spawn(`sh -c ${shellQuoted(remotePortScript(address, port))}`, 'pipe')
  let said = ''
  child.stdout?.on('data', (d: Buffer) => {
    said += d.toString('latin1')
    const lines = said.split('\n')
    // the loop says a digit a line: anything longer (a login shell's words) is not it and is not kept
    said = (lines.pop() ?? '').slice(-8)
    for (const line of lines) settle(line === '1' ? 'listening' : line === '0' ? 'closed' : state)
  })
  // once it listens the loop ends: what follows is known already; any other end leaves the state unknown
  child.once('close', () => settle(state === 'listening' ? 'listening' : 'ended'))
  child.once('error', () => settle('ended'))
  return {
    closed: () => state === 'closed',
    opened: (signal) =>
      new Promise<void>((resolve) => {
        if (state === 'listening' || state === 'ended' || signal.aborted) return resolve()
        const wake = (): void => {
          waiting.delete(wake)
          signal.removeEventListener('abort', wake)
          resolve()
        }
        waiting.add(wake)
        signal.addEventListener('abort', wake, { once: true })
      }),
    release: () => {
      settle('ended')
      child.kill('SIGTERM')
    }
  }
}
