/**
 * The server as a process: launched by `start`, followed by `pid`, or known only by its `log-file`. The gate
 * imports this module then and only then: it is a chunk of the bundle of its own, so a plain wait (a URL, a model)
 * neither compiles nor holds it (about 40 KB of the action's own code; `npm run bench -- --only startup`).
 */
import { envReport } from '../../server/env-report.js'
import { gpuSnapshot, memoryHeldBy } from '../../gpu/nvidia-smi.js'
import { LogFollower } from '../../server/log-follower.js'
import { isDockerProxy, listenerOwnership, localPort, processTree } from '../../server/port-owner.js'
import { preflight, preflightVerdict } from '../../server/preflight.js'
import {
  attachServer,
  newLogFile,
  resolvePid,
  serverEnv,
  type ServerProcess,
  startServer
} from '../../server/process.js'
import {
  dockerProxyText,
  gpuBusyText,
  gpuUnavailableText,
  portBusyText,
  wrongServerText
} from '../../report/lifecycle-report.js'
import { gateLines } from '../../report/progress.js'
import type { Settings } from '../../inputs/settings.js'
import type { Halt } from '../../facts/halt.js'
import type { GateOutcome, ServerFacts, TargetOutcome } from '../../facts/outcome.js'
import type { Deps } from '../deps.js'
import type { LaunchedServer, ServerSeam } from './seam.js'

/** The process seam for these settings; a `pid` file is read now, so that a bad one is an input error and nothing runs. */
export function processServer(settings: Settings, deps: Deps): ServerSeam {
  const pid = settings.pid === undefined ? undefined : resolvePid(settings.pid)
  return {
    preflight: async () => (settings.start === undefined ? undefined : beforeStart(settings, deps)),
    launch: () => launched(settings, pid, deps)
  }
}

/**
 * Before `start` launches anything: a port already held ends the wait at once (`port-busy`), naming the holder;
 * other processes on the server's GPUs are a warning, or with `gpu-check: fail` end it (`gpu-busy`).
 */
export async function beforeStart(settings: Settings, deps: Deps): Promise<GateOutcome | undefined> {
  const start = deps.startedAt ?? deps.clock.now()
  const found = await preflight(settings.portCheck ? settings.targets.map((t) => t.url) : [], settings.gpuCheck, {
    env: deps.env
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
  const results = settings.targets.map(({ url }): TargetOutcome => ({
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
function launched(settings: Settings, pid: number | undefined, deps: Deps): LaunchedServer {
  const logFile = settings.logFile ?? (settings.start !== undefined ? newLogFile(deps.env) : undefined)
  const server = launch(settings, pid, logFile, deps)
  const facts: ServerFacts = { pid: server?.pid, logFile }
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
              fromStart: settings.start !== undefined,
              skipBytes: server?.logOffset,
              secrets: settings.secrets,
              earlier
            })),
    // A server started elsewhere has long since started: its environment can be read at once, while it still runs.
    beforeWait: () => {
      if (pid !== undefined) reportEnvironment(settings, server, facts, deps)
    },
    // Ready means the watched server answered: an answer on a local port from anyone else is not its readiness.
    whoAnswered: (results) => {
      const wrong = server === undefined || !settings.portCheck ? undefined : foreignAnswer(settings, server.pid, deps)
      if (wrong === undefined) return results
      return results.map((r): TargetOutcome =>
        r.ready && localPort(r.url) === wrong.port
          ? { ...r, ready: false, reason: 'wrong-server', halt: wrong.halt }
          : r
      )
    },
    afterWait: async (ready, readyAt) => {
      if (ready && server?.startedAt !== undefined) facts.startupMs = readyAt - server.startedAt
      if (ready && server !== undefined) facts.gpuMemoryMiB = await gpuMemoryOf(server.pid, deps)
      if (pid === undefined) reportEnvironment(settings, server, facts, deps)
      if (!ready && log !== undefined && settings.logLines > 0) {
        facts.logTail = log.tail()
        if (facts.logTail === undefined) deps.log(gateLines.noLog(log.path))
      }
    },
    release: () => server?.release()
  }
}

function launch(
  settings: Settings,
  pid: number | undefined,
  logFile: string | undefined,
  deps: Deps
): ServerProcess | undefined {
  if (settings.start !== undefined && logFile !== undefined) {
    const server = startServer(settings.start, logFile, serverEnv(deps.env), deps.clock)
    deps.log(gateLines.started(server.pid, logFile))
    return server
  }
  if (pid === undefined) return undefined
  const server = attachServer(pid, deps.clock)
  deps.log(gateLines.watching(pid, logFile))
  return server
}

/**
 * The first local port of the URLs whose listening socket belongs to neither the watched process nor its
 * descendants (Linux: the socket's inode among their file descriptors), as the halt that ends the wait. Unknown
 * (no /proc), a holder this user cannot see, or a docker-proxy (a container's published port: the proxy, not the
 * `docker run` the gate watches, holds it) is not held against the server.
 */
function foreignAnswer(settings: Settings, pid: number, deps: Deps): { port: number; halt: Halt } | undefined {
  for (const port of new Set(settings.targets.map((t) => localPort(t.url)))) {
    if (port === undefined) continue
    const o = listenerOwnership(port, pid)
    if (o.kind !== 'foreign') continue
    const holders = o.listeners.flatMap((l) => l.holders)
    if (holders.length === 0) continue
    if (holders.every((h) => isDockerProxy(h.command))) {
      deps.debug?.(dockerProxyText(o, pid))
      continue
    }
    return { port, halt: { reason: 'wrong-server', detail: wrongServerText(o, pid) } }
  }
  return undefined
}

/** The GPU memory the server's processes hold (nvidia-smi), or undefined without a reading. */
async function gpuMemoryOf(pid: number, deps: Deps): Promise<number | undefined> {
  const snapshot = await gpuSnapshot({ env: deps.env, timeoutMs: 5_000 })
  if (snapshot.kind === 'unavailable') {
    deps.debug?.(gpuUnavailableText(snapshot.why, snapshot.detail))
    return undefined
  }
  return memoryHeldBy(snapshot, processTree('/proc', pid)).mib
}

function reportEnvironment(
  settings: Settings,
  server: ServerProcess | undefined,
  facts: ServerFacts,
  deps: Deps
): void {
  if (settings.envReport.length === 0 || server === undefined) return
  const environ = server.environ()
  if (environ === undefined) facts.envUnreadable = true
  else facts.env = envReport(settings.envReport, environ, settings.secrets)
  gateLines.environment(facts).forEach((line) => deps.log(line))
}
