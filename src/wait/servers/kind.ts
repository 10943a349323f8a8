/**
 * What the gate does for a server, with one implementation per kind of server: a process (`start` launches it or
 * `pid` names it, or only its `log-file` is given: process.ts), a container (container.ts: it checks its ports and
 * GPUs before it starts, streams its log into a file the gate follows, has a set of processes, a start time and an
 * environment) and none at all (a URL and a model: `noServer`, below). The stop at job end is each kind's other
 * half (`savedServer`, below): the post step hands it the entry the main step saved.
 */
import type { LogFollower, LogLine } from '../../server/log-follower.js'
import type { ServerProcess } from '../../server/process.js'
import { type JobEnd, type StopDeps, stopAtJobEnd, stopContainerAtJobEnd } from '../../server/stop.js'
import type { ServerEndState } from '../../server/job-end.js'
import type { GateOutcome, ServerFacts, TargetOutcome } from '../../facts/outcome.js'

/** One kind of server, for one wait's settings, before anything has started. */
export interface ServerKind {
  /**
   * Before anything launches (a server `start` would launch): the outcome that refuses the wait (`port-busy`,
   * `gpu-busy`), having said what it found; undefined to go on.
   */
  preflight(): Promise<GateOutcome | undefined>
  /** Starts the server or attaches to it, and says so: what the wait follows from then on. */
  launch(): LaunchedServer
  /** Nothing will be launched (a refusal, a cancel, another endpoint's refusal): what the pre-flight opened is closed. */
  abandon(): void
}

/** The server as the wait follows it, from `launch` until `release`. */
export interface LaunchedServer {
  /**
   * What the outcome tells of the server, filled in as the wait goes (`beforeWait`, `afterWait`); the conclusion
   * reads the job-end step's state from it (`serverEndState`: the pid to stop, the log). Undefined: neither a server
   * nor a log to tell of.
   */
  readonly facts?: ServerFacts
  /** When the server itself started, on the clock's scale (not when the wait began); undefined when unknown. */
  readonly startedAt?: number
  /** The process whose exit ends the wait (`watchServer`); undefined when none is watched. */
  readonly watched?: ServerProcess
  /**
   * Its log, followed from this run's first line (a server just launched) or from now on (one started elsewhere,
   * whose lines so far go to `earlier`); undefined without a log. Called once, before `beforeWait`.
   */
  followLog(earlier: (lines: LogLine[]) => void): LogFollower | undefined
  /**
   * The log is open, and the waiting line comes next: what is read while a server started elsewhere still runs (a
   * process attached by `pid`: its environment, `env-report`, said here rather than after the wait).
   */
  beforeWait(): void
  /**
   * Every endpoint has settled: each ready one whose local port a process other than the server holds (with
   * `port-check`) is not ready but `wrong-server`. The others as they were.
   */
  whoAnswered(results: TargetOutcome[]): TargetOutcome[]
  /**
   * The wait is over (at `readyAt`, before any smoke test): once ready, the startup time and the GPU memory the
   * server holds; a launched server's environment (`env-report`); the log's tail of a wait that was not ready.
   */
  afterWait(ready: boolean, readyAt: number): Promise<void>
  /** Stops following the server (its process, its timers); the server keeps running. */
  release(): void
}

/** A server the main step saved for the job-end step to stop. */
export interface SavedServer {
  /** The process that the warning of a stop that fails names, where the state holds one. */
  readonly pid?: number
  /** Stops it (cancelling the post step hurries it: SIGKILL at once, GPU memory not waited for) and says how it went, as a record; throws only for an error of the stop's own. */
  stop(deps: JobEndDeps): Promise<JobEnd>
}

/** What the post step gives every stop: its clock, its reading of the GPUs, its cancel. */
type JobEndDeps = Required<Pick<StopDeps, 'clock' | 'gpu' | 'cancel'>>

/** No server at all (a URL and a model): nothing to check before, launch, follow, read or release. */
const nothing: LaunchedServer = {
  followLog: () => undefined,
  beforeWait: () => undefined,
  whoAnswered: (results) => results,
  afterWait: async () => undefined,
  release: () => undefined
}

export const noServer: ServerKind = {
  preflight: async () => undefined,
  launch: () => nothing,
  abandon: () => undefined
}

/** A saved entry, to the stop of its kind. */
export function savedServer(state: ServerEndState): SavedServer {
  // a process `start` launched: signalled by its pid, only while it is still the process recorded at launch
  if (state.kind === 'process') return { pid: state.pid, stop: (deps) => stopAtJobEnd(state, deps) }
  // a container: stopped through its engine (`docker stop`); a cancel makes the engine kill it at once (stop?t=0,
  // also mid-stop), told as a cancelled stop
  return { stop: (deps) => stopContainerAtJobEnd(state, deps) }
}
