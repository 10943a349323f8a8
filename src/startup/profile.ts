/** The startup profile of one wait: log lines in; the engine, phases, a fatal line and the time to go out, as data. */
import { engineLog, engineOfModelList } from '../engines/log-markers.js'
import type { Engine } from '../engines/index.js'
import { engineVersionIn } from './engine-version.js'
import { type Eta, eta, type UsualStartup, phaseLeftMs } from './eta.js'
import { type CurrentPhase, type FatalMatch, type PhaseTiming, PhaseTracker, type TrackerEvent } from './phases.js'

export interface ProfileOptions {
  engine?: Engine
  startedAt?: number
  usual?: UsualStartup
}

export type StartupStatus = { phase: CurrentPhase; phaseLeftMs?: number; eta?: Eta } | { phase?: undefined; eta: Eta }

export class StartupProfile {
  private readonly tracker: PhaseTracker
  private readyLineAt: number | undefined
  private version: string | undefined

  constructor(private readonly opts: ProfileOptions = {}) {
    this.tracker = new PhaseTracker({ engine: opts.engine, startedAt: opts.startedAt })
  }

  get fatal(): FatalMatch | undefined {
    return this.tracker.fatal()
  }

  get engine(): Engine | undefined {
    return this.tracker.engine
  }

  line(text: string, at: number, lineNumber?: number): TrackerEvent[] {
    this.version ??= engineVersionIn(text, this.engine)
    return this.say(this.tracker.feed(text, at, lineNumber), at)
  }

  /** A line written before the wait began (a server started elsewhere): it tells the phases so far, never a failure. */
  earlier(text: string, at: number, lineNumber: number): TrackerEvent[] {
    this.version ??= engineVersionIn(text, this.engine)
    return this.say(this.tracker.feed(text, at, lineNumber, { fatal: false }), at)
  }

  /** `owned_by` can name the engine. */
  models(json: unknown): TrackerEvent[] {
    const engine = this.tracker.engine === undefined ? engineOfModelList(json) : undefined
    return engine === undefined ? [] : this.say(this.tracker.setEngine(engine))
  }

  /** An engine the endpoint's answers named otherwise (its own words, header or route), where the log has not. */
  answered(engine: Engine): TrackerEvent[] {
    return this.tracker.engine === undefined ? this.say(this.tracker.setEngine(engine, 'answers')) : []
  }

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

  /** When the ready line was written: its stamp mapped by the earliest read, else when read. */
  readyLineTime(): number | undefined {
    return this.tracker.readyTime()
  }

  get readyLineSeen(): boolean {
    return this.readyLineAt !== undefined
  }

  finish(at: number): PhaseTiming[] {
    this.tracker.finish(at)
    return this.tracker.timings()
  }

  /** As the engine's log printed it, where it does. */
  get engineVersion(): string | undefined {
    return this.version
  }

  get label(): string | undefined {
    return this.engine === undefined ? undefined : engineLog(this.engine).label
  }

  private say(events: TrackerEvent[], at?: number): TrackerEvent[] {
    if (at !== undefined && this.tracker.ready) this.readyLineAt ??= at
    return events
  }
}
