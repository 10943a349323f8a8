/**
 * The startup profile of one wait: the server's log lines go in, what they tell comes out as data (the engine, each
 * new phase, a fatal line, where the startup is and how long it has to go), which src/report/profile-report.ts words.
 */
import { engineLog, engineOfModelList } from '../engines/log-markers.js'
import type { Engine } from '../engines/index.js'
import { type Eta, eta, type UsualStartup, phaseLeftMs, readyInMs } from './eta.js'
import { type CurrentPhase, type FatalMatch, type PhaseTiming, PhaseTracker, type TrackerEvent } from './phases.js'

export interface ProfileOptions {
  /** The `engine` input; undefined for `auto`. */
  engine?: Engine
  /** When the server process started, on the clock's scale, when known. */
  startedAt?: number
  /** What earlier runs took, when there is history. */
  usual?: UsualStartup
}

/** Where the startup is: the phase under way (and its time left) and, with history, when it should be ready. */
export type StartupStatus =
  | { phase: CurrentPhase; phaseLeftMs?: number; eta?: Eta }
  /** No phase under way yet: only what earlier runs took. */
  | { phase?: undefined; eta: Eta }

export class StartupProfile {
  private readonly tracker: PhaseTracker
  /** When the engine's own ready line was read. */
  private readyLineAt: number | undefined

  constructor(private readonly opts: ProfileOptions = {}) {
    this.tracker = new PhaseTracker({ engine: opts.engine, startedAt: opts.startedAt })
  }

  /** The fatal line to quote once one is seen (the wait ends on it): the first cause, else the first failure. */
  get fatal(): FatalMatch | undefined {
    return this.tracker.fatal()
  }

  get engine(): Engine | undefined {
    return this.tracker.engine
  }

  /** One line of the server's log (its number in the file, when known), read at `at`: returns what it told. */
  line(text: string, at: number, lineNumber?: number): TrackerEvent[] {
    return this.say(this.tracker.feed(text, at, lineNumber), at)
  }

  /** A line written before the wait began (a server started elsewhere): it tells the phases so far, never a failure. */
  earlier(text: string, at: number, lineNumber: number): TrackerEvent[] {
    return this.say(this.tracker.feed(text, at, lineNumber, { fatal: false }), at)
  }

  /** A model-list body's JSON from the server: `owned_by` can name the engine. */
  models(json: unknown): TrackerEvent[] {
    const engine = this.tracker.engine === undefined ? engineOfModelList(json) : undefined
    return engine === undefined ? [] : this.say(this.tracker.setEngine(engine))
  }

  /** Where the startup is, for a still-waiting line; undefined while neither a phase nor earlier runs tell. */
  status(now: number, elapsedMs: number): StartupStatus | undefined {
    const phase = this.tracker.current(now)
    if (phase === undefined) {
      return this.opts.usual && { eta: eta({ inPhaseMs: 0, elapsedMs }, this.opts.usual) }
    }
    const left = phase.progress === undefined ? undefined : phaseLeftMs(phase.progress, now)
    const against =
      this.opts.usual &&
      eta({ phase: phase.name, inPhaseMs: phase.inPhaseMs, phaseLeftMs: left, elapsedMs }, this.opts.usual)
    return { phase, phaseLeftMs: left, eta: against }
  }

  /**
   * When the server is expected ready, for the probe schedule: when its ready line was read, else going by the
   * phase under way in its log (its progress, and what earlier runs took for it and the phases after it);
   * undefined while neither tells (the schedule then goes by how long earlier runs answered "loading").
   */
  readyAt(now: number): number | undefined {
    if (this.readyLineAt !== undefined) return this.readyLineAt
    const usual = this.opts.usual
    const phase = this.tracker.current(now)
    if (usual === undefined || phase === undefined || !usual.order.includes(phase.name)) return undefined
    const left = phase.progress === undefined ? undefined : phaseLeftMs(phase.progress, now)
    const ms = readyInMs({ phase: phase.name, inPhaseMs: phase.inPhaseMs, phaseLeftMs: left, elapsedMs: 0 }, usual)
    if (ms === undefined) return undefined
    if (ms > 0) return now + ms
    // Past what earlier runs took for the last phase: it was expected when that ended, and the schedule backs off.
    return Math.min(now, now - phase.inPhaseMs + (usual.phaseSeconds.get(phase.name) ?? 0) * 1000)
  }

  /**
   * When the engine's ready line was written, on the clock's scale: its own stamp where its lines have one (mapped
   * by the earliest read, so never later than the read), else when it was read; undefined while not seen.
   */
  readyLineTime(): number | undefined {
    return this.tracker.readyTime()
  }

  /** The engine's ready line has been read. */
  get readyLineSeen(): boolean {
    return this.readyLineAt !== undefined
  }

  /** The wait is over: the phases, the one under way ended at `at`. */
  finish(at: number): PhaseTiming[] {
    this.tracker.finish(at)
    return this.tracker.timings()
  }

  /** The engine's name for people, when known. */
  get label(): string | undefined {
    return this.engine === undefined ? undefined : engineLog(this.engine).label
  }

  /** `at`: when the line that gave the events was read (the ready line's moment, once the tracker has seen it). */
  private say(events: TrackerEvent[], at?: number): TrackerEvent[] {
    if (at !== undefined && this.tracker.ready) this.readyLineAt ??= at
    return events
  }
}
