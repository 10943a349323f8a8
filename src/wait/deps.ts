/** What the gate is given (a front end's callbacks, its clock), and what the wait of each endpoint shares. */
import type { NoteKind } from '../report/annotation-titles.js'
import type { LogFollower } from '../server/log-follower.js'
import type { PortPoller } from '../http/port-watch.js'
import type { StartupProfile } from '../startup/profile.js'
import type { Settings } from '../inputs/settings.js'
import type { Clock } from '../runtime/clock.js'
import type { BodyCollector } from '../runtime/memory.js'
import type { FirstProbe } from './first-probe.js'
import type { Halt } from '../facts/halt.js'
import type { TrackerEvent } from '../startup/phases.js'
import type { Halter } from '../runtime/halter.js'
import type { TargetOutcome } from '../facts/outcome.js'
import type { Outcome } from '../facts/wait.js'

export interface GateDeps {
  clock: Clock
  startedAt?: number
  /** Receives every progress line, already in words. */
  log(line: string): void
  /** Receives lines that deserve attention (the server stopped answering); defaults to `log`. */
  warn?(line: string, kind: NoteKind): void
  /** Halting it ends the run with reason=cancelled (the action and the CLI halt it on SIGINT, SIGTERM and SIGHUP). */
  cancel?: Halter<NodeJS.Signals>
  /** The step's environment: passed to the server `start` launches; RUNNER_TEMP holds its default log. */
  env?: NodeJS.ProcessEnv
  /** Receives one line per probe with what came back, for debugging. */
  debug?(line: string): void
  /** Receives notices (history is off); defaults to `log`. */
  notice?(line: string, kind: NoteKind): void
  /** Where `history-file: auto` keeps history for this front end, or why it cannot (see `defaultHistoryFile`). */
  defaultHistory?: { path?: string; notice?: string }
  /** `wait-for-model check`: one probe per endpoint within its `timeout`, no port watch, no second probe. */
  once?: boolean
  /** A target's client and first answer, where the caller sent the first probe (see first-probe.ts). */
  firstProbe?: FirstProbe
  /**
   * One endpoint of a fleet of servers (fleet.ts), each with its own wait: halting `stop` ends this one as the
   * fleet decides, and `settled` hears how it ended, before any smoke test.
   */
  member?: { stop: Halter<Halt>; settled(outcome: TargetOutcome): void }
}

/** The deps with their defaults resolved, once. */
export type Deps = Required<Pick<GateDeps, 'clock' | 'log' | 'warn' | 'notice' | 'env'>> & GateDeps

export const withDefaults = (gateDeps: GateDeps): Deps => ({
  ...gateDeps,
  warn: gateDeps.warn ?? gateDeps.log,
  notice: gateDeps.notice ?? gateDeps.log,
  env: gateDeps.env ?? process.env
})

/** What the wait of each endpoint shares: the fleet's one halter, port poller, log and startup profile. */
export interface Shared {
  settings: Settings
  /** Collects what the answers' bodies leave, for every HTTP client of every endpoint. */
  collector: BodyCollector
  firstProbe?: FirstProbe
  deps: Deps
  halter: Halter<Halt>
  ports: PortPoller
  log?: LogFollower
  profile: StartupProfile
  /** Says startup lines with the time since the wait began. */
  sayStartup(events: TrackerEvent[]): void
  /** Where the server's startup is at `now`, for a still-waiting line; undefined while nothing tells. */
  progressAt(now: number): string | undefined
  /** Resolves once the engine's own ready line is read (or when `signal` aborts); undefined without a log. */
  readyLine?(signal: AbortSignal): Promise<void>
  /** Resolves at the next new lines of the log (or when `signal` aborts); undefined without a log. */
  logLines?(signal: AbortSignal): Promise<void>
  /** When the server is expected ready, going by its log (see `StartupProfile.readyAt`). */
  readyAt(now: number): number | undefined
  /** How long earlier runs answered HTTP before they were ready (history). */
  usualAnsweringMs?: number
  /** A fleet's endpoint: what starts each of its lines (`[url] `); undefined for one endpoint. */
  prefix?: string
  /**
   * A fleet's endpoint: told its own end (not one the fleet halted), so that the fleet can end the others' waits
   * (one can no longer become ready, or enough are: `fleet-min-ready`); undefined for one endpoint.
   */
  settled?(url: URL, outcome: Outcome): void
}
