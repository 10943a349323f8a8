/**
 * What the gate does for a server, one implementation per kind: a process (process.ts), a container (container.ts)
 * or none (`noServer`); and the stop at job end (`savedServer`), from the entry the main step saved.
 */
import type { LogFollower, LogLine } from '../../server/log-follower.js'
import type { PortWatch } from '../../http/port-watch.js'
import type { ServerProcess } from '../../server/process.js'
import { type JobEnd, type StopDeps, stopAtJobEnd, stopContainerAtJobEnd } from '../../server/stop.js'
import type { ServerEndState } from '../../server/job-end.js'
import { stopRemoteNodes } from '../../server/remote-stop.js'
import type { GateOutcome, ServerFacts, TargetOutcome } from '../../facts/outcome.js'
import type { Settings } from '../../inputs/settings.js'
import type { Deps } from '../deps.js'
import { noLeftoverAnswers } from './leftover.js'

/** One kind of server, for one wait's settings, before anything has started. */
export interface ServerKind {
  /** Before anything launches: the outcome refusing the wait (`port-busy`, `gpu-busy`); undefined to go on. */
  preflight(): Promise<GateOutcome | undefined>
  /** Starts the server or attaches to it, and says so: what the wait follows from then on. */
  launch(): LaunchedServer
  /** Nothing will be launched (a refusal, a cancel): what the pre-flight opened is closed. */
  abandon(): void
}

/** The server as the wait follows it, from `launch` until `release`. */
export interface LaunchedServer {
  /** The server's facts, filled in as the wait goes; the job-end state is read from them. */
  readonly facts?: ServerFacts
  /** When the server itself started, on the clock's scale (not when the wait began); undefined when unknown. */
  readonly startedAt?: number
  /** The process whose exit ends the wait (`watchServer`); undefined when none is watched. */
  readonly watched?: ServerProcess
  /** Its log, from this run's first line or from now on (earlier lines to `earlier`); called before `beforeWait`. */
  followLog(earlier: (lines: LogLine[]) => void): LogFollower | undefined
  /** Before the waiting line: what is read while a server started elsewhere runs (`pid`: its `env-report`). */
  beforeWait(): void
  /** With `port-check`: each ready endpoint whose port another process holds made `wrong-server` (none: a leftover's). */
  whoAnswered(results: TargetOutcome[]): TargetOutcome[]
  /** The wait is over (before any smoke test): startup time, GPU memory, `env-report`, a failed wait's log tail. */
  afterWait(ready: boolean, readyAt: number): Promise<void>
  /** Stops following the server (its process, its timers); the server keeps running. */
  release(): void
  /** Where an endpoint is asked, where not at its own URL (a remote loopback's, through a forwarded port). */
  probeUrl?(url: URL): URL
  /** The watch of the port an endpoint (as probed) leads to, where the local one cannot see it (a forwarded port). */
  portWatch?(url: URL): PortWatch | undefined
}

/** A server the main step saved for the job-end step to stop. */
export interface SavedServer {
  /** The process that the warning of a stop that fails names, where the state holds one. */
  readonly pid?: number
  /** Stops it and tells how, as a record (a cancel hurries it: SIGKILL at once); throws only for its own error. */
  stop(deps: JobEndDeps): Promise<JobEnd>
}

/** What the post step gives every stop: its clock, its reading of the GPUs, its cancel. */
type JobEndDeps = Required<Pick<StopDeps, 'clock' | 'gpu' | 'cancel'>>

/**
 * No server at all (a URL and a model): nothing to check before, launch, follow, read or release; with `port-check`,
 * a ready answer on a local port from a server an earlier job left running is `leftover-server`.
 */
export const noServer = (settings: Settings, deps: Deps): ServerKind => ({
  preflight: async () => undefined,
  launch: () => ({
    followLog: () => undefined,
    beforeWait: () => undefined,
    whoAnswered: (results) => (settings.portCheck ? noLeftoverAnswers(results, deps) : results),
    afterWait: async () => undefined,
    release: () => undefined
  }),
  abandon: () => undefined
})

/** A saved entry, to the stop of its kind. */
export function savedServer(state: ServerEndState): SavedServer {
  // a process `start` launched or `pid` gave: signalled by its pid, only while it is still the process recorded then
  if (state.kind === 'process') return { pid: state.pid, stop: (deps) => stopAtJobEnd(state, deps) }
  // a process on another host: stopped there, over ssh, by its run marker and start time
  if (state.kind === 'remote') return { pid: state.pid, stop: (deps) => stopRemoteNodes(state, deps) }
  // a container: stopped through its engine (`docker stop`); a cancel makes the engine kill it at once (stop?t=0,
  // also mid-stop), told as a cancelled stop
  return { stop: (deps) => stopContainerAtJobEnd(state, deps) }
}
