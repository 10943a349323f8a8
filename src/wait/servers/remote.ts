/**
 * The server as a process on another host (`host`): what the process kind does, done there over one OpenSSH
 * connection; a URL on that host's loopback is asked through a port forwarded over it.
 */
import { InputError } from '../../inputs/input-error.js'
import { type GpuSnapshot, gpuSnapshot, memoryHeldBy } from '../../gpu/nvidia-smi.js'
import { preflight, preflightVerdict, withStartGpus } from '../../server/preflight.js'
import { LogFollower } from '../../server/log-follower.js'
import { newLogFile, newRunMarker, type ServerProcess } from '../../server/process.js'
import {
  attachRemote,
  remoteEnviron,
  remoteListening,
  remotePortHolders,
  remoteTree,
  type RemoteStart,
  startRemote,
  watchRemote
} from '../../server/remote.js'
import { SSH_COMMAND_VARIABLE, SshHost } from '../../server/ssh.js'
import { type RemotePortWatch, watchRemotePort } from '../../server/remote-port.js'
import { gpuBusyText, gpuUnavailableText } from '../../report/lifecycle-report.js'
import { gateLines } from '../../report/progress.js'
import type { Server, Settings } from '../../inputs/settings.js'
import type { Halt } from '../../facts/halt.js'
import type { GateOutcome, ServerFacts, TargetOutcome } from '../../facts/outcome.js'
import type { Deps } from '../deps.js'
import type { LaunchedServer, ServerKind } from './kind.js'
import { tellEnvironment } from './process.js'
import { envDifferences, envReport } from '../../server/env-report.js'

/** The names a URL's host has when it means the machine itself: on a remote server, that host's loopback. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

export function remoteServer(server: Server, settings: Settings, deps: Deps): ServerKind {
  const destination = server.host as string
  let host: SshHost | undefined
  const forwards = new Map<string, URL>()
  const workers: SshHost[] = []
  return {
    preflight: async () => {
      host = new SshHost(destination, deps.env[SSH_COMMAND_VARIABLE])
      const why = host.open()
      if (why !== undefined) {
        host.close()
        throw new InputError('host', { problem: why })
      }
      // every node reached before anything starts on any
      for (const [i, worker] of (server.workers ?? []).entries()) {
        const node = new SshHost(worker.host, deps.env[SSH_COMMAND_VARIABLE])
        const failed = node.open()
        if (failed !== undefined) {
          node.close()
          ;[host, ...workers].forEach((h) => h.close())
          throw new InputError('host', { problem: failed, line: i + 2 })
        }
        workers.push(node)
      }
      for (const { url } of server.targets) {
        if (!LOOPBACK.has(url.hostname) || forwards.has(url.href)) continue
        const remotePort = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
        const local = await host.forward(url.hostname === '[::1]' ? '::1' : '127.0.0.1', remotePort)
        if (local === undefined) {
          host.close()
          throw new InputError('host', {
            problem: `could not forward a local port to port ${remotePort} of ${destination}`
          })
        }
        const probed = new URL(url.href)
        probed.hostname = '127.0.0.1'
        probed.port = String(local)
        forwards.set(url.href, probed)
      }
      return server.start === undefined ? undefined : beforeRemoteStart(host, server, settings, deps)
    },
    launch: () => launched(server, settings, host as SshHost, forwards, deps, workers),
    abandon: () => [host, ...workers].forEach((h) => h?.close())
  }
}

/**
 * Before `start`: a loopback port of the URL already listened on at the host refuses the wait (`port-busy`); GPUs
 * there that other processes hold memory on warn, or refuse (`gpu-busy`), as for a local start.
 */
async function beforeRemoteStart(
  host: SshHost,
  server: Server,
  settings: Settings,
  deps: Deps
): Promise<GateOutcome | undefined> {
  const start = deps.startedAt ?? deps.clock.now()
  const ports = server.targets.filter((t) => LOOPBACK.has(t.url.hostname)).map((t) => Number(t.url.port || 80))
  const busy = settings.portCheck ? await remoteListening(host, [...new Set(ports)]) : undefined
  let halt: Halt | undefined =
    busy === undefined || busy.length === 0
      ? undefined
      : {
          reason: 'port-busy',
          detail:
            `port ${busy[0]} on ${host.host} is already in use before "start" (a server an earlier job left ` +
            'running there?): stop it there, or set port-check: false'
        }
  if (halt === undefined) {
    // the GPUs its start line pins (CUDA_VISIBLE_DEVICES=N …); this runner's own variables say nothing of that host
    const found = await preflight([], settings.gpuCheck, {
      env: withStartGpus({}, server.start),
      gpu: () => remoteGpus(host, deps)
    })
    const verdict = preflightVerdict(found, settings.gpuCheck)
    const gpu = found.gpu
    if (gpu.kind === 'unavailable') deps.debug?.(gpuUnavailableText(gpu.why, gpu.detail))
    if (verdict.warnGpu && gpu.kind === 'busy')
      deps.warn(`${host.host}: ${gpuBusyText(gpu.apps, gpu.gpus)}`, 'gpu-busy')
    if (verdict.refuse === 'gpu-busy' && gpu.kind === 'busy')
      halt = { reason: 'gpu-busy', detail: `${host.host}: ${gpuBusyText(gpu.apps, gpu.gpus)}` }
  }
  if (halt === undefined) return undefined
  const refusal = halt
  const results = server.targets.map(({ url }): TargetOutcome => ({
    ready: false,
    reason: refusal.reason,
    elapsedMs: deps.clock.now() - start,
    attempts: 0,
    models: [],
    halt: refusal,
    timeline: [],
    url
  }))
  return { ...results[0], results }
}

function launched(
  own: Server,
  settings: Settings,
  host: SshHost,
  forwards: Map<string, URL>,
  deps: Deps,
  workerHosts: SshHost[] = []
): LaunchedServer {
  const pid = own.pid !== undefined && 'pid' in own.pid ? own.pid.pid : undefined
  const runMarker = own.start === undefined ? undefined : newRunMarker()
  const startedAt = deps.clock.now()
  const begun: RemoteStart | string =
    own.start !== undefined
      ? startRemote(host, own.start, own.logFile, runMarker as string)
      : attachRemote(host, pid as number, own.logFile)
  if (typeof begun === 'string') {
    host.close()
    throw new InputError(own.start !== undefined ? 'start' : 'pid', { problem: begun })
  }
  // each forwarded port's own watch there: the forward accepts whether or not the server listens
  const portWatches = new Map<string, RemotePortWatch>()
  for (const [href, probed] of forwards) {
    const url = new URL(href)
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
    portWatches.set(probed.href, watchRemotePort(host, url.hostname === '[::1]' ? '::1' : '127.0.0.1', port))
  }
  const remoteLog = begun.logPath === '' ? undefined : begun.logPath
  const localLog = remoteLog === undefined ? undefined : newLogFile(deps.env)
  const head: ServerProcess = watchRemote(
    host,
    { ...begun, logPath: remoteLog },
    localLog,
    own.start ? startedAt : undefined
  )
  deps.log(
    `${own.start !== undefined ? 'Started' : 'Watching'} the server on ${host.host} (pid ${begun.pid} there)` +
      (remoteLog === undefined ? '' : `; its log ${remoteLog} there is copied to ${localLog} as it grows`)
  )
  // the other nodes: each its own start there, with the same marker; their lines join the head's copy, named
  const nodes = (own.workers ?? []).map((worker, i) => {
    const node = workerHosts[i]
    const started = startRemote(node, worker.start, undefined, runMarker as string)
    if (typeof started === 'string') {
      head.release()
      ;[host, ...workerHosts].forEach((h) => h.close())
      throw new InputError('start', { problem: started, line: i + 2 })
    }
    const watched = watchRemote(node, started, localLog, startedAt, `[${node.host}] `)
    deps.log(`Started node ${i + 2} of the server on ${node.host} (pid ${started.pid} there)`)
    return { node, started, watched, environ: () => remoteEnviron(node, started.pid) }
  })
  const server: ServerProcess =
    nodes.length === 0
      ? head
      : {
          ...head,
          label: `The server across ${nodes.length + 1} nodes:`,
          // any node's exit ends the wait, naming the node
          exited: Promise.race([
            head.exited.then((how) => `the head (${host.host}): ${head.label} ${how}`),
            ...nodes.map(({ node, watched }, i) =>
              watched.exited.then((how) => `node ${i + 2} (${node.host}): ${watched.label} ${how}`)
            )
          ]),
          release: () => [head, ...nodes.map((n) => n.watched)].forEach((p) => p.release())
        }
  const facts: ServerFacts = {
    pid: begun.pid,
    host: host.host,
    logFile: localLog,
    startTicks: begun.startTicks,
    bootId: begun.bootId,
    runMarker,
    ...(nodes.length === 0
      ? {}
      : {
          nodes: nodes.map(({ node, started }) => ({
            host: node.host,
            pid: started.pid,
            startTicks: started.startTicks
          }))
        })
  }
  let log: LogFollower | undefined
  let gpuMemory: Promise<number | undefined> | undefined
  const report = (): void => {
    if (settings.envReport.length === 0) return
    const environ = remoteEnviron(host, begun.pid)
    tellEnvironment(settings, facts, deps, { pid: begun.pid, environ }, undefined, { pid: begun.pid })
    if (nodes.length > 0) tellNodesEnvironment(settings, facts, deps, [environ, ...nodes.map((n) => n.environ())])
  }
  return {
    facts,
    startedAt: server.startedAt,
    watched: server,
    followLog: (earlier) =>
      (log =
        localLog === undefined
          ? undefined
          : new LogFollower(localLog, settings.logLines, { fromStart: true, secrets: settings.secrets, earlier })),
    beforeWait: () => {
      if (own.start === undefined) report()
    },
    // the listeners are that host's: what answers through the forward is whoever holds the port on its loopback
    whoAnswered: (results) => {
      // its GPU memory read there meanwhile: each ssh session costs the host's login shell start, once only
      if (results.some((r) => r.ready)) gpuMemory ??= remoteGpuMemory(host, begun.pid, deps)
      return settings.portCheck ? results.map((r) => answeredThere(r, host, begun.pid)) : results
    },
    afterWait: async (ready, readyAt) => {
      if (ready && server.startedAt !== undefined) facts.startupMs = readyAt - server.startedAt
      if (ready) facts.gpuMemoryMiB = await (gpuMemory ?? remoteGpuMemory(host, begun.pid, deps))
      if (ready && facts.nodes !== undefined) {
        const held = await Promise.all(nodes.map(({ node, started }) => remoteGpuMemory(node, started.pid, deps)))
        facts.nodes.forEach((n, i) => (n.gpuMemoryMiB = held[i]))
        if (held.some((mib) => mib !== undefined))
          deps.log(
            `GPU memory held on each node: ${[facts.gpuMemoryMiB, ...held].map((mib, i) => `node ${i + 1} (${i === 0 ? host.host : nodes[i - 1].node.host}) ${mib === undefined ? 'unread' : `${mib} MiB`}`).join(', ')}`
          )
      }
      if (own.start !== undefined) report()
      if (!ready && log !== undefined) {
        facts.logTail = log.tail()
        if (facts.logTail === undefined) deps.log(gateLines.noLog(log.path))
      }
    },
    release: () => {
      server.release()
      portWatches.forEach((w) => w.release())
      ;[host, ...workerHosts].forEach((h) => h.close())
    },
    probeUrl: (url) => forwards.get(url.href) ?? url,
    portWatch: (url) => portWatches.get(url.href)
  }
}

/**
 * `env-report` on every node: each node's entries kept, and each variable whose value is not the same everywhere
 * named with every node's value (`NCCL_IB_HCA: mlx5_0 on node 1 (root@a), unset on node 2 (root@b)`).
 */
function tellNodesEnvironment(
  settings: Settings,
  facts: ServerFacts,
  deps: Deps,
  environs: (Record<string, string> | undefined)[]
): void {
  const hosts = [facts.host as string, ...(facts.nodes ?? []).map((n) => n.host)]
  const reports = environs.map((e) =>
    e === undefined ? undefined : envReport(settings.envReport, e, settings.secrets)
  )
  ;(facts.nodes ?? []).forEach((n, i) => {
    n.env = reports[i + 1]
    const entries = n.env?.map((e) => (e.value === undefined ? `${e.name} not set` : `${e.name}=${e.value}`))
    if (entries !== undefined) deps.log(`Environment of node ${i + 2} (${n.host}): ${entries.join(', ') || 'none'}`)
  })
  const read = environs.flatMap((e, i) => (e === undefined ? [] : [{ e, i }]))
  const names = new Set<string>()
  for (const a of read) for (const b of read) envDifferences(settings.envReport, a.e, b.e).forEach((n) => names.add(n))
  const shown = (i: number, name: string): string => {
    const value = reports[i]?.find((entry) => entry.name === name)?.value
    return value === undefined ? 'unset' : value
  }
  const differs = [...names]
    .sort()
    .map((name) => `${name}: ${read.map(({ i }) => `${shown(i, name)} on node ${i + 1} (${hosts[i]})`).join(', ')}`)
  const unread = environs.flatMap((e, i) => (e === undefined ? [`node ${i + 1} (${hosts[i]})`] : []))
  if (unread.length > 0) deps.log(`The environment of the server on ${unread.join(', ')} could not be read.`)
  if (differs.length === 0) {
    if (read.length > 1) deps.log(`The reported variables are the same on the ${read.length} nodes read.`)
    return
  }
  facts.nodeEnvDiffers = differs
  deps.warn(
    `The server's nodes differ in ${differs.length === 1 ? 'a variable' : 'variables'}: ${differs.join('; ')}`,
    'node-env'
  )
}

/** The GPU memory the server's processes hold on its host, from that host's nvidia-smi. */
async function remoteGpuMemory(host: SshHost, pid: number, deps: Deps): Promise<number | undefined> {
  const snapshot = await remoteGpus(host, deps)
  if (snapshot.kind === 'unavailable') {
    deps.debug?.(gpuUnavailableText(snapshot.why, snapshot.detail))
    return undefined
  }
  return memoryHeldBy(snapshot, await remoteTree(host, pid)).mib
}

/** The host's GPUs, from its own nvidia-smi over the connection. */
const remoteGpus = (host: SshHost, deps: Deps): Promise<GpuSnapshot> =>
  gpuSnapshot({
    command: host.program,
    prefix: [...host.args(), 'nvidia-smi'],
    timeoutMs: 5_000,
    signal: deps.cancel?.signal
  })

/** A ready answer on the host's loopback from a process that is neither the server nor its descendant: wrong-server. */
function answeredThere(r: TargetOutcome, host: SshHost, pid: number): TargetOutcome {
  if (!r.ready || !LOOPBACK.has(r.url.hostname)) return r
  const port = Number(r.url.port || 80)
  const found = remotePortHolders(host, port, pid)
  // unseen holders (another user's, no /proc) are not held against it
  if (found === undefined || found.holders.length === 0 || found.ours) return r
  const who = found.holders.map((h) => `${h.pid} (${h.command})`).join(', ')
  const halt: Halt = {
    reason: 'wrong-server',
    detail:
      `port ${port} on ${host.host} answered ready, but it is held by process ${who} there, not the server ${pid} ` +
      'nor one of its processes: stop what holds the port there, or set port-check: false if a proxy answers for it'
  }
  return { ...r, ready: false, reason: 'wrong-server', halt }
}
