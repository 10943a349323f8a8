/** What a wait found, as data: the gate returns it, the conclusion decides from it, the report words it. */
import type { Outcome } from './wait.js'
import type { EnvEntry, WorkerEnv } from '../server/env-report.js'
import type { NcclView, SetInside } from '../server/nccl-log.js'
import type { LogLine } from '../server/log-follower.js'
import type { Engine } from '../engines/index.js'
import type { PhaseTiming } from '../startup/phases.js'
import type { SmokeResult } from '../smoke/measure.js'

export type Placement = 'gpu' | 'partial' | 'cpu'

/** Where the model is once ready, in words: `warning` when it is not where the server was meant to put it. */
export interface PlacementFacts {
  placement: Placement
  /** What tells it, e.g. `offloaded 2/5 layers to GPU (log line 41)`. */
  evidence: string
  warning?: string
}

/** A node as the count names it, and when its last expected rank joined. */
export interface NodeJoin {
  host: string
  ranks: number
  /** Since the server's start, once the node held its share of the ranks; undefined while it does not. */
  joinedMs?: number
}

/** What the gate knows about the server process and its log, beside the wait itself. */
export interface ServerFacts {
  pid?: number
  /** With `container`: the container's id (its name until the engine has it). */
  container?: string
  /** With `container`: the engine's socket, for the job-end step. */
  dockerSocket?: string
  /** With `host`: the ssh destination it runs on, for the job-end step. */
  host?: string
  /** With `host` of several lines: the other nodes' processes, for the job-end step. */
  nodes?: Array<{ host: string; pid: number; startTicks?: number; gpuMemoryMiB?: number; env?: EnvEntry[] }>
  /** With `env-report` across nodes: each variable whose value is not the same on every node, in words. */
  nodeEnvDiffers?: string[]
  /** Across several nodes, or with `ranks`: how many were expected, whose lines counted them, each node's ranks and time to join. */
  ranks?: { expected?: number; nodes: NodeJoin[]; countedBy?: 'engine' | 'nccl' }
  /** With `start`: its start time (/proc stat field 22), boot and run marker: the job-end step stops by them. */
  startTicks?: number
  bootId?: string
  runMarker?: string
  logFile?: string
  /** From the process's own start to readiness. */
  startupMs?: number
  /** Once ready, the GPU memory its processes hold (nvidia-smi); undefined without a reading. */
  gpuMemoryMiB?: number
  /** With that reading: how many GPUs nvidia-smi showed. */
  gpusPresent?: number
  /** `env-report`, values already masked; undefined when not asked for. */
  env?: EnvEntry[]
  /** `env-report` was asked for, and the server's environment could not be read (it had exited, or no /proc). */
  envUnreadable?: boolean
  /** Whose environment `env` is: the listener on the URL's port (`envPort`), else the launched process. */
  envPid?: number
  envPort?: number
  /** The listener is not the launched process (a shell, `srun`): the launched one's report, the names that differ. */
  launchedEnv?: { pid: number; env?: EnvEntry[]; differs: string[] }
  /** Once ready, the server's other processes that hold GPU memory (nvidia-smi): each one's `env-report`, by pid. */
  gpuWorkers?: WorkerEnv[]
  /** With `env-report`: what NCCL's own lines in the log (NCCL_DEBUG=INFO) say it took from the environment. */
  nccl?: NcclView & {
    /** `env-report`'s NCCL variables set in a process, that no NCCL line says was taken. */
    unconfirmed: string[]
    /** What NCCL took that a GPU worker's environment at its start did not hold. */
    setInside?: SetInside[]
  }
  /** The log's last lines, on failure; undefined when the log does not exist. */
  logTail?: LogLine[]
}

/** This run against the earlier ones with its history key (src/wait/run-history.ts finds them). */
export interface RunFindings {
  /** The median startup of the last ready runs with this history key. */
  expectedSeconds?: number
  regressionPercent?: number
  /** In words, when the startup was slower than the threshold allows. */
  regression?: string
  /** In words, when the environment differs from the previous run's. */
  drift?: string
  /** The median smoke-test decode rate of the earlier runs, when they measured one. */
  usualDecodeTokensPerSecond?: number
  /** In words, when the smoke test's decode rate was lower than the throughput threshold allows. */
  throughputRegression?: string
  /** Why no earlier run compares with this one, when there are earlier runs of the key on another set-up. */
  unlike?: string
  /** The `env-report` variables changed since the previous comparable run (a credential's values `***`). */
  envChanges?: Array<{ name: string; was: string | null; now: string | null }>
  /** This run against the earlier comparable ones, for a workflow to act on. */
  verdict?: RunVerdict
  /** The last comparable runs and this one, oldest first, for the summary's chart. */
  trend?: TrendPoint[]
  notices: string[]
}

/** One run of the trend, oldest first; the last is this one. */
export interface TrendPoint {
  startupSeconds?: number
  decodeTokensPerSecond?: number
  /** Names of the `env-report` variables that changed since the run before. */
  envChanged: string[]
}

/** The `verdict` output: the first that holds, in this order (a ready run; `not-ready` otherwise). */
type RunVerdict = 'slower-decode' | 'slower-startup' | 'environment-changed' | 'no-baseline' | 'ok'

/** The startup profile from the server's log, and this run against earlier ones (the history's findings). */
export type ProfileFacts = Omit<RunFindings, 'notices'> & {
  /** The engine's name for people ("vLLM"), when known. */
  engineLabel?: string
  phases: PhaseTiming[]
  /** The median seconds of each phase in earlier runs. */
  usualPhaseSeconds?: ReadonlyMap<string, number>
}

/** One endpoint's wait, and its smoke test once ready (`smoke-test`). */
export type TargetOutcome = Outcome & {
  url: URL
  /** The engine this endpoint was judged as (`engine`, its own model list, or the server's log), when known. */
  engine?: Engine
  smoke?: SmokeResult
  /** Once ready: where the model is (GPU, partly, CPU), where something tells it. */
  placement?: PlacementFacts
  /** In a fleet of servers (one per endpoint): this endpoint's own server, and its own startup profile. */
  server?: ServerFacts
  profile?: ProfileFacts
}

/** The whole wait: the scalar fields describe one endpoint (see `reportedEndpoint`), `results` all of them. */
export type GateOutcome = TargetOutcome & { results: TargetOutcome[] }
