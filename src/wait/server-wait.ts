/** One server's wait: launch, follow its log, its endpoints' waits, after the wait, the smoke test, its history. */
import { setMaxListeners } from 'node:events'
import { PortPoller } from '../http/port-watch.js'
import { setUpUndici } from '../http/undici-parts.js'
import { StartupProfile } from '../startup/profile.js'
import { gateLines, procEnvironNote, waitingLine } from '../report/progress.js'
import { NcclLines, type NcclView, setInside, unconfirmed } from '../server/nccl-log.js'
import { startupLines, startupStatusText } from '../report/profile-report.js'
import { type KnownFatal, type ServerWatch, watchServer } from '../server/watch.js'
import type { Server, Settings } from '../inputs/settings.js'
import { createBodyCollector } from '../runtime/memory.js'
import { expectation } from '../facts/answer.js'
import type { GateOutcome, NodeJoin, PlacementFacts, ServerFacts, TargetOutcome } from '../facts/outcome.js'
import type { Halt } from '../facts/halt.js'
import { Halter } from '../runtime/halter.js'
import type { Deps, ServerWait } from './deps.js'
import { finishHistory, openHistory } from './run-history.js'
import type { LogLine } from '../server/log-follower.js'
import type { TrackerEvent } from '../startup/phases.js'
import { waitForEndpoint } from './endpoint-wait.js'
import { fleetStops, reportedEndpoint } from './fleet-tally.js'
import { smokeLines } from '../report/smoke-report.js'
import { smokeTest } from '../smoke/measure.js'
import { streamRoute } from '../engines/streams.js'
import type { Clock } from '../runtime/clock.js'
import type { LaunchedServer, ServerKind } from './servers/kind.js'
import { asCancelled } from './cancelled.js'
import { type LogPlacement, meantForGpu, ollamaPs, placementLog, placementOf, placementUntold } from './placement.js'
import { createHttpClient } from '../http/probe.js'
import { gpuSnapshot } from '../gpu/nvidia-smi.js'
import { placementLines } from '../report/progress.js'
import { RankCount } from './ranks.js'
import { type Engine, ENGINES } from '../engines/index.js'
import { formatDuration } from '../runtime/clock.js'

/** A server of a fleet: halting `stop` ends its wait as the fleet decides; `settled` hears how it ended. */
export interface FleetMember {
  stop: Halter<Halt>
  settled(outcome: TargetOutcome): void
}

/** The server's wait, once every server's pre-flight let it go on. */
export async function waitForServer(
  kind: ServerKind,
  server: Server,
  settings: Settings,
  deps: Deps,
  member?: FleetMember
): Promise<GateOutcome> {
  const { clock } = deps
  setUpUndici()
  // Everything that holds a process, a timer or a socket is released in the `finally`, whatever throws first.
  const halter = new Halter<Halt>()
  member?.stop.signal.addEventListener('abort', () => halter.halt(member.stop.halted as Halt), { once: true })
  const ports = new PortPoller()
  let launched: LaunchedServer | undefined
  let watch: ServerWatch | undefined
  try {
    launched = kind.launch()
    const waitStart = deps.startedAt ?? clock.now()
    const history = openHistory(settings, server, deps)
    const profile = new StartupProfile({ engine: settings.engine, startedAt: launched.startedAt, usual: history.usual })
    const placed = placementLog()
    const nccl = new NcclLines()
    const ranks = rankCount(server, settings.ranks, () => clock.now() - (launched?.startedAt ?? waitStart))
    const { log, sayStartup, readLines, readyLine, logLines } = followLog({
      launched,
      profile,
      nccl,
      ranks,
      deps,
      waitStart,
      placed
    })
    launched.beforeWait()
    deps.log(waiting(settings, server))
    const { failPattern } = settings
    watch = watchServer({ halter, server: launched.watched, log, failPattern, readLines, cancel: deps.cancel })
    // Every endpoint's sleeps and requests listen to it: a fleet of 200 is not a leak.
    setMaxListeners(0, halter.signal)
    deps.debug?.(gateLines.requestHeaders(['user-agent', 'accept', ...Object.keys(settings.headers)]))
    const startedAt = launched.startedAt ?? waitStart
    const serverWait: ServerWait = {
      settings,
      start: server.start,
      collector: createBodyCollector(),
      deps,
      ports,
      portWatch: (url) => launched?.portWatch?.(url),
      log,
      profile,
      pace: new Map(),
      sayStartup,
      progressAt: (now) => startupStatusText(profile.status(now, now - startedAt)),
      readyLine,
      logLines,
      ranks
    }
    // each endpoint a halter of its own under the server's, so that one that fails ends the others' waits
    const fleet = server.targets.length > 1
    const halters = fleet ? server.targets.map(() => halter.child()) : [halter]
    const endpoints = fleetStops(halters)
    const waited = launched.whoAnswered(
      await Promise.all(
        server.targets.map((t, i) =>
          waitForEndpoint(launched?.probeUrl ? { ...t, url: launched.probeUrl(t.url) } : t, serverWait, {
            halter: halters[i],
            prefix: fleet ? `[${t.url.href}] ` : '',
            settled: (outcome) => endpoints.settled(i, { ...outcome, url: t.url })
          }).then((outcome) => ({ ...outcome, url: t.url }))
        )
      )
    )
    // The lines written up to now end the startup's last phase (a ready line just before the port opened).
    if (log !== undefined) readLines(log.poll())
    const last = reportedEndpoint(waited, endpoints.halted)
    member?.settled(last)
    const readyAt = readyMoment({ ...(last.ready ? last : {}), readyLineAt: profile.readyLineTime(), now: clock.now() })
    await launched.afterWait(last.ready, readyAt)
    const engine = last.engine ?? settings.engine ?? profile.engine
    if (ranks !== undefined) tellRanks(ranks, engine, launched.facts, deps)
    const placement = last.ready
      ? await placementOfServer(server, settings, launched.facts, placed.found, waited, engine, deps)
      : undefined
    if (placement !== undefined) {
      deps.log(placementLines.found(placement.placement, placement.evidence))
      if (placement.warning !== undefined) deps.warn(placement.warning, 'placement')
    }
    tellNccl(settings, launched.facts, nccl.view(), deps)
    // Once the fleet is ready, and only then: a server that is not ready has no throughput to measure. The
    // startup's figures were taken before it, so that its requests count in none of them.
    const smoke = settings.smoke !== undefined && last.ready
    const results = smoke
      ? await smokeThrough(launched, waited, (at) =>
          smokeEndpoints(at, settings, { clock, signal: halter.signal, log: deps.log })
        )
      : waited
    const outcome = cancelledSince(
      { ...reportedEndpoint(results, endpoints.halted), results, ...(placement && { placement }) },
      deps,
      smoke,
      waitStart
    )
    const facts = launched.facts
    const profileFacts = await finishHistory({ settings, outcome, facts, profile, history, deps, readyAt })
    // a cancel while the history's lock was waited for ends the run cancelled too (and it was not recorded)
    return {
      ...cancelledSince(outcome, deps, smoke, waitStart),
      models: [...new Set(results.flatMap((r) => r.models))],
      server: facts,
      profile: profileFacts
    }
  } finally {
    watch?.close()
    ports.close()
    launched?.release()
  }
}

/** The smoke test at the URLs the endpoints were asked at (a forwarded port), its results told at their own. */
async function smokeThrough(
  launched: LaunchedServer,
  waited: TargetOutcome[],
  smoke: (at: TargetOutcome[]) => Promise<TargetOutcome[]>
): Promise<TargetOutcome[]> {
  const probe = launched.probeUrl
  if (probe === undefined) return smoke(waited)
  const done = await smoke(waited.map((r) => ({ ...r, url: probe(r.url) })))
  return done.map((r, i) => ({ ...r, url: waited[i].url }))
}

/**
 * With `env-report`: NCCL's own word from the log beside it, the variables it does not confirm, and, once, what
 * /proc cannot show.
 */
function tellNccl(settings: Settings, facts: ServerFacts | undefined, view: NcclView | undefined, deps: Deps): void {
  if (facts === undefined || settings.envReport.length === 0 || (facts.env === undefined && !facts.envUnreadable))
    return
  if (view !== undefined) {
    const entries = [
      ...(facts.env ?? []),
      ...(facts.launchedEnv?.env ?? []),
      ...(facts.gpuWorkers ?? []).flatMap((w) => w.env ?? [])
    ]
    const reported = new Set(entries.filter((e) => e.value !== undefined).map((e) => e.name))
    const inside = setInside(settings.envReport, view, facts.gpuWorkers ?? [])
    facts.nccl = {
      ...view,
      unconfirmed: unconfirmed(reported, view),
      ...(inside.length === 0 ? {} : { setInside: inside })
    }
    gateLines.nccl(facts).forEach((line) => deps.log(line))
  }
  deps.log(procEnvironNote)
}

/**
 * The server's ranks, counted from every node's lines: across several nodes, or with a count given (`ranks`);
 * undefined otherwise (one node, no count: its engine's readiness speaks for it).
 */
function rankCount(server: Server, required: number | undefined, sinceStart: () => number): RankCount | undefined {
  const workers = server.workers ?? []
  if (workers.length === 0 && required === undefined) return undefined
  const hosts = [server.host ?? 'this machine', ...workers.map((w) => w.host)]
  const starts = [server.start ?? '', ...workers.map((w) => w.start)]
  return new RankCount(hosts, starts, sinceStart, required)
}

/** Each node's ranks and time to join, into the facts and the log. */
function tellRanks(ranks: RankCount, engine: Engine | undefined, facts: ServerFacts | undefined, deps: Deps): void {
  const nodes = ranks.joins(engine)
  if (nodes === undefined) {
    deps.log(
      ranks.expected(engine) === undefined
        ? "Ranks: none of the engine's per-rank lines was read in the nodes' logs, so none was counted"
        : `Ranks: not one of the ${ranks.expected(engine)} was read joining in the server's log`
    )
    return
  }
  const expected = ranks.expected(engine)
  const countedBy = ranks.countedBy(engine)
  if (facts !== undefined) facts.ranks = { expected, nodes, ...(countedBy === 'nccl' ? { countedBy } : {}) }
  nodes.forEach((n, i) => deps.log(nodeJoinLine(n, i)))
}

/** `Node 2 (root@b): 4 ranks, joined 12.3 s after the start`. */
const nodeJoinLine = (n: NodeJoin, i: number): string =>
  n.ranks === 0
    ? `Node ${i + 1} (${n.host}): no rank line in its own log (Ray and MPI print every rank's in the head's)`
    : `Node ${i + 1} (${n.host}): ${n.ranks} rank${n.ranks === 1 ? '' : 's'}, ` +
      (n.joinedMs === undefined ? 'not all joined' : `joined ${formatDuration(n.joinedMs)} after the start`)

/** A cancel after the wait (smoke test, GPU reading) ends it cancelled: neither `smoke-failed` nor ready. */
function cancelledSince(outcome: GateOutcome, deps: Deps, smoke: boolean, waitStart: number): GateOutcome {
  const signal = deps.cancel?.halted
  if (signal === undefined) return outcome
  return asCancelled(outcome, signal, smoke ? 'smoke-test' : 'after-wait', deps.clock.now() - waitStart)
}

/** The line the wait begins with: what it waits for, how long, and how. */
const waiting = (settings: Settings, server: Server): string =>
  waitingLine(
    { url: server.targets[0].url, expect: expectation(settings), timeoutMs: settings.timeoutMs },
    {
      endpoints: server.targets.length,
      generation: settings.probeGeneration,
      intervalMs: Math.min(settings.probeGapMs, settings.intervalMs),
      smoke: settings.smoke
    }
  )

/**
 * When the server turned ready (`now` when it did not), not when a probe happened to go out: after the last probe
 * told "not ready" went out and by the first answer that said ready; within those bounds, when its ready line says.
 */
export function readyMoment({
  readySeenAt,
  notReadySentAt,
  readyLineAt,
  now
}: {
  readySeenAt?: number
  notReadySentAt?: number
  readyLineAt?: number
  now: number
}): number {
  if (readySeenAt === undefined) return now
  if (readyLineAt === undefined) return readySeenAt
  return Math.min(readySeenAt, Math.max(notReadySentAt ?? -Infinity, readyLineAt))
}

/** Each ready endpoint with its smoke test, all at once, within the wait's `timeout`; `signal` ends them. */
async function smokeEndpoints(
  results: readonly TargetOutcome[],
  settings: Settings,
  deps: { clock: Clock; signal: AbortSignal; log(line: string): void }
): Promise<TargetOutcome[]> {
  const smoke = settings.smoke
  if (smoke === undefined) return [...results]
  return Promise.all(
    results.map(async (r) => {
      if (!r.ready) return r
      const prefix = results.length > 1 ? `[${r.url.href}] ` : ''
      const found = streamRoute(r.url, r.engine)
      const request = 'route' in found ? `POST ${found.route.path}` : undefined
      deps.log(`${prefix}${smokeLines.start(smoke.requests, smoke.tokens, request)}`)
      const result = await smokeTest(
        {
          url: r.url,
          engine: r.engine,
          // the listed id the wait matched: the `model` input may be a part of it
          model: r.last?.modelId ?? settings.model ?? r.models[0],
          headers: settings.headers,
          caCert: settings.caCert,
          insecureTls: settings.insecureTls,
          secrets: settings.secrets
        },
        // the time the wait has left (its elapsed time counts from the same start as its timeout)
        { ...smoke, timeoutMs: Math.max(1, Math.min(smoke.timeoutMs, settings.timeoutMs - r.elapsedMs)) },
        {
          clock: deps.clock,
          signal: deps.signal,
          measured: (i, m) => deps.log(`${prefix}${smokeLines.measured(i, smoke.requests, m)}`)
        }
      )
      const line = smokeLines.result(result)
      if (line !== undefined) deps.log(`${prefix}${line}`)
      return { ...r, smoke: result }
    })
  )
}

/** The server's log into the startup profile: `readLines` returns its fatal line; wakers at ready and new lines. */
function followLog({
  launched,
  profile,
  nccl,
  ranks,
  deps,
  waitStart,
  placed
}: {
  launched: LaunchedServer
  profile: StartupProfile
  nccl: NcclLines
  ranks?: RankCount
  deps: Deps
  waitStart: number
  placed: ReturnType<typeof placementLog>
}) {
  const { clock } = deps
  const sayStartup = (events: TrackerEvent[]): void =>
    startupLines(events).forEach((l) => deps.log(gateLines.startup(clock.now() - waitStart, l)))
  const log = launched.followLog((lines) =>
    lines.forEach((l) => {
      placed.see(l.text, l.number)
      nccl.line(l.text)
      ranks?.line(l.text)
      sayStartup(profile.earlier(l.text, clock.now(), l.number))
    })
  )
  // Aborted once the engine's own ready line is read: every endpoint's next probe goes out at once.
  const readySeen = new AbortController()
  setMaxListeners(0, readySeen.signal)
  const readyLine = (signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      if (readySeen.signal.aborted || signal.aborted) return resolve()
      const done = (): void => {
        readySeen.signal.removeEventListener('abort', done)
        signal.removeEventListener('abort', done)
        resolve()
      }
      readySeen.signal.addEventListener('abort', done, { once: true })
      signal.addEventListener('abort', done, { once: true })
    })
  // Waiting for the next new lines: each wait's resolver, called (and dropped) when lines come or its signal aborts.
  const waiting = new Set<() => void>()
  const logLines = (signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve()
      const done = (): void => {
        waiting.delete(done)
        signal.removeEventListener('abort', done)
        resolve()
      }
      waiting.add(done)
      signal.addEventListener('abort', done, { once: true })
    })
  const readLines = (lines: LogLine[]): KnownFatal | undefined => {
    for (const l of lines) {
      placed.see(l.text, l.number)
      nccl.line(l.text)
      ranks?.line(l.text)
      sayStartup(profile.line(l.text, clock.now(), l.number))
    }
    if (profile.readyLineSeen) readySeen.abort()
    if (lines.length > 0) [...waiting].forEach((done) => done())
    const f = profile.fatal
    return (
      f && {
        line: { number: f.lineNumber, text: f.line },
        cause: f.cause,
        engineLabel: profile.label
      }
    )
  }
  return { log, sayStartup, readLines, readyLine: log && readyLine, logLines: log && logLines }
}

/**
 * Once ready: where the model is, from the log's lines, Ollama's `/api/ps` and the GPU memory the server holds, and
 * whether it was meant to be on GPUs. Bounded by the wait's deadline and ended by a cancel.
 */
async function placementOfServer(
  server: Server,
  settings: Settings,
  facts: LaunchedServer['facts'],
  log: LogPlacement,
  results: readonly TargetOutcome[],
  engine: Engine | undefined,
  deps: Deps
): Promise<PlacementFacts | undefined> {
  const timeLeft = (): number =>
    Math.max(1, Math.min(5_000, settings.timeoutMs - (deps.clock.now() - (deps.startedAt ?? deps.clock.now()))))
  // Ollama's own list routes name it as well as `engine` does
  const isOllama = (r: TargetOutcome): boolean =>
    r.engine === 'ollama' || (r.engine === undefined && /^\/api\/(?:tags|ps)$/.test(r.url.pathname))
  const ollamaResult = results.find((r) => r.ready && isOllama(r) && r.last?.modelId !== undefined)
  let ollama: Awaited<ReturnType<typeof ollamaPs>>
  if (ollamaResult !== undefined) {
    const client = createHttpClient({
      caCert: settings.caCert,
      insecureTls: settings.insecureTls,
      secrets: settings.secrets
    })
    try {
      ollama = await ollamaPs(ollamaResult.url, ollamaResult.last?.modelId as string, (url) =>
        client.send({ url, method: 'GET', headers: settings.headers }, timeLeft(), deps.cancel?.signal)
      )
    } finally {
      await client.close()
    }
  }
  let gpusPresent = facts?.gpusPresent
  // a model wholly on the CPU where no server process was read: whether GPUs are there tells if that was meant
  if (ollama !== undefined && ollama.sizeVram === 0 && gpusPresent === undefined) {
    const snapshot = await gpuSnapshot({ env: deps.env, timeoutMs: timeLeft(), signal: deps.cancel?.signal })
    if (snapshot.kind === 'available') gpusPresent = snapshot.gpus.length
  }
  // the step's CUDA_VISIBLE_DEVICES is the server's only where this step starts it
  const meant = meantForGpu(server.start, server.start === undefined ? {} : deps.env, gpusPresent)
  const splitsLayers = engine === undefined || ENGINES[engine].splitsLayers === true
  const evidence = { meant, log, heldMiB: facts?.gpuMemoryMiB, ollama, splitsLayers }
  const untold = placementUntold(evidence, engine && ENGINES[engine].label)
  if (untold !== undefined) deps.log(untold)
  return placementOf(evidence)
}
