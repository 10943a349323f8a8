/**
 * The server as a container, run by `start` or before the step: the container, not the `docker` client, is the
 * server (its exit, its output, its processes' host pids, its environment and start).
 */
import { InputError } from '../../inputs/input-error.js'
import { CONTAINER_FORM } from '../../inputs/parse.js'
import { type ContainerState, DockerEngine, dockerSocket, EngineError } from '../../server/docker.js'
import { startedOnClock, type WatchedContainer, watchContainer } from '../../server/container.js'
import { procEnviron } from '../../server/proc.js'
import { LogFollower } from '../../server/log-follower.js'
import { localPort, portOwner } from '../../server/port-owner.js'
import { newLogFile, openServerLog, serverEnv, startServer } from '../../server/process.js'
import { printable } from '../../runtime/text.js'
import { containerLines, dockerProxyText } from '../../report/lifecycle-report.js'
import { gateLines } from '../../report/progress.js'
import type { Server, Settings } from '../../inputs/settings.js'
import type { ServerFacts } from '../../facts/outcome.js'
import type { Deps } from '../deps.js'
import { beforeStart, gpuMemoryOf, tellEnvironment, tellWorkers } from './process.js'
import type { LaunchedServer, ServerKind } from './kind.js'
import { onlyWatchedAnswers } from './who-answered.js'

export function containerServer(server: Server, settings: Settings, deps: Deps): ServerKind {
  const ref = server.container as string
  const socket = dockerSocket(deps.env)
  let engine: DockerEngine | undefined
  let initial: ContainerState | undefined
  let before: ContainerState | undefined
  let engineFault = false
  return {
    preflight: async () => {
      engine = new DockerEngine(socket)
      // within the wait's own deadline and the job's cancellation, as every request
      const call = { timeoutMs: Math.min(5_000, settings.timeoutMs), signal: deps.cancel?.signal }
      const why = await engine.ping(call)
      if (why !== undefined) {
        engine.close()
        throw noEngine(socket, why)
      }
      if (server.start !== undefined) {
        // a container that holds the name already is another's, unless `start` starts it again
        before = await engine.inspect(ref, call).catch(() => undefined)
        return beforeStart(server, settings, deps)
      }
      try {
        initial = await engine.inspect(ref, call)
      } catch (e) {
        if (!(e instanceof EngineError)) throw e
        // the watch says so, with the wait's outcome and outputs, once the engine fails again
        engineFault = true
        deps.log(containerLines.engineFault(ref, engine.socketPath, e.message))
        return undefined
      }
      if (initial === undefined) {
        engine.close()
        throw new InputError('container', {
          value: printable(ref),
          problem: `is no container of the engine at "${printable(socket)}" (start it before this step, or with "start")`,
          form: CONTAINER_FORM
        })
      }
      return undefined
    },
    launch: () => launched(server, settings, engine as DockerEngine, { initial, before, engineFault }, deps),
    abandon: () => engine?.close()
  }
}

interface Looked {
  initial?: ContainerState
  before?: ContainerState
  engineFault: boolean
}

function launched(
  server: Server,
  settings: Settings,
  engine: DockerEngine,
  looked: Looked,
  deps: Deps
): LaunchedServer {
  const { initial } = looked
  const ref = server.container as string
  const logFile = server.logFile ?? newLogFile(deps.env)
  const containerLog = openServerLog(logFile)
  // `start`'s own output (the client's: a pull, an error before the container exists) apart from the container's
  const starterLog = server.start === undefined ? undefined : newLogFile(deps.env)
  const starter =
    server.start === undefined || starterLog === undefined
      ? undefined
      : startServer(server.start, starterLog, serverEnv(deps.env), deps.clock)
  const container = watchContainer({
    engine,
    ref,
    initial,
    before: looked.before,
    startWallMs: deps.clock.wallMs(),
    engineFault: looked.engineFault,
    starter,
    starterLog,
    log: containerLog,
    clock: deps.clock,
    onHealth: (health) => deps.log(containerLines.health(ref, health)),
    onForeignPids: (s) => deps.log(containerLines.foreignPids(ref, s.pid))
  })
  if (starter !== undefined && starterLog !== undefined) deps.log(containerLines.started(starter.pid, starterLog))
  deps.log(containerLines.watching(ref, initial?.id, logFile))
  const facts: ServerFacts = {
    pid: initial !== undefined && container.pidsTrusted() ? initial.pid : undefined,
    logFile,
    container: initial?.id ?? ref,
    dockerSocket: engine.socketPath
  }
  void container.found.then((s) => {
    if (s === undefined) return
    if (s.pid > 0 && container.pidsTrusted()) facts.pid = s.pid
    facts.container = s.id
  })
  let log: LogFollower | undefined
  return {
    facts,
    // a container that ran before the step started when the engine says; one `start` runs, about when it did
    startedAt: startedOnClock(initial, deps.clock) ?? starter?.startedAt,
    watched: container,
    followLog: (earlier) =>
      (log = new LogFollower(logFile, settings.logLines, {
        // the engine hands over the container's output from its start: every line of it is the startup's
        fromStart: true,
        skipBytes: container.logOffset,
        secrets: settings.secrets,
        earlier
      })),
    beforeWait: () => {
      if (initial !== undefined) reportEnvironment(settings, server, container, facts, deps)
    },
    // as for a process: the origin that finally answered, the URL's own or the end of its redirects, is checked
    whoAnswered: answeredBy(settings, container, ref, deps),
    afterWait: async (ready, readyAt) => {
      // found while `created` (no process yet), it has one now
      const now = container.state()
      if (now !== undefined && now.pid > 0 && container.pidsTrusted()) facts.pid = now.pid
      if (now !== undefined) facts.container = now.id
      // a refused `docker run` (the name another's): nothing of this run's to stop at the job end
      if (container.neverCreated()) facts.container = undefined
      const started = startedOnClock(now, deps.clock)
      if (ready && started !== undefined) facts.startupMs = Math.max(0, readyAt - started)
      const gpu = ready ? await gpuMemoryOf(settings, () => container.family(), deps) : {}
      facts.gpuMemoryMiB = gpu.held?.mib
      if (gpu.gpusPresent !== undefined) facts.gpusPresent = gpu.gpusPresent
      if (initial === undefined) reportEnvironment(settings, server, container, facts, deps)
      if (gpu.held !== undefined) tellWorkers(settings, facts, deps, gpu.held)
      if (!ready && log !== undefined) {
        facts.logTail = log.tail()
        if (facts.logTail === undefined) deps.log(gateLines.noLog(log.path))
      }
    },
    release: () => container.release()
  }
}

/** Ready answers that came from the container's own processes (or its docker-proxy); any other is wrong-server. */
function answeredBy(
  settings: Settings,
  container: WatchedContainer,
  ref: string,
  deps: Deps
): LaunchedServer['whoAnswered'] {
  return (results) => {
    if (!settings.portCheck) return results
    return onlyWatchedAnswers(
      results,
      {
        family: () => container.family(),
        foreign: (o, redirect) =>
          containerLines.wrongServer(
            ref,
            o.port,
            o.listeners.flatMap((l) => l.holders),
            redirect
          ),
        elsewhere: (redirect) => containerLines.elsewhere(ref, redirect),
        proxy: (o) => dockerProxyText(o, container.pid),
        proxyForwardsHere: (command) => forwardsTo(command, container)
      },
      deps
    )
  }
}

/**
 * Whether a docker-proxy (its command line) forwards to the container: to one of its addresses, or on this host's
 * network to a port one of its processes listens on. A proxy to any other server is that server's.
 */
function forwardsTo(command: string, container: WatchedContainer): boolean {
  const ip = /(?:^|\s)-container-ip\s+(\S+)/.exec(command)?.[1]
  const port = Number(/(?:^|\s)-container-port\s+(\d+)/.exec(command)?.[1])
  if (ip === undefined || !Number.isInteger(port) || port <= 0) return false
  if (container.state()?.addresses.includes(ip) === true) return true
  if (!/^(127\.|::1$|0\.0\.0\.0$|::$)/.test(ip)) return false
  const owner = portOwner(port)
  const family = container.family()
  return owner.kind === 'listening' && owner.listeners.some((l) => l.holders.some((h) => family.has(h.pid)))
}

/**
 * `env-report` of the container's process listening on the URL's port where that is not its main one (`sh -c`, an
 * entrypoint script), beside the main one's; else the main process's (its /proc, else its creation environment).
 */
function reportEnvironment(
  settings: Settings,
  server: Server,
  container: WatchedContainer,
  facts: ServerFacts,
  deps: Deps
): void {
  if (settings.envReport.length === 0) return
  const serving = listenerOf(server, container)
  const launched = { pid: container.pid, environ: container.environ() }
  tellEnvironment(settings, facts, deps, launched, serving, { pid: serving?.pid, port: serving?.port })
}

/** The container's process that listens on one of the URLs' local ports, when it is not its main process. */
function listenerOf(
  server: Server,
  container: WatchedContainer
): { pid: number; port: number; environ?: Record<string, string> } | undefined {
  const family = container.family()
  for (const port of new Set(server.targets.flatMap((t) => localPort(t.url) ?? []))) {
    const owner = portOwner(port)
    if (owner.kind !== 'listening') continue
    const holder = owner.listeners.flatMap((l) => l.holders).find((h) => family.has(h.pid))
    if (holder === undefined) continue
    return holder.pid === container.pid ? undefined : { pid: holder.pid, port, environ: procEnviron(holder.pid) }
  }
  return undefined
}

/** `container` with no engine answering at `socket`, for `why` (ENOENT, ECONNREFUSED, an HTTP status). */
export const noEngine = (socket: string, why: string): InputError =>
  new InputError('container', {
    problem: `needs a Docker engine, and none answers at "${printable(socket)}" (${printable(why)})`,
    form: 'a running engine (Docker, or Podman\'s "podman system service"), at DOCKER_HOST=unix://… or /var/run/docker.sock'
  })
