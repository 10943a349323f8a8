/**
 * Follows an engine's startup through its log, line by line: the engine, its phase and progress, the phases
 * behind it, any fatal line. Pure: times are milliseconds on the caller's monotonic scale.
 */
import {
  clockSeconds,
  ENGINE_LOGS,
  engineLog,
  engineOfLine,
  type EngineLog,
  phaseMarkers,
  stampOf,
  tookSeconds
} from '../engines/log-markers.js'
import type { FatalLine, Phase } from '../engines/engine-record.js'
import type { Engine } from '../engines/index.js'

interface Moment {
  at: number
  stamp?: number
}

interface ProgressSample {
  n: number
  total: number
  at: number
  /** tqdm's own elapsed time. */
  elapsedS?: number
}

export interface Progress {
  unit: string
  /** Of the current bar (a new bar starts when the total changes or the count goes back). */
  first: ProgressSample
  last: ProgressSample
}

interface PhaseState {
  name: string
  index: number
  start: Moment
  end?: Moment
  /** The engine's own seconds (the longest it printed, over tensor-parallel ranks). */
  took?: number
  progress?: Progress
}

export interface PhaseTiming {
  name: string
  seconds: number
  /** The engine's own figure rather than measured. */
  printed: boolean
}

export interface FatalMatch {
  line: string
  lineNumber: number
  cause: boolean
}

export interface CurrentPhase {
  name: string
  inPhaseMs: number
  progress?: Progress
}

export type TrackerEvent =
  | { type: 'engine'; engine: Engine; from: 'log' | 'models' | 'answers' }
  | { type: 'phase'; name: string; at: number; previous?: PhaseTiming }

export interface TrackerOptions {
  /** Otherwise recognised from the log (or `setEngine` from the model list). */
  engine?: Engine
  /** The time before the first phase marker is phase `starting`. */
  startedAt?: number
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g
/** Lines kept while the engine is not yet known, to be read again once it is. */
const MAX_PENDING = 5000
const MAX_QUOTE = 500
const ALL_FATAL: readonly FatalLine[] = ENGINE_LOGS.flatMap((e) => e.fatal)

export class PhaseTracker {
  private log?: EngineLog
  private markers: readonly Phase[] = []
  private readonly pending: Array<{ text: string; at: number }> = []
  private readonly list: PhaseState[] = []
  private open?: PhaseState
  private lastIndex = -1
  /** The smallest read time minus stamp: maps stamps onto the read scale (a line is read after it is written). */
  private offset = Infinity
  private lines = 0
  private readonly fatals: FatalMatch[] = []
  private readySeen = false
  private readyMoment?: Moment
  /** A phase its own end marker closed, to be named when the next one begins. */
  private ended?: PhaseTiming

  constructor(opts: TrackerOptions = {}) {
    if (opts.startedAt !== undefined) {
      this.open = { name: 'starting', index: -1, start: { at: opts.startedAt } }
      this.list.push(this.open)
    }
    if (opts.engine !== undefined) this.setEngine(opts.engine, 'log')
  }

  get engine(): Engine | undefined {
    return this.log?.engine
  }

  get ready(): boolean {
    return this.readySeen
  }

  readyTime(): number | undefined {
    return this.readyMoment && this.time(this.readyMoment)
  }

  /** Names the engine (from the input or the model list) and reads again the lines that came before. */
  setEngine(engine: Engine, from: 'log' | 'models' | 'answers' = 'models'): TrackerEvent[] {
    if (this.log !== undefined) return []
    this.log = engineLog(engine)
    this.markers = phaseMarkers(engine)
    const events: TrackerEvent[] = [{ type: 'engine', engine, from }]
    for (const p of this.pending.splice(0)) events.push(...this.read(p.text, p.at))
    return events
  }

  /** tqdm's `\r` updates in a line are read one by one; lines from before the wait (`fatal: false`) tell no failure. */
  feed(rawLine: string, at: number, lineNumber = this.lines + 1, { fatal: checkFatal = true } = {}): TrackerEvent[] {
    this.lines = lineNumber
    const text = rawLine.replace(ANSI, '')
    const events: TrackerEvent[] = []
    if (checkFatal) this.matchFatal(text, lineNumber)
    if (this.log === undefined) {
      const engine = engineOfLine(text)
      if (engine === undefined) {
        if (this.pending.push({ text, at }) > MAX_PENDING) this.pending.shift()
      } else {
        this.pending.push({ text, at })
        events.push(...this.setEngine(engine, 'log'))
      }
    } else {
      events.push(...this.read(text, at))
    }
    return events
  }

  finish(at: number): void {
    if (this.open !== undefined) this.close({ at })
  }

  current(now: number): CurrentPhase | undefined {
    if (this.open === undefined) return undefined
    return {
      name: this.open.name,
      inPhaseMs: Math.max(0, now - this.time(this.open.start)),
      progress: this.open.progress
    }
  }

  timings(): PhaseTiming[] {
    return this.list.filter((p) => p.end !== undefined).map((p) => this.timing(p))
  }

  /** The first that names a cause, else the first. */
  fatal(): FatalMatch | undefined {
    return this.fatals.find((f) => f.cause) ?? this.fatals[0]
  }

  private matchFatal(text: string, lineNumber: number): void {
    const found = (this.log?.fatal ?? ALL_FATAL).find((f) => f.pattern.test(text))
    if (found !== undefined) this.fatals.push({ line: text.trim().slice(0, MAX_QUOTE), lineNumber, cause: found.cause })
  }

  private read(text: string, at: number): TrackerEvent[] {
    const log = this.log as EngineLog
    const stamp = stampOf(log, text)
    if (stamp !== undefined) this.offset = Math.min(this.offset, at - stamp)
    const moment: Moment = { at, stamp }
    const events: TrackerEvent[] = []
    for (const segment of text.split('\r')) {
      const seg = segment.trim()
      if (seg === '') continue
      this.markers.forEach((marker, index) => {
        const took = marker.took?.exec(seg)?.groups
        if (took !== undefined) {
          const phase = this.list.find((p) => p.name === marker.phase) ?? this.begin(marker, index, moment, events)
          if (phase !== undefined) phase.took = Math.max(phase.took ?? 0, tookSeconds(took))
        }
        const progress = marker.progress?.exec(seg)?.groups
        if (progress !== undefined) {
          const phase = this.open?.name === marker.phase ? this.open : this.begin(marker, index, moment, events)
          if (phase !== undefined) record(phase, marker.unit ?? 'steps', progress, at)
        } else if (marker.start?.test(seg)) {
          this.begin(marker, index, moment, events)
        }
        if (marker.end?.test(seg) && this.open?.name === marker.phase) this.ended = this.close(moment)
      })
      if (log.ready.test(seg) && !this.readySeen) {
        this.readySeen = true
        this.readyMoment = moment
        if (this.open !== undefined) this.close(moment)
      }
    }
    return events
  }

  /** Starts a phase if it lies ahead of the current one (other ranks repeat the markers of phases already begun). */
  private begin(marker: Phase, index: number, moment: Moment, events: TrackerEvent[]): PhaseState | undefined {
    if (index <= this.lastIndex || this.readySeen) return undefined
    const previous = this.open === undefined ? this.ended : this.close(moment)
    this.ended = undefined
    const phase: PhaseState = { name: marker.phase, index, start: moment }
    this.list.push(phase)
    this.open = phase
    this.lastIndex = index
    events.push({ type: 'phase', name: marker.phase, at: moment.at, previous })
    return phase
  }

  private close(moment: Moment): PhaseTiming {
    const phase = this.open as PhaseState
    phase.end = moment
    this.open = undefined
    return this.timing(phase)
  }

  private timing(p: PhaseState): PhaseTiming {
    return {
      name: p.name,
      seconds: round1(p.took ?? this.measured(p.start, p.end as Moment) / 1000),
      printed: p.took !== undefined
    }
  }

  private time(m: Moment): number {
    return m.stamp !== undefined && Number.isFinite(this.offset) ? m.stamp + this.offset : m.at
  }

  /** By the engine's stamps when both have one and they go forward, else by reads. */
  private measured(start: Moment, end: Moment): number {
    if (start.stamp !== undefined && end.stamp !== undefined) {
      // A stamp going back (a clock change on the server) leaves only the reads to go by.
      return end.stamp >= start.stamp ? end.stamp - start.stamp : Math.max(0, end.at - start.at)
    }
    return Math.max(0, this.time(end) - this.time(start))
  }
}

function record(phase: PhaseState, unit: string, g: Record<string, string | undefined>, at: number): void {
  const sample: ProgressSample = {
    n: Number(g.n),
    total: Number(g.total),
    at,
    elapsedS: g.elapsed === undefined ? undefined : clockSeconds(g.elapsed)
  }
  const p = phase.progress
  if (p === undefined || p.last.total !== sample.total || sample.n < p.last.n)
    phase.progress = { unit, first: sample, last: sample }
  else p.last = sample
}

const round1 = (x: number): number => Math.round(x * 10) / 10
