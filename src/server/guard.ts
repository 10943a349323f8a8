/**
 * Which processes a stop may signal, from Linux's /proc. Never this process, its ancestors (the runner's step, the
 * runner), pid 1, the runner's own programs, nor a process group any of them is in. A pid recorded at launch is the
 * server only while it names the process that started then, on the same boot: Linux reuses pids. A process that
 * carries the run's marker in its environment (set at launch, inherited) is the server's wherever it went (a worker
 * that double-forked out of the group, an orphaned engine core).
 */
import { readFileSync } from 'node:fs'
import { commandLine, procPids, procStat } from './proc.js'

/** The variable `start` tags the server's environment with. */
export const RUN_MARKER = 'WAIT_FOR_MODEL_RUN'

/** Why a process must not be signalled. */
export type Spared = 'self' | 'ancestor' | 'init' | 'runner' | 'group-leader'

export interface Guard {
  /** Why `pid` must not be signalled, or undefined when it may be. */
  spared(pid: number): Spared | undefined
  /** Whether a signal to the process group `pgid` would reach a spared process. */
  groupSpared(pgid: number): boolean
}

/** The runner's own programs, by their command line (hosted and self-hosted). */
const RUNNER_COMMAND = /(^|\/)(Runner\.Worker|Runner\.Listener|runsvc\.sh|run-helper\.sh)(\s|$)/

/** An ancestor chain longer than this is a loop in a hostile or broken /proc: stop walking. */
const MAX_DEPTH = 4096

/** The processes and groups a stop must leave alone, as seen now from this process. */
export function processGuard(): Guard {
  const spared = new Map<number, Spared>([[1, 'init']])
  const groups = new Set<number>()
  const selfStat = procStat(process.pid)
  spared.set(process.pid, 'self')
  if (selfStat !== undefined) groups.add(selfStat.pgrp)
  // without /proc only the parent is known
  let parent = selfStat?.ppid ?? process.ppid
  for (let depth = 0; parent > 1 && depth < MAX_DEPTH && !spared.has(parent); depth++) {
    spared.set(parent, 'ancestor')
    const stat = procStat(parent)
    if (stat !== undefined) groups.add(stat.pgrp)
    parent = stat?.ppid ?? 0
  }
  for (const pid of procPids()) {
    if (spared.has(pid) || !RUNNER_COMMAND.test(commandLine(pid))) continue
    spared.set(pid, 'runner')
    const stat = procStat(pid)
    if (stat !== undefined) groups.add(stat.pgrp)
  }
  // The leader of a group this process, an ancestor or the runner is in need not be an ancestor (the shell of a
  // pipeline, a job-control wrapper): signalling it would stop the stopper's own job all the same.
  return {
    spared: (pid) => spared.get(pid) ?? (groups.has(pid) ? 'group-leader' : undefined),
    groupSpared: (pgid) => groups.has(pgid) || spared.has(pgid)
  }
}

/** What a pid recorded at launch names now. */
export type Identity =
  | { kind: 'same' }
  /** No such process, or only a zombie. */
  | { kind: 'gone' }
  | { kind: 'reused'; startTicks?: number; expectedTicks: number }
  | { kind: 'rebooted' }
  /** No start time was recorded at launch, or there is no /proc to read one now. */
  | { kind: 'unchecked' }

/** At launch, where they could be read: `/proc/<pid>/stat` field 22 and `/proc/sys/kernel/random/boot_id`. */
export interface Recorded {
  startTicks?: number
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
 * The processes whose environment carries `RUN_MARKER=<marker>` that started no earlier than `sinceTicks`. `seen`
 * caches each answer by pid and start time: an environment is fixed at exec, and reading all on every poll is dear.
 */
export function markedProcesses(marker: string, sinceTicks: number, seen: Map<string, boolean>): number[] {
  const needle = `\0${RUN_MARKER}=${marker}\0`
  const found: number[] = []
  for (const pid of procPids()) {
    const stat = procStat(pid)
    if (stat === undefined || stat.state === 'Z' || stat.startTicks < sinceTicks) continue
    const key = `${pid}:${stat.startTicks}`
    let marked = seen.get(key)
    if (marked === undefined) {
      try {
        // latin1 maps each byte to one character: a byte search, whatever the encoding of the other variables
        marked = `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}\0`.includes(needle)
      } catch {
        marked = false // another user's process, or gone
      }
      seen.set(key, marked)
    }
    if (marked) found.push(pid)
  }
  return found
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
