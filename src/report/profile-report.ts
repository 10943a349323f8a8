/** Words and pictures for the startup profile: progress and phase lines, the phase chart, regression and drift. */
import type { Drift, Regression } from '../history/stats.js'
import type { CurrentPhase, PhaseTiming, TrackerEvent } from '../startup/phases.js'
import type { Eta } from '../startup/eta.js'
import type { StartupStatus } from '../startup/profile.js'
import { engineLog } from '../engines/log-markers.js'
import { formatDuration } from '../runtime/clock.js'

const s1 = (seconds: number): string => `${seconds.toFixed(1)}s`
const about = (ms: number): string => (ms < 1000 ? 'almost done' : `about ${formatDuration(ms)} left`)

const NAMED_FROM = { log: 'from its log', models: 'from its model list', answers: 'from its answers' } as const

/** What the startup profile read in the log, one line each: the engine, each new phase. */
export function startupLines(events: readonly TrackerEvent[]): string[] {
  return events.map((e) =>
    e.type === 'engine'
      ? `engine: ${engineLog(e.engine).label} (${NAMED_FROM[e.from]})`
      : phaseChangeText(e.name, e.previous)
  )
}

/** Where the startup is, for a still-waiting line; undefined while neither a phase nor earlier runs tell. */
export function startupStatusText(status: StartupStatus | undefined): string | undefined {
  if (status === undefined) return undefined
  if (status.phase === undefined) return etaText(status.eta)
  return progressText(status.phase, status.phaseLeftMs, status.eta)
}

/** `loading weights 45% (29/64 shards), about 1m10s left; ready in about 4m30s going by earlier runs`. */
export function progressText(phase: CurrentPhase, phaseLeftMs?: number, against?: Eta): string {
  const p = phase.progress?.last
  const parts = [
    p === undefined
      ? `${phase.name} for ${formatDuration(phase.inPhaseMs)}`
      : `${phase.name} ${Math.floor((p.n / p.total) * 100)}% (${p.n}/${p.total} ${phase.progress?.unit})`
  ]
  if (phaseLeftMs !== undefined) parts[0] += `, ${about(phaseLeftMs)}`
  if (against !== undefined) parts.push(etaText(against))
  return parts.join('; ')
}

/**
 * `ready in about 4m30s going by earlier runs`; once past that, how much slower: `1m05s slower than earlier runs,
 * which were ready after 40.0s`, or for a phase without a count `12.0s longer than its usual 30.0s in earlier runs`.
 */
export function etaText(e: Eta): string {
  if (e.kind === 'ready-in') return `ready in about ${formatDuration(Math.max(e.ms, 1000))} going by earlier runs`
  if (e.phase !== undefined)
    return `${formatDuration(e.overMs)} longer than its usual ${s1(e.usualMs / 1000)} in earlier runs`
  return `${formatDuration(e.overMs)} slower than earlier runs, which were ready after ${s1(e.usualMs / 1000)}`
}

/** `now loading weights (initializing took 12.3s)`. */
export const phaseChangeText = (name: string, previous?: PhaseTiming): string =>
  `now ${name}${previous ? ` (${previous.name} took ${s1(previous.seconds)}${previous.printed ? ' by its own count' : ''})` : ''}`

const BLOCKS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉']
const BAR_WIDTH = 24

/** A bar of `fraction` × BAR_WIDTH cells, in eighths of a cell (any time at all shows as one eighth). */
export function bar(fraction: number): string {
  const f = Math.min(1, Math.max(0, fraction))
  const eighths = f > 0 ? Math.max(1, Math.round(f * BAR_WIDTH * 8)) : 0
  return '█'.repeat(Math.floor(eighths / 8)) + BLOCKS[eighths % 8]
}

/** `00:05:03.400`: a time from the start, in the chart's date format (Mermaid reads it as a time of day). */
const clock = (ms: number): string => {
  // HH stops at 23: a startup of a day is past any timeout worth waiting for
  const t = Math.min(Math.max(0, Math.round(ms)), 24 * 3600_000 - 1)
  const hms = [Math.floor(t / 3600_000), Math.floor(t / 60_000) % 60, Math.floor(t / 1000) % 60]
  return `${hms.map((n) => String(n).padStart(2, '0')).join(':')}.${String(t % 1000).padStart(3, '0')}`
}

/** Seconds as whole tenths, in milliseconds: the chart's resolution, that of the figures in its labels. */
const tenths = (seconds: number): number => Math.round(seconds * 10) * 100

/**
 * A Mermaid gantt chart of the phases end to end, each bar to the tenth of a second (dayjs's `SSS` reads
 * milliseconds), so a 0.0 s phase is no wider than it took and the bars end at the total.
 */
export function phaseGantt(phases: readonly PhaseTiming[], engineLabel: string): string {
  const total = phases.reduce((sum, p) => sum + p.seconds, 0)
  const lines = [
    '```mermaid',
    'gantt',
    `  title ${engineLabel} startup`,
    '  dateFormat HH:mm:ss.SSS',
    `  axisFormat ${total < 3600 ? '%M:%S' : '%H:%M'}`,
    `  section ${engineLabel}`
  ]
  let sum = 0
  for (const p of phases) {
    const start = tenths(sum)
    sum += p.seconds
    lines.push(`  ${`${p.name} ${s1(p.seconds)}`.replace(/[:;#]/g, ' ')} : ${clock(start)}, ${clock(tenths(sum))}`)
  }
  lines.push('```')
  return lines.join('\n')
}

/** The chart, and a table with proportional bars and, with history, the usual figures. */
export function phaseMarkdown(
  phases: readonly PhaseTiming[],
  engineLabel: string,
  usual?: ReadonlyMap<string, number>
): string {
  if (phases.length === 0) return ''
  const longest = Math.max(...phases.map((p) => p.seconds), 0.001)
  const total = phases.reduce((sum, p) => sum + p.seconds, 0)
  const withUsual = usual !== undefined && usual.size > 0
  // A chart of one bar (a run that failed in its first phase) shows nothing the table does not.
  const lines = ['#### Startup phases', '', ...(phases.length > 1 ? [phaseGantt(phases, engineLabel), ''] : [])]
  lines.push(
    withUsual ? '| phase | seconds | usual | share | |' : '| phase | seconds | share | |',
    withUsual ? '|---|---:|---:|---:|---|' : '|---|---:|---:|---|'
  )
  for (const p of phases) {
    const share = `${total > 0 ? Math.round((p.seconds / total) * 100) : 0}%`
    const seconds = `${p.seconds.toFixed(1)}${p.printed ? ' *' : ''}`
    const u = usual?.get(p.name)
    const cells = withUsual
      ? [p.name, seconds, u === undefined ? '—' : u.toFixed(1), share, bar(p.seconds / longest)]
      : [p.name, seconds, share, bar(p.seconds / longest)]
    lines.push(`| ${cells.join(' | ')} |`)
  }
  if (phases.some((p) => p.printed))
    lines.push('', `\\* as ${engineLabel} reported it; the other figures are measured from its log.`)
  return `${lines.join('\n')}\n`
}

export function regressionText(r: Regression): string {
  const grew = r.grewMost
    ? `; ${r.grewMost.name} grew most: ${s1(r.grewMost.seconds)} against ${s1(r.grewMost.usual)}`
    : ''
  return (
    `Startup took ${s1(r.seconds)}, ${r.percent.toFixed(1)}% over the median of ${s1(r.expectedSeconds)} ` +
    `of the last ${r.runs} ready run${r.runs === 1 ? '' : 's'}${grew}.`
  )
}

const value = (v: string | undefined): string => (v === undefined ? 'unset' : JSON.stringify(v))

/** `NCCL_PROTO was "LL" in the last 5 runs, now unset`. */
export const driftText = (d: Drift): string => {
  const name = `${d.name}${d.of === 'workers' ? ' in the GPU workers' : d.of === 'nccl' ? ' as NCCL took it' : ''}`
  const last = `in the last ${d.runs === 1 ? 'run' : `${d.runs} runs`}`
  // a credential's record is a keyed hash: whether it changed is all there is to say
  if (d.secret) {
    const set = (v: string | undefined): string => (v === undefined ? 'unset' : 'set')
    return d.was !== undefined && d.now !== undefined
      ? `${name} (a credential) changed: the same value ${last}, another now`
      : `${name} (a credential) was ${set(d.was)} ${last}, now ${set(d.now)}`
  }
  return `${name} was ${value(d.was)} ${last}, now ${value(d.now)}`
}

export function driftWarning(drifts: readonly Drift[]): string {
  return `The server's environment changed since the previous run with this history key: ${drifts.map(driftText).join('; ')}.`
}
