/** Reading Linux's /proc: a process's stat line, the process ids, a command line, an environment; nothing without it. */
import { readdirSync, readFileSync } from 'node:fs'

export interface ProcStat {
  /** R, S, D, Z (zombie), T, … */
  state: string
  ppid: number
  /** The process group: the pid of its leader. */
  pgrp: number
  /** Since boot, in clock ticks: with the pid, it names one process even after the id is reused. */
  startTicks: number
}

export function procStat(pid: number, proc = '/proc'): ProcStat | undefined {
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8')
    // the command name in parentheses may hold spaces and parentheses: count fields from the last ')'
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { state: f[0], ppid: Number(f[1]), pgrp: Number(f[2]), startTicks: Number(f[19]) }
  } catch {
    return undefined
  }
}

/** Every process id /proc shows (empty without /proc). */
export function procPids(proc = '/proc'): number[] {
  try {
    return readdirSync(proc)
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
  } catch {
    return []
  }
}

const MAX_COMMAND = 500

/** The command line of `pid`, arguments joined by spaces (its name in brackets where it has none), or "" once gone. */
export function commandLine(pid: number, proc = '/proc'): string {
  try {
    const args = readFileSync(`${proc}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ')
    if (args !== '') return args.length > MAX_COMMAND ? `${args.slice(0, MAX_COMMAND)}…` : args
    return `[${readFileSync(`${proc}/${pid}/comm`, 'utf8').trim()}]`
  } catch {
    return ''
  }
}

/** The environment `pid` started with, or undefined when it cannot be read (gone, another user's, no /proc). */
export function procEnviron(pid: number, proc = '/proc'): Record<string, string> | undefined {
  try {
    return environment(readFileSync(`${proc}/${pid}/environ`, 'utf8').split('\0'))
  } catch {
    return undefined
  }
}

/** `NAME=value` entries as a record; an entry without `=` is none. */
export const environment = (entries: readonly string[]): Record<string, string> =>
  Object.fromEntries(
    entries.filter((e) => e.includes('=')).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])
  )
