/**
 * NCCL's own word on the environment it took: its `NCCL_DEBUG=INFO` lines in the server's log, per process and rank.
 * `/proc` shows a process's environment at its start; these lines show what NCCL read when it initialised.
 *
 * The line formats, from NCCL's source (NVIDIA/nccl@5067397c2676d5aed50042fc39e5c8ee96eb0027, 2.30.7):
 * - src/debug.cc:330, 354: every INFO line is `"%s:%d:%d "` (hostname, pid, tid), then `"[%d] NCCL INFO %s\n"`.
 * - src/graph/tuning.cc:455, 460: `"NCCL_PROTO set by environment to %s"`, `"NCCL_ALGO set by environment to %s"`.
 * - src/misc/param.cc:100: `"%s set by environment to %lld."` (an integer parameter read from the environment).
 * - src/init.cc:1945: `"%s comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx commId 0x%llx - Init COMPLETE"`.
 * - src/init.cc:694-702: `"NCCL version " …`, bare at the VERSION level or as an INFO line.
 * NVIDIA/nccl@v2.21.5-1 (ab2b89c4c339bd7f816fbc114a4b05d386b66290) has the same: src/debug.cc:183 (one format),
 * src/graph/tuning.cc:275, 280, src/misc/param.cc:75, src/init.cc:1573 (`ncclCommInitRank comm %p rank %d …`).
 */

import { type EnvEntry, reportsName, type WorkerEnv } from './env-report.js'

/** One process that ran NCCL, as its lines tell. */
export interface NcclProcess {
  host: string
  pid: number
  /** Its rank in the largest communicator it completed; undefined before any `Init COMPLETE`. */
  rank?: number
  nranks?: number
  /** What NCCL says it took from the environment, in the order said (a later line for a name wins). */
  env: Record<string, string>
}

export interface NcclView {
  version?: string
  /** In rank order, then by pid. */
  processes: NcclProcess[]
}

/** Bounds on what a log can make this hold: a flood of NCCL lines is kept to a fixed size. */
const MAX_PROCESSES = 1024
const MAX_NAMES = 200
const MAX_VALUE_CHARS = 200

// after the line's start, a space, or a launcher's `[rank3]:` (torchrun's --tee)
const INFO = /(?:^|\s|\]:)([^\s:[\]]+):(\d+):\d+ \[(-?\d+)\] NCCL INFO (.*)$/
const SET_BY_ENV = /^(NCCL_\w+) set by environment to (.*)$/
const COMPLETE = /\bcomm \S+ rank (\d+) nranks (\d+) .*- Init COMPLETE\s*$/
const VERSION = /(?:^|NCCL INFO )NCCL version (\d+\.\d+\.\d+\S*)/

/**
 * The GPU a process completed an NCCL communicator on, as `host:pid:device`; undefined for any other line. One
 * process may drive several GPUs (one communicator each), and one GPU's process several communicators (one key).
 */
export function ncclJoined(text: string): string | undefined {
  if (!text.includes('Init COMPLETE')) return undefined
  const info = INFO.exec(text)
  return info === null || !COMPLETE.test(info[4]) ? undefined : `${info[1]}:${info[2]}:${info[3]}`
}

/** Collects NCCL's lines as the log is read; `view()` is undefined while none came. */
export class NcclLines {
  private readonly processes = new Map<number, NcclProcess>()
  private version: string | undefined

  line(text: string): void {
    if (!text.includes('NCCL ')) return
    if (this.version === undefined) this.version = VERSION.exec(text)?.[1]
    const info = text.includes('] NCCL INFO ') ? INFO.exec(text) : null
    if (info === null) return
    const [, host, pidText, , message] = info
    const pid = Number(pidText)
    let p = this.processes.get(pid)
    if (p === undefined) {
      if (this.processes.size >= MAX_PROCESSES) return
      p = { host, pid, env: {} }
      this.processes.set(pid, p)
    }
    const set = SET_BY_ENV.exec(message)
    if (set !== null) {
      const [, name, said] = set
      if (!(name in p.env) && Object.keys(p.env).length >= MAX_NAMES) return
      // param.cc ends an integer with a full stop
      p.env[name] = (/^-?\d+\.$/.test(said) ? said.slice(0, -1) : said.trimEnd()).slice(0, MAX_VALUE_CHARS)
      return
    }
    const complete = COMPLETE.exec(message)
    if (complete === null) return
    const [rank, nranks] = [Number(complete[1]), Number(complete[2])]
    // a process is in several communicators (tensor-parallel, pipeline, world): its place in the largest
    if (p.nranks === undefined || nranks > p.nranks) Object.assign(p, { rank, nranks })
  }

  view(): NcclView | undefined {
    if (this.processes.size === 0) return undefined
    const processes = [...this.processes.values()].sort(
      (a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.pid - b.pid
    )
    return { ...(this.version === undefined ? {} : { version: this.version }), processes }
  }
}

/** `0–7`, `1301–1304, 1306`: numbers as runs. */
export function ranges(numbers: readonly number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b)
  const runs: string[] = []
  for (let i = 0; i < sorted.length;) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++
    runs.push(j === i ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`)
    i = j + 1
  }
  return runs.join(', ')
}

/** `ranks 0–7`, `rank 3`, `ranks 0–3 and pid 1290`. */
export function processesText(ps: readonly NcclProcess[]): string {
  const ranked = ps.filter((p) => p.rank !== undefined).map((p) => p.rank as number)
  const unranked = ps.filter((p) => p.rank === undefined).map((p) => p.pid)
  const parts = [
    ranked.length === 0 ? '' : `${ranked.length === 1 ? 'rank' : 'ranks'} ${ranges(ranked)}`,
    unranked.length === 0 ? '' : `${unranked.length === 1 ? 'pid' : 'pids'} ${ranges(unranked)}`
  ].filter(Boolean)
  return parts.join(' and ')
}

/** One variable NCCL spoke of: its values and who took each, and who did not say. */
export interface NcclVariable {
  name: string
  values: { value: string; by: NcclProcess[] }[]
  silent: NcclProcess[]
}

export function ncclVariables(view: NcclView): NcclVariable[] {
  const names = [...new Set(view.processes.flatMap((p) => Object.keys(p.env)))].sort()
  return names.map((name) => {
    const values = new Map<string, NcclProcess[]>()
    for (const p of view.processes) if (name in p.env) values.set(p.env[name], [...(values.get(p.env[name]) ?? []), p])
    return {
      name,
      values: [...values].map(([value, by]) => ({ value, by })),
      silent: view.processes.filter((p) => !(name in p.env))
    }
  })
}

/** `NCCL_PROTO=LL in ranks 0–7`; `NCCL_PROTO=LL in ranks 0–3; not said by ranks 4–7`. */
export function ncclVariableText(v: NcclVariable): string {
  const said = v.values.map((x) => `${v.name}=${x.value} in ${processesText(x.by)}`).join('; ')
  return v.silent.length === 0 ? said : `${said}; not said by ${processesText(v.silent)}`
}

/**
 * The variables `env-report` shows set that NCCL's lines never say it took: NCCL's own (`NCCL_*`), less its logging's
 * (`NCCL_DEBUG*`, read before it can log, and proven by the lines themselves).
 */
export function unconfirmed(reported: ReadonlySet<string>, view: NcclView): string[] {
  const said = new Set(view.processes.flatMap((p) => Object.keys(p.env)))
  return [...reported].filter((n) => n.startsWith('NCCL_') && !n.startsWith('NCCL_DEBUG') && !said.has(n)).sort()
}

/** A value NCCL took that the process's environment at its start did not hold: set inside it later. */
export interface SetInside {
  name: string
  value: string
  by: NcclProcess[]
}

/**
 * What NCCL says a GPU worker took, where `/proc` showed that worker another value (or none) at its start, for the
 * variables `patterns` reports. Credentials are left out: their values are not to be set side by side.
 */
export function setInside(patterns: readonly string[], view: NcclView, workers: readonly WorkerEnv[]): SetInside[] {
  const atStart = new Map(workers.flatMap((w) => (w.env === undefined ? [] : [[w.pid, w.env] as const])))
  const found = new Map<string, SetInside>()
  for (const p of view.processes) {
    const env: readonly EnvEntry[] | undefined = atStart.get(p.pid)
    if (env === undefined) continue
    for (const [name, value] of Object.entries(p.env)) {
      const entry = env.find((e) => e.name === name)
      if (!reportsName(patterns, name) || entry?.secret || entry?.value === value) continue
      const key = `${name}=${value}`
      found.set(key, { name, value, by: [...(found.get(key)?.by ?? []), p] })
    }
  }
  return [...found.values()]
}
