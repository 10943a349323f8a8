/**
 * Which processes a stop may signal, read from Linux's /proc. Never this process, one of its ancestors (the
 * runner's step, the runner itself), pid 1, a runner's own processes (`Runner.Worker`, `Runner.Listener`, its
 * service scripts), nor a process group any of them is in. A pid recorded at launch is the server only while it
 * names the process that started then (`/proc/<pid>/stat` field 22, on the same boot): Linux reuses pids, and a
 * server that died early leaves its pid to a stranger. A process that carries the run's marker in its
 * environment (`WAIT_FOR_MODEL_RUN=<id>`, set at launch and inherited by whatever the server starts) is the
 * server's, wherever it went: a worker that double-forked out of the group, an orphaned engine core.
 */
import { readFileSync } from 'node:fs'
import { commandLine, procPids, procStat } from './proc.js'

/** The variable `start` tags the server's environment with. */
export const RUN_MARKER = 'WAIT_FOR_MODEL_RUN'

/** Why a process must not be signalled. */
export type Spared = 'self' | 'ancestor' | 'init' | 'runner'

export interface Guard {
  /** Why `pid` must not be signalled, or undefined when it may be. */
  spared(pid: number): Spared | undefined
  /** Whether a signal to the process group `pgid` would reach a spared process. */
  groupSpared(pgid: number): boolean
}

/** The runner's own programs, by their command line (the hosted runners' and a self-hosted one's, as installed). */
const RUNNER_COMMAND = /(^|\/)(Runner\.Worker|Runner\.Listener|runsvc\.sh|run-helper\.sh)(\s|$)/

/** An ancestor chain longer than this is a loop in a hostile or broken /proc: stop walking. */
const MAX_DEPTH = 4096

/** The processes and groups a stop must leave alone, as seen now from `self` (this process). */
export function processGuard(proc = '/proc', self = process.pid): Guard {
  const spared = new Map<number, Spared>([[1, 'init']])
  const groups = new Set<number>()
  const selfStat = procStat(self, proc)
  spared.set(self, 'self')
  if (selfStat !== undefined) groups.add(selfStat.pgrp)
  // without /proc only the parent is known
  let parent = selfStat?.ppid ?? (self === process.pid ? process.ppid : 0)
  for (let depth = 0; parent > 1 && depth < MAX_DEPTH && !spared.has(parent); depth++) {
    spared.set(parent, 'ancestor')
    const stat = procStat(parent, proc)
    if (stat !== undefined) groups.add(stat.pgrp)
    parent = stat?.ppid ?? 0
  }
  for (const pid of procPids(proc)) {
    if (spared.has(pid) || !RUNNER_COMMAND.test(commandLine(pid, proc))) continue
    spared.set(pid, 'runner')
    const stat = procStat(pid, proc)
    if (stat !== undefined) groups.add(stat.pgrp)
  }
  return { spared: (pid) => spared.get(pid), groupSpared: (pgid) => groups.has(pgid) || spared.has(pgid) }
}

/** What a pid recorded at launch names now. */
export type Identity =
  /** Still the process that started then. */
  | { kind: 'same' }
  /** No such process, or only a zombie. */
  | { kind: 'gone' }
  /** Another process: it started at another time (the pid was reused), or the machine has booted since. */
  | { kind: 'reused'; startTicks?: number; expectedTicks: number }
  | { kind: 'rebooted' }
  /** No way to tell: no start time was recorded at launch, or there is no /proc to read one now. */
  | { kind: 'unchecked' }

export interface Recorded {
  /** `/proc/<pid>/stat` field 22 at launch: clock ticks since boot; undefined where it could not be read. */
  startTicks?: number
  /** `/proc/sys/kernel/random/boot_id` at launch; undefined where it could not be read. */
  bootId?: string
}

/** Whether `pid` still names the process `recorded` describes. */
export function identify(pid: number, recorded: Recorded, proc = '/proc'): Identity {
  if (recorded.startTicks === undefined || procStat(process.pid, proc) === undefined) return { kind: 'unchecked' }
  const boot = bootId(proc)
  if (recorded.bootId !== undefined && boot !== undefined && boot !== recorded.bootId) return { kind: 'rebooted' }
  const stat = procStat(pid, proc)
  if (stat === undefined || stat.state === 'Z') return { kind: 'gone' }
  if (stat.startTicks !== recorded.startTicks)
    return { kind: 'reused', startTicks: stat.startTicks, expectedTicks: recorded.startTicks }
  return { kind: 'same' }
}

/** This boot's id, or undefined without /proc. */
export function bootId(proc = '/proc'): string | undefined {
  try {
    return readFileSync(`${proc}/sys/kernel/random/boot_id`, 'utf8').trim() || undefined
  } catch {
    return undefined
  }
}

/**
 * The processes whose environment carries `RUN_MARKER=<marker>`, among those this user may read, that started no
 * earlier than `sinceTicks`. `seen` caches each answer by pid and start time: an environment is fixed at exec, and
 * reading every process's on every poll would cost the stop more than the stop itself.
 */
export function markedProcesses(
  marker: string,
  sinceTicks: number,
  seen: Map<string, boolean>,
  proc = '/proc'
): number[] {
  const needle = `\0${RUN_MARKER}=${marker}\0`
  const found: number[] = []
  for (const pid of procPids(proc)) {
    const stat = procStat(pid, proc)
    if (stat === undefined || stat.state === 'Z' || stat.startTicks < sinceTicks) continue
    const key = `${pid}:${stat.startTicks}`
    let marked = seen.get(key)
    if (marked === undefined) {
      marked = environHas(pid, needle, proc)
      seen.set(key, marked)
    }
    if (marked) found.push(pid)
  }
  return found
}

function environHas(pid: number, needle: string, proc: string): boolean {
  try {
    // latin1 maps each byte to one character: a byte search, whatever the encoding of the other variables
    return `\0${readFileSync(`${proc}/${pid}/environ`, 'latin1')}\0`.includes(needle)
  } catch {
    return false // another user's process, or gone
  }
}

/** `roots` and every process descended from them, from the parent ids of /proc/<pid>/stat. */
export function descendantsOf(roots: Iterable<number>, proc = '/proc'): Set<number> {
  const children = new Map<number, number[]>()
  for (const p of procPids(proc)) {
    const parent = procStat(p, proc)?.ppid
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), p])
  }
  const family = new Set(roots)
  const queue = [...family]
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      if (family.has(child)) continue
      family.add(child)
      queue.push(child)
    }
  }
  return family
}
