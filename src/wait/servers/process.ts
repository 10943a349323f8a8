/** The server as a process: launched by `start`, followed by `pid`, or known only by its `log-file`. */
import { envDifferences, envReport, servingProcess, type WorkerEnv } from '../../server/env-report.js'
import { gpuSnapshot, type HeldMemory, memoryHeldBy } from '../../gpu/nvidia-smi.js'
import { procEnviron } from '../../server/proc.js'
import { LogFollower } from '../../server/log-follower.js'
import { localPort, processTree } from '../../server/port-owner.js'
import { preflight, preflightVerdict, withStartGpus } from '../../server/preflight.js'
import { bootId, RUN_MARKER } from '../../server/guard.js'
import {
  attachServer,
  newLogFile,
  newRunMarker,
  resolvePid,
  serverEnv,
  type ServerProcess,
  startServer
} from '../../server/process.js'
import {
  dockerProxyText,
  elsewhereText,
  gpuBusyText,
  gpuUnavailableText,
  portBusyText,
  wrongServerText
} from '../../report/lifecycle-report.js'
import { gateLines } from '../../report/progress.js'
import type { Server, Settings } from '../../inputs/settings.js'
import type { Halt } from '../../facts/halt.js'
import type { GateOutcome, ServerFacts, TargetOutcome } from '../../facts/outcome.js'
import type { Deps } from '../deps.js'
import type { LaunchedServer, ServerKind } from './kind.js'
import { onlyWatchedAnswers } from './who-answered.js'

/** A process, for these settings; a `pid` file is read now, so that a bad one is an input error and nothing runs. */
export function processServer(server: Server, settings: Settings, deps: Deps): ServerKind {
  const pid = server.pid === undefined ? undefined : resolvePid(server.pid)
  return {
    preflight: async () => (server.start === undefined ? undefined : beforeStart(server, settings, deps)),
    launch: () => launched(server, settings, pid, deps),
    abandon: () => undefined
  }
}

/** Before `start`: a port already held refuses the wait (`port-busy`); busy GPUs warn, or refuse (`gpu-busy`). */
export async function beforeStart(server: Server, settings: Settings, deps: Deps): Promise<GateOutcome | undefined> {
  const start = deps.startedAt ?? deps.clock.now()
  const found = await preflight(settings.portCheck ? server.targets.map((t) => t.url) : [], settings.gpuCheck, {
    // the GPUs the command pins its server to (CUDA_VISIBLE_DEVICES=N …, docker run --gpus device=N), else the step's
    env: withStartGpus(deps.env, server.start),
    gpuTimeoutMs: timeLeft(settings, deps, start),
    signal: deps.cancel?.signal
  })
  const verdict = preflightVerdict(found, settings.gpuCheck)
  const gpu = found.gpu
  if (gpu.kind === 'unavailable') deps.debug?.(gpuUnavailableText(gpu.why, gpu.detail))
  if (verdict.warnGpu && gpu.kind === 'busy') deps.warn(gpuBusyText(gpu.apps, gpu.gpus), 'gpu-busy')
  if (verdict.refuse === undefined) return undefined
  const halt: Halt = {
    reason: verdict.refuse,
    detail:
      verdict.refuse === 'port-busy' && found.portBusy !== undefined
        ? portBusyText(found.portBusy)
        : gpu.kind === 'busy'
          ? gpuBusyText(gpu.apps, gpu.gpus)
          : verdict.refuse
  }
  const results = server.targets.map(({ url }): TargetOutcome => ({
    ready: false,
    reason: halt.reason,
    elapsedMs: deps.clock.now() - start,
    attempts: 0,
    models: [],
    halt,
    timeline: [],
    url
  }))
  // no history either: a wait that started nothing says nothing of how long the server takes
  return { ...results[0], results }
}

/** Starts the server (`start`) or follows one started elsewhere (`pid`); without either, only its log. */
function launched(own: Server, settings: Settings, pid: number | undefined, deps: Deps): LaunchedServer {
  const logFile = own.logFile ?? (own.start !== undefined ? newLogFile(deps.env) : undefined)
  const runMarker = own.start === undefined ? undefined : newRunMarker()
  const server = launch(own.start, pid, logFile, runMarker, deps)
  const facts: ServerFacts = { pid: server?.pid, logFile }
  // what the job-end step stops by: this process, as it started (or as first watched), and whatever carries the marker
  if (server !== undefined) Object.assign(facts, { startTicks: server.startTicks, bootId: bootId(), runMarker })
  let log: LogFollower | undefined
  return {
    facts,
    startedAt: server?.startedAt,
    watched: server,
    followLog: (earlier) =>
      (log =
        logFile === undefined
          ? undefined
          : new LogFollower(logFile, settings.logLines, {
              fromStart: own.start !== undefined,
              skipBytes: server?.logOffset,
              secrets: settings.secrets,
              earlier
            })),
    // A server started elsewhere has long since started: its environment can be read at once, while it still runs.
    beforeWait: () => {
      if (pid !== undefined) reportEnvironment(settings, own, server, facts, deps)
    },
    // Ready means the watched server answered: an answer from anyone else is not its readiness, whether it came on
    // the URL's own port or at the end of a redirect (the origin that answered is the one checked).
    whoAnswered: (results) => {
      if (server === undefined || !settings.portCheck) return results
      return onlyWatchedAnswers(
        results,
        {
          family: () => processTree('/proc', server.pid),
          foreign: (o, redirect) => wrongServerText(o, server.pid, redirect),
          elsewhere: (redirect) => elsewhereText(redirect, server.pid),
          proxy: (o) => dockerProxyText(o, server.pid)
        },
        deps
      )
    },
    afterWait: async (ready, readyAt) => {
      if (ready && server?.startedAt !== undefined) facts.startupMs = readyAt - server.startedAt
      const gpu =
        ready && server !== undefined ? await gpuMemoryOf(settings, () => processTree('/proc', server.pid), deps) : {}
      facts.gpuMemoryMiB = gpu.held?.mib
      if (gpu.gpusPresent !== undefined) facts.gpusPresent = gpu.gpusPresent
      reportEnvironment(settings, own, server, facts, deps, pid !== undefined)
      if (gpu.held !== undefined) tellWorkers(settings, facts, deps, gpu.held)
      if (!ready && log !== undefined) {
        facts.logTail = log.tail()
        if (facts.logTail === undefined) deps.log(gateLines.noLog(log.path))
      }
    },
    release: () => server?.release()
  }
}

function launch(
  start: string | undefined,
  pid: number | undefined,
  logFile: string | undefined,
  runMarker: string | undefined,
  deps: Deps
): ServerProcess | undefined {
  if (start !== undefined && logFile !== undefined) {
    // tagged, so that every process it starts is known as its own, also one that leaves its process group
    const env = { ...serverEnv(deps.env), ...(runMarker === undefined ? {} : { [RUN_MARKER]: runMarker }) }
    const server = startServer(start, logFile, env, deps.clock)
    deps.log(gateLines.started(server.pid, logFile))
    return server
  }
  if (pid === undefined) return undefined
  const server = attachServer(pid, deps.clock)
  deps.log(gateLines.watching(pid, logFile))
  return server
}

/** The time left before the wait's deadline (`timeout` from `start`), in ms. */
const timeLeft = (settings: Settings, deps: Deps, start: number): number =>
  Math.max(0, settings.timeoutMs - (deps.clock.now() - start))

/** The GPU memory the server's processes hold, within the deadline and ended by a cancel (a hung nvidia-smi). */
export async function gpuMemoryOf(
  settings: Settings,
  family: () => Set<number>,
  deps: Deps
): Promise<{ held?: HeldMemory; gpusPresent?: number }> {
  const timeoutMs = Math.min(5_000, timeLeft(settings, deps, deps.startedAt ?? deps.clock.now()))
  const snapshot = await gpuSnapshot({ env: deps.env, timeoutMs, signal: deps.cancel?.signal })
  if (snapshot.kind === 'unavailable') {
    deps.debug?.(gpuUnavailableText(snapshot.why, snapshot.detail))
    return {}
  }
  return { held: memoryHeldBy(snapshot, family()), gpusPresent: snapshot.gpus.length }
}

/**
 * `env-report` of each process of the server that holds GPU memory, the served one apart: with tensor parallelism
 * these run NCCL, and the API process that listens does not.
 */
export function tellWorkers(settings: Settings, facts: ServerFacts, deps: Deps, held: HeldMemory): void {
  if (settings.envReport.length === 0 || facts.env === undefined) return
  const pids = [...new Set(held.apps.map((a) => a.pid))].filter((p) => p !== facts.envPid).sort((a, b) => a - b)
  if (pids.length === 0) return
  facts.gpuWorkers = pids.map((pid): WorkerEnv => {
    const environ = procEnviron(pid)
    return { pid, env: environ === undefined ? undefined : envReport(settings.envReport, environ, settings.secrets) }
  })
  gateLines.workers(facts).forEach((line) => deps.log(line))
}

/**
 * `env-report` of the process listening on the URL's port, beside the launched one's where that is another, else the
 * launched one's; said again after the wait for a `pid` whose listener turned out to be another process.
 */
function reportEnvironment(
  settings: Settings,
  own: Server,
  server: ServerProcess | undefined,
  facts: ServerFacts,
  deps: Deps,
  again = false
): void {
  if (settings.envReport.length === 0 || server === undefined) return
  const ports = [...new Set(own.targets.flatMap((t) => localPort(t.url) ?? []))]
  const serving = servingProcess(server.pid, ports)
  const listener = serving?.pid === server.pid ? undefined : serving
  if (again && (listener === undefined || listener.pid === facts.envPid)) return
  const at = { pid: serving?.pid ?? server.pid, port: serving?.port }
  tellEnvironment(settings, facts, deps, { pid: server.pid, environ: server.environ() }, listener, at)
}

/** The environment report into the facts, and said (a listener's beside the launched one's). The container's too. */
export function tellEnvironment(
  { envReport: names, secrets }: Settings,
  facts: ServerFacts,
  deps: Deps,
  launched: { pid: number; environ?: Record<string, string> },
  listener: { environ?: Record<string, string> } | undefined,
  at: { pid?: number; port?: number }
): void {
  const environ = listener === undefined ? launched.environ : listener.environ
  const main = launched.environ
  Object.assign(facts, {
    env: environ === undefined ? undefined : envReport(names, environ, secrets),
    envUnreadable: environ === undefined ? true : undefined,
    envPid: at.pid,
    envPort: at.port,
    launchedEnv:
      listener === undefined
        ? undefined
        : {
            pid: launched.pid,
            env: main === undefined ? undefined : envReport(names, main, secrets),
            differs: main === undefined || environ === undefined ? [] : envDifferences(names, main, environ)
          }
  })
  gateLines.environment(facts).forEach((line) => deps.log(line))
}
