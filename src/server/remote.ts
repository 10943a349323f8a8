/**
 * The model server as a process on another host, over ssh: started there detached in its own session with this
 * run's marker, its exit watched and its log copied as it grows, its /proc and listeners read there, and stopped
 * there. Only a POSIX shell, /proc and the coreutils (setsid, tail, sleep) are asked of that host.
 */
import { closeSync, statSync } from 'node:fs'
import type { ChildProcess } from 'node:child_process'
import { printable } from '../runtime/text.js'
import { RUN_MARKER } from './guard.js'
import { openServerLog, type ServerProcess } from './process.js'
import { environment } from './proc.js'
import { shellQuoted, type SshHost } from './ssh.js'

/** How often the remote watcher looks at the server's /proc entry, in seconds. */
const WATCH_S = '0.1'

/** A remote process's start time: `/proc/<pid>/stat` field 22, after the command name (which may hold spaces). */
const startTicksOf = (pidVar: string): string =>
  `{ read -r l < /proc/${pidVar}/stat && r=\${l##*) } && set -- $r && shift 19 && echo "$1"; } 2>/dev/null`

/**
 * `command` in the background on the host, ended once the connection it came by is gone: sshd starts no signal at
 * a command when its connection drops, and a follower of a log that no longer grows (tail -F) would stay for ever.
 * Its shell's parent is the connection's sshd; once that has exited, the shell has another.
 */
const whileConnected = (command: string): string =>
  shellQuoted(
    `P0=$PPID; ${command} & c=$!; ` +
      'while kill -0 $c 2>/dev/null; do read -r s < /proc/$$/stat; s=${s##*) }; set -- $s; ' +
      '[ "$2" = "$P0" ] || { kill $c; exit 0; }; sleep 0.2; done; wait $c'
  )

/** What starting it there said: its pid and start time, the log's path there and where this run's lines begin. */
export interface RemoteStart {
  pid: number
  startTicks?: number
  bootId?: string
  logPath: string
  logOffset: number
}

/**
 * Starts `command` on the host: `setsid` makes it a session and group leader (pid = group id), its output appended
 * to `logPath` (or to a new log made exclusively by mktemp), its environment tagged with the run marker.
 */
export function startRemote(
  host: SshHost,
  command: string,
  logPath: string | undefined,
  marker: string
): RemoteStart | string {
  const script = [
    'umask 077',
    logPath === undefined
      ? 'LOG=$(mktemp "${TMPDIR:-/tmp}/model-server-XXXXXXXXXX") || exit 3'
      : `LOG=${shellQuoted(logPath)}; if [ -L "$LOG" ]; then echo "is a symbolic link; it is not followed" >&2; exit 3; fi`,
    '( : >> "$LOG" ) || exit 3',
    'OFFSET=$(wc -c < "$LOG")',
    `${RUN_MARKER}=${marker}; export ${RUN_MARKER}`,
    `setsid sh -c ${shellQuoted(command)} < /dev/null >> "$LOG" 2>&1 &`,
    'PID=$!',
    `T=$(${startTicksOf('$PID')})`,
    'B=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)',
    'echo "$PID $OFFSET ${T:--} ${B:--}"',
    'echo "$LOG"'
  ].join('\n')
  const run = host.runSync(script, 15_000)
  const [first, path] = run.stdout.split('\n')
  const [pid, offset, ticks, boot] = (first ?? '').trim().split(' ')
  if (run.code !== 0 || !/^\d+$/.test(pid ?? '') || path === undefined)
    return `could not start the server on ${host.host} (${printable(run.stderr.trim().split('\n').pop() ?? `ssh exited with ${run.code}`)})`
  return {
    pid: Number(pid),
    logOffset: Number(offset) || 0,
    startTicks: /^\d+$/.test(ticks) ? Number(ticks) : undefined,
    bootId: boot === '-' ? undefined : boot,
    logPath: path
  }
}

/** A process already running on the host (`pid`): its start time, the host's boot, its log's size there now. */
export function attachRemote(host: SshHost, pid: number, logPath: string | undefined): RemoteStart | string {
  const size = logPath === undefined ? 'echo 0' : `wc -c < ${shellQuoted(logPath)} 2>/dev/null || echo 0`
  const run = host.runSync(
    `T=$(${startTicksOf(String(pid))}); B=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null); echo "\${T:--} \${B:--} $(${size})"`
  )
  const [ticks, boot, offset] = run.stdout.trim().split(' ')
  if (!/^\d+$/.test(ticks ?? '')) return `the process ${pid} is not running on ${host.host}`
  return {
    pid,
    startTicks: Number(ticks),
    bootId: boot === '-' ? undefined : boot,
    logPath: logPath ?? '',
    logOffset: Number(offset) || 0
  }
}

/** Where the remote log's copy stands: the local file the log follower reads, filled by `tail -F` on the host. */
interface LogCopy {
  tail: ChildProcess
  /** Waits (up to `ms`) until the copy holds as much as the remote log does now. */
  caughtUp(ms: number): Promise<void>
}

function copyLog(host: SshHost, remotePath: string, offset: number, localPath: string, prefix = ''): LogCopy {
  const { fd } = openServerLog(localPath)
  const remote = shellQuoted(remotePath)
  // -F: a log that is rotated or not there yet is followed all the same; -s: polled that often where no inotify
  // another node's lines are told apart by its name, each line whole (sed -u: one write a line)
  const each = prefix === '' ? '' : ` | sed -u ${shellQuoted(`s|^|${prefix.replace(/[|&\\]/g, '')}|`)}`
  const tail = host.spawn(
    `sh -c ${whileConnected(`tail -c +${offset + 1} -F -s 0.1 -- ${remote} 2>/dev/null${each}`)}`,
    fd
  )
  closeSync(fd)
  const size = (): number => {
    try {
      return statSync(localPath).size
    } catch {
      return 0
    }
  }
  return {
    tail,
    caughtUp: async (ms) => {
      const run = await host.run(`wc -c < ${remote}`, ms)
      const want = Number(run.stdout.trim()) - offset
      const until = Date.now() + ms
      while (Number.isFinite(want) && size() < want && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
}

/**
 * Watches the remote process: a shell on the host looks at its /proc entry every tenth of a second and says
 * `gone` once it has exited (or its pid names a process that started at another time); its log is copied to
 * `localLog` meanwhile, and caught up before the exit is told, so that its last lines are read with it.
 */
export function watchRemote(
  host: SshHost,
  start: { pid: number; startTicks?: number; logPath?: string; logOffset: number },
  localLog: string | undefined,
  startedAt: number | undefined,
  prefix = ''
): ServerProcess {
  const { pid, startTicks } = start
  const copy =
    start.logPath === undefined || localLog === undefined
      ? undefined
      : copyLog(host, start.logPath, start.logOffset, localLog, prefix)
  const check =
    `while T=$(${startTicksOf(String(pid))}) && [ -n "$T" ]; do ` +
    (startTicks === undefined ? '' : `[ "$T" = "${startTicks}" ] || break; `) +
    `read -r l < /proc/${pid}/stat 2>/dev/null || break; r=\${l##*) }; [ "\${r%% *}" = Z ] && break; sleep ${WATCH_S}; done; echo gone`
  const watcher = host.spawn(`sh -c ${whileConnected(`sh -c ${shellQuoted(check)}`)}`, 'pipe')
  let released = false
  const exited = new Promise<string>((resolve) => {
    let said = ''
    watcher.stdout?.on('data', (d: Buffer) => (said += d.toString('utf8')))
    watcher.once('close', () => {
      if (released) return
      const how = said.includes('gone')
        ? `on ${host.host} has exited`
        : `on ${host.host} can no longer be watched (the ssh connection was lost)`
      void (copy?.caughtUp(1_000) ?? Promise.resolve()).then(
        () => resolve(how),
        () => resolve(how)
      )
    })
  })
  return {
    pid,
    label: `the server process ${pid} on ${host.host}`,
    startedAt,
    startTicks,
    exited,
    environ: () => remoteEnviron(host, pid),
    release: () => {
      released = true
      watcher.kill('SIGTERM')
      copy?.tail.kill('SIGTERM')
    },
    logOffset: 0
  }
}

/** A remote process's environment, from its /proc there; undefined when it cannot be read. */
export function remoteEnviron(host: SshHost, pid: number): Record<string, string> | undefined {
  const run = host.runSync(`cat /proc/${pid}/environ`)
  if (run.code !== 0) return undefined
  return environment(run.stdout.split('\0').filter((e) => e !== ''))
}

/** `pid` and its descendants on the host, from the parent ids of its /proc. */
export async function remoteTree(host: SshHost, pid: number): Promise<Set<number>> {
  const run = await host.run(
    'for f in /proc/[0-9]*/stat; do read -r l < "$f" 2>/dev/null && { r=${l##*) }; set -- $r; echo "${f#/proc/} $2"; }; done'
  )
  const children = new Map<number, number[]>()
  for (const line of run.stdout.split('\n')) {
    const [p, parent] = line.split(' ').map((w) => Number.parseInt(w, 10))
    if (Number.isNaN(p) || Number.isNaN(parent)) continue
    children.set(parent, [...(children.get(parent) ?? []), p])
  }
  const family = new Set([pid])
  const queue = [pid]
  while (queue.length > 0)
    for (const child of children.get(queue.shift() as number) ?? [])
      if (!family.has(child)) {
        family.add(child)
        queue.push(child)
      }
  return family
}

/** The ports among `ports` that something listens on at the host (its /proc/net/tcp and tcp6). */
export async function remoteListening(host: SshHost, ports: readonly number[]): Promise<number[] | undefined> {
  if (ports.length === 0) return []
  const run = await host.run('cat /proc/net/tcp /proc/net/tcp6 2>/dev/null')
  if (run.code === null) return undefined
  const listening = new Set<number>()
  for (const line of run.stdout.split('\n')) {
    const f = line.trim().split(/\s+/)
    // local_address is ADDR:PORT in hex; state 0A is LISTEN
    if (f[3] === '0A' && f[1]?.includes(':')) listening.add(Number.parseInt(f[1].split(':')[1], 16))
  }
  return ports.filter((p) => listening.has(p))
}

/** Who holds the listening socket of `port` at the host: each holder's pid and command, and whether it is `pid`'s. */
export function remotePortHolders(
  host: SshHost,
  port: number,
  pid: number
): { holders: Array<{ pid: number; command: string }>; ours: boolean } | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0')
  const run = host.runSync(
    [
      `for i in $(awk '$4 == "0A" { n = split($2, a, ":"); if (a[n] == "${hex}") print $10 }' /proc/net/tcp /proc/net/tcp6 2>/dev/null); do`,
      '  find /proc/[0-9]*/fd -lname "socket:\\[$i\\]" 2>/dev/null',
      'done | sed "s|^/proc/\\([0-9]*\\)/.*|\\1|" | sort -u | while read -r p; do',
      '  printf "holder %s %s\\n" "$p" "$(tr "\\0" " " < /proc/$p/cmdline 2>/dev/null | cut -c1-200)"',
      'done',
      'for f in /proc/[0-9]*/stat; do read -r l < "$f" 2>/dev/null && { r=${l##*) }; set -- $r; echo "tree ${f#/proc/} $2"; }; done'
    ].join('\n')
  )
  if (run.code !== 0) return undefined
  const holders: Array<{ pid: number; command: string }> = []
  const parent = new Map<number, number>()
  for (const line of run.stdout.split('\n')) {
    const [kind, a, ...rest] = line.split(' ')
    if (kind === 'holder' && /^\d+$/.test(a)) holders.push({ pid: Number(a), command: rest.join(' ').trim() })
    if (kind === 'tree') parent.set(Number.parseInt(a, 10), Number(rest[0]))
  }
  // a holder is the server's when the server is it or one of its ancestors
  const descends = (p: number): boolean => {
    for (let at = p, n = 0; at > 1 && n < 4096; at = parent.get(at) ?? 0, n++) if (at === pid) return true
    return false
  }
  return { holders, ours: holders.some((h) => descends(h.pid)) }
}
