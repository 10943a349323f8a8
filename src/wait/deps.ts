/** What the gate is given (a front end's callbacks, its clock), and what the endpoints of one server share. */
import type { NoteKind } from '../report/annotation-titles.js'
import type { LogFollower } from '../server/log-follower.js'
import type { PortPoller, PortWatch } from '../http/port-watch.js'
import type { StartupProfile } from '../startup/profile.js'
import type { Settings } from '../inputs/settings.js'
import type { Clock } from '../runtime/clock.js'
import type { BodyCollector } from '../runtime/memory.js'
import type { ReadinessPace } from './engine-readiness.js'
import type { RankCount } from './ranks.js'
import type { Halt } from '../facts/halt.js'
import type { TrackerEvent } from '../startup/phases.js'
import type { Halter } from '../runtime/halter.js'
import type { ServerFacts, TargetOutcome } from '../facts/outcome.js'

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
  /** Where `history-file: actions-cache` restored the history before the wait, or why it could not. */
  cachedHistory?: { path?: string; notice?: string }
  /** `wait-for-model check`: one probe per endpoint within its `timeout`, no port watch, no second probe. */
  once?: boolean
  /** Told at once when server `i` (of the `url` lines' order) is launched, before its wait: what it is known by. */
  launched?(i: number, facts: ServerFacts): void
}

/** The deps with their defaults resolved, once. */
export type Deps = Required<Pick<GateDeps, 'clock' | 'log' | 'warn' | 'notice' | 'env'>> & GateDeps

export const withDefaults = (gateDeps: GateDeps): Deps => ({
  ...gateDeps,
  warn: gateDeps.warn ?? gateDeps.log,
  notice: gateDeps.notice ?? gateDeps.log,
  env: gateDeps.env ?? process.env
})

/** One server's wait, as its endpoints share it. */
export interface ServerWait {
  settings: Settings
  /** The server's `start` line, when this step starts it. */
  start?: string
  /** Collects what the answers' bodies leave, for every HTTP client of every endpoint. */
  collector: BodyCollector
  deps: Deps
  ports: PortPoller
  /** The server's own watch of the port a URL (as probed) leads to, where the poller cannot see it (a forward's). */
  portWatch?(url: URL): PortWatch | undefined
  log?: LogFollower
  profile: StartupProfile
  /** The engine's paced readiness routes (SGLang's /health), paced for all of the server's endpoints at once. */
  pace: ReadinessPace
  /** Says startup lines with the time since the wait began. */
  sayStartup(events: TrackerEvent[]): void
  /** Where the server's startup is at `now`, for a still-waiting line; undefined while nothing tells. */
  progressAt(now: number): string | undefined
  /** One server across several nodes: its ranks, counted from every node's lines in its log. */
  ranks?: RankCount
  /** Resolves once the engine's own ready line is read (or when `signal` aborts); undefined without a log. */
  readyLine?(signal: AbortSignal): Promise<void>
  /** Resolves at the next new lines of the log (or when `signal` aborts); undefined without a log. */
  logLines?(signal: AbortSignal): Promise<void>
}

/** One endpoint's part of its server's wait: its halter, its lines' prefix, and where its end is told. */
export interface EndpointPart {
  halter: Halter<Halt>
  prefix: string
  settled(outcome: Pick<TargetOutcome, 'url' | 'ready' | 'reason'>): void
}
