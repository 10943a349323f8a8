/**
 * Stops a server and everything it started, then waits until none of its processes remain and, where nvidia-smi
 * tells, until none of them holds GPU memory (the next job on a shared runner needs it back). A process: SIGTERM to
 * its group, SIGKILL after a timeout; a container: its engine's stop. The answer is a record, never words.
 */
import { type GpuSnapshot, type HeldMemory, memoryHeldBy } from '../gpu/nvidia-smi.js'
import { procPids, procStat } from './proc.js'
import { processTree } from './port-owner.js'
import type { Clock } from '../runtime/clock.js'
import type { ContainerEndState, ProcessEndState } from './job-end.js'
import { DockerEngine, EngineError } from './docker.js'
import { LogFollower, type LogLine } from './log-follower.js'
import {
  descendantsOf,
  identify,
  type Identity,
  markedProcesses,
  processGuard,
  type Recorded,
  type Spared
} from './guard.js'

const POLL_MS = 100
/** A cancelled container stop: how long the engine's requests may take from the cancel on (all of them together). */
const CANCELLED_ENGINE_MS = 800

export interface StopOptions {
  /** The leader of the server's process group (as `start` launches it), or any process of it. */
  pid: number
  /** From SIGTERM until SIGKILL. */
  timeoutMs: number
  /** After SIGKILL, how long to wait for the processes to go before calling them survivors. */
  killWaitMs?: number
  /** After the processes have gone, how long to wait for their GPU memory to be released. */
  gpuWaitMs?: number
  /**
   * The server as recorded at launch: `pid` is signalled only while it is still that process, and the processes
   * that carry `marker` are the server's too. Without it (`stop --pid`, the user's own word) the pid is taken as given.
   */
  launch?: Recorded & { marker?: string }
}
export interface StopDeps {
  clock: Clock
  /** Reads the GPUs (nvidia-smi); without it, GPU memory is not looked at. */
  gpu?(): Promise<GpuSnapshot>
  /** Sends a signal (a negative pid: to a process group); process.kill by default. */
  kill?(pid: number, signal: NodeJS.Signals): void
  /** Aborted when the stopper itself is cancelled: no more waiting, SIGKILL at once, GPU memory read once. */
  cancel?: AbortSignal
}

type GpuRelease =
  /** No GPU reading: no nvidia-smi, or it failed. */
  | { kind: 'unavailable'; why: string }
  /** None of the processes held GPU memory when the stop began. */
  | { kind: 'none' }
  /** `mib` held at the start, all of it released `seconds` after SIGTERM. */
  | { kind: 'released'; mib: number; seconds: number }
  /** Still `heldMib` of the `mib` after waiting `seconds` since SIGTERM. */
  | { kind: 'held'; mib: number; heldMib: number; seconds: number; pids: number[] }

export interface StopRecord {
  pid: number
  /** A server on another host (its ssh destination): `pid` and `pids` are that host's. */
  host?: string
  /** A container stopped through its engine (its name or id); `pid` is then its main process. */
  container?: string
  /**
   * `group`: the process group of `pid` was signalled whole; `tree`: `pid` and its descendants one by one (a group
   * it merely belongs to may hold the runner itself).
   */
  scope: 'group' | 'tree'
  /** `refused`: `pid` is a process no stop may signal (`refused` says which), nothing was signalled. */
  outcome: 'not-running' | 'exited' | 'survived' | 'refused'
  /** The processes of the server when the stop began. */
  pids: number[]
  refused?: Spared
  /** `pid` is no longer the process launched then (`launch`): left alone, with its group. */
  notOurs?: Exclude<Identity, { kind: 'same' | 'gone' }>
  /** Processes that carry the run's marker outside the server's group and tree (an escaped worker): stopped too. */
  escaped?: number[]
  /** Processes of its group or tree that no stop may signal: left alone. */
  spared?: number[]
  /** The last signal sent. */
  signal?: 'SIGTERM' | 'SIGKILL'
  /** A container's exit code, as its engine tells it. */
  exitCode?: number | null
  /** From SIGTERM until the last of its processes was gone. */
  secondsToExit?: number
  /** Still running after SIGKILL. */
  survivors?: number[]
  /** A container's engine that refused the stop or failed (`answered the stop with HTTP 403: …`). */
  engine?: string
  gpu: GpuRelease
  cancelled?: boolean
}

/** Stops the server `pid` and its processes; see the module comment. */
export async function stopServer(options: StopOptions, deps: StopDeps): Promise<StopRecord> {
  const { clock } = deps
  const kill = deps.kill ?? ((pid, signal) => process.kill(pid, signal))
  const guard = processGuard()
  const refused = guard.spared(options.pid)
  if (refused !== undefined)
    return { pid: options.pid, scope: 'tree', outcome: 'refused', refused, pids: [], gpu: { kind: 'none' } }
  const { launch } = options
  const identity = launch === undefined ? undefined : identify(options.pid, launch)
  const notOurs = identity === undefined || identity.kind === 'same' || identity.kind === 'gone' ? undefined : identity
  // after a reboot nothing running can be the server's; a reused pid is a stranger's, and so is its group; a pid
  // that cannot be checked is left alone like one that failed the check
  const leader = notOurs === undefined ? procStat(options.pid) : undefined
  const inGroup = (): number[] => procPids().filter((p) => procStat(p)?.pgrp === options.pid)
  // A group outlives its leader, and Linux reuses no pid that still names a group: with the leader gone, processes
  // in group `pid` are that server's. With a launch record, only those that carry its marker are: the group may be
  // a stranger's that took the pid and left.
  const leaderless = notOurs === undefined && (leader === undefined || leader.state === 'Z')
  const marker = notOurs?.kind === 'rebooted' ? undefined : launch?.marker
  const seen = new Map<string, boolean>()
  const marked = (): number[] => (marker === undefined ? [] : markedProcesses(marker, launch?.startTicks ?? 0, seen))
  // never a group a spared process is in: that would stop the stopper (and the runner's step with it)
  const groupScope =
    notOurs === undefined &&
    !guard.groupSpared(options.pid) &&
    (leaderless ? launch === undefined && inGroup().length > 0 : leader?.pgrp === options.pid)
  const scope = groupScope ? 'group' : 'tree'
  const spared = new Set<number>()
  const members = (): Array<{ pid: number; startTicks?: number }> => {
    // a pid checked as gone may be taken by a stranger any moment: with a launch record, it is not looked at again
    const tree =
      notOurs === undefined && !(leaderless && launch !== undefined) ? [...processTree('/proc', options.pid)] : []
    const group = groupScope ? inGroup() : []
    // with the leader gone, its group's processes that carry the marker are among these
    const tagged = marked()
    const found = new Set([...tree, ...group, ...(tagged.length > 0 ? descendantsOf(tagged) : [])])
    return [...found].flatMap((pid) => {
      if (guard.spared(pid) !== undefined) {
        spared.add(pid)
        return []
      }
      const stat = procStat(pid)
      // without /proc only the pid itself can be asked about (and, with a launch record, not even that)
      if (stat === undefined)
        return pid === options.pid && launch === undefined && signalled(kill, pid, 0) ? [{ pid }] : []
      return stat.state === 'Z' ? [] : [{ pid, startTicks: stat.startTicks }]
    })
  }
  const initial = members()
  const inside = new Set(notOurs === undefined ? [...processTree('/proc', options.pid), ...inGroup()] : [])
  const escaped = initial.map((m) => m.pid).filter((p) => !inside.has(p))
  const base = {
    pid: options.pid,
    scope,
    pids: initial.map((m) => m.pid),
    ...(notOurs === undefined ? {} : { notOurs }),
    ...(escaped.length > 0 ? { escaped } : {}),
    ...(spared.size > 0 ? { spared: [...spared] } : {})
  } as const
  if (initial.length === 0) return { ...base, outcome: 'not-running', gpu: { kind: 'none' } }

  const before = deps.gpu ? await deps.gpu() : undefined
  // every process seen as the server's, by pid and start time (a reused pid is another process)
  const tracked = new Map(initial.map((m) => [m.pid, m.startTicks]))
  const family = (): Set<number> => new Set(tracked.keys())
  const atStart = before?.kind === 'available' ? memoryHeldBy(before, family()) : undefined

  const alive = (): number[] => {
    const now = members()
    // any process the server has started since counts too
    for (const m of now) if (!tracked.has(m.pid)) tracked.set(m.pid, m.startTicks)
    const found = new Set(now.filter((m) => tracked.get(m.pid) === m.startTicks).map((m) => m.pid))
    // a child that outlives its parent leaves the parent's tree: it is still ours while its pid names the same process
    for (const [pid, startTicks] of tracked) {
      if (found.has(pid) || startTicks === undefined) continue
      const stat = procStat(pid)
      if (stat !== undefined && stat.state !== 'Z' && stat.startTicks === startTicks) found.add(pid)
    }
    return [...found]
  }
  const send = (signal: NodeJS.Signals): void => {
    if (scope === 'group') {
      signalled(kill, -options.pid, signal)
      // the group had them all, but for those that left it
      for (const pid of alive()) if (procStat(pid)?.pgrp !== options.pid) signalled(kill, pid, signal)
    } else for (const pid of alive()) signalled(kill, pid, signal)
  }
  const cancelled = (): boolean => deps.cancel?.aborted === true
  const waitGone = async (ms: number, cancellable: boolean): Promise<boolean> => {
    const until = clock.now() + ms
    for (;;) {
      if (alive().length === 0) return true
      if (clock.now() >= until || (cancellable && cancelled())) return false
      await clock.sleep(Math.min(POLL_MS, until - clock.now()), cancellable ? deps.cancel : undefined)
    }
  }

  const termAt = clock.now()
  const seconds = (): number => Math.round((clock.now() - termAt) / 100) / 10
  send('SIGTERM')
  let signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'
  let gone = await waitGone(options.timeoutMs, true)
  if (!gone) {
    signal = 'SIGKILL'
    send('SIGKILL')
    // SIGKILL'd processes go within milliseconds unless stuck in the kernel: a cancelled stop waits a second for them
    gone = await waitGone(
      cancelled() ? Math.min(1_000, options.killWaitMs ?? 1_000) : (options.killWaitMs ?? 10_000),
      false
    )
  }
  const secondsToExit = seconds()
  const exited = { signal, ...(cancelled() ? { cancelled: true } : {}) }
  const record = gone
    ? { ...base, ...exited, outcome: 'exited' as const, secondsToExit }
    : { ...base, ...exited, outcome: 'survived' as const, survivors: alive() }
  return { ...record, gpu: await gpuRelease(before, atStart, family, seconds, options.gpuWaitMs ?? 30_000, deps) }
}

/** Waits up to `waitMs` for the GPU memory the server's processes held when the stop began to be released. */
export async function gpuRelease(
  before: GpuSnapshot | undefined,
  atStart: HeldMemory | undefined,
  family: () => ReadonlySet<number>,
  seconds: () => number,
  waitMs: number,
  deps: Pick<StopDeps, 'clock' | 'gpu' | 'cancel'>
): Promise<GpuRelease> {
  if (before === undefined) return { kind: 'unavailable', why: 'not asked' }
  if (before.kind === 'unavailable') return { kind: 'unavailable', why: before.why }
  // an entry whose memory nvidia-smi cannot show ([N/A]) still holds some: waited for like the others
  if (atStart === undefined || atStart.apps.length === 0) return { kind: 'none' }
  const until = deps.clock.now() + waitMs
  for (;;) {
    const now = await (deps.gpu as NonNullable<StopDeps['gpu']>)()
    const held = now.kind === 'available' ? memoryHeldBy(now, family()) : undefined
    if (held !== undefined && held.apps.length === 0) return { kind: 'released', mib: atStart.mib, seconds: seconds() }
    // a read the cancel ended (a job-end step's nvidia-smi is ended by its cancel) says nothing of the memory
    if (held === undefined && now.kind === 'unavailable' && now.why === 'cancelled')
      return { kind: 'unavailable', why: 'cancelled' }
    if (deps.clock.now() >= until || deps.cancel?.aborted === true)
      return {
        kind: 'held',
        mib: atStart.mib,
        heldMib: held?.mib ?? atStart.mib,
        seconds: seconds(),
        pids: [...new Set(held?.apps.map((a) => a.pid) ?? [])]
      }
    await deps.clock.sleep(Math.min(POLL_MS, until - deps.clock.now()), deps.cancel)
  }
}

/** Sends `signal` (0: only asks whether `pid` exists); false when there is no such process. */
function signalled(kill: NonNullable<StopDeps['kill']>, pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    kill(pid, signal as NodeJS.Signals)
    return true
  } catch (e) {
    // EPERM: it exists, but belongs to someone else
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export interface JobEnd {
  record: StopRecord
  /** Whether it went as it should: gone after SIGTERM, its GPU memory (if any) released. */
  clean: boolean
  /** The log's last lines when it did not stop cleanly; undefined otherwise or without a log. */
  logTail?: LogLine[]
  logFile?: string
}

type JobEndDeps = Pick<StopDeps, 'clock' | 'gpu' | 'cancel'>

// why it would not stop may be in its last lines (a hung NCCL teardown, a stuck writer)
export const lastLines = (state: { logFile?: string; logLines: number }): LogLine[] | undefined =>
  state.logFile === undefined || state.logLines === 0
    ? undefined
    : new LogFollower(state.logFile, state.logLines).tail()

/** Stops the server the main step launched and says how it went. Never throws for a server that is already gone. */
export async function stopAtJobEnd(state: Omit<ProcessEndState, 'kind'>, deps: JobEndDeps): Promise<JobEnd> {
  const launch = { startTicks: state.startTicks, bootId: state.bootId, marker: state.runMarker }
  const record = await stopServer({ pid: state.pid, timeoutMs: state.timeoutMs, launch }, deps)
  const exitedOnTerm = record.outcome !== 'survived' && record.signal !== 'SIGKILL'
  const clean = exitedOnTerm && record.gpu.kind !== 'held' && record.outcome !== 'refused'
  return { record, clean, logTail: exitedOnTerm ? undefined : lastLines(state), logFile: state.logFile }
}

/**
 * Stops a container with `docker stop` semantics (the image's stop signal, then SIGKILL after the timeout), then
 * waits for its processes and their GPU memory as for a process. Never throws for one already gone, nor for an
 * engine that refuses or fails (the record says what it answered); a cancel ends it within a second, whatever the
 * engine does.
 */
export async function stopContainerAtJobEnd(state: Omit<ContainerEndState, 'kind'>, deps: JobEndDeps): Promise<JobEnd> {
  const { clock } = deps
  const engine = new DockerEngine(state.socket)
  // after a cancel, every request of the engine's has what is left of a second
  const hurry = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const onCancel = (): void => void (timer = setTimeout(() => hurry.abort(), CANCELLED_ENGINE_MS))
  if (deps.cancel?.aborted === true) onCancel()
  else deps.cancel?.addEventListener('abort', onCancel, { once: true })
  const cancelled = (): boolean => deps.cancel?.aborted === true
  /** The engine's answer, or what it did instead (an error, no answer within the cancel's second). */
  const ask = async <T>(what: (signal: AbortSignal) => Promise<T>): Promise<T | { failed: string }> => {
    try {
      return await what(hurry.signal)
    } catch (e) {
      if (hurry.signal.aborted) return { failed: 'did not answer within a second of the cancel' }
      if (e instanceof EngineError) return { failed: e.message }
      return { failed: `could not be reached (${(e as Error).message})` }
    }
  }
  const failed = (v: unknown): v is { failed: string } => typeof v === 'object' && v !== null && 'failed' in v
  const base = { pid: 0, scope: 'tree' as const, container: state.container }
  const unstopped = (engineSaid: string, pids: number[], survivors: number[]): JobEnd => ({
    record: {
      ...base,
      pids,
      outcome: 'survived',
      survivors,
      engine: engineSaid,
      ...(cancelled() ? { cancelled: true } : {}),
      gpu: { kind: 'unavailable', why: 'not asked' }
    },
    clean: false,
    logTail: lastLines(state),
    logFile: state.logFile
  })
  try {
    const before = await ask((signal) => engine.inspect(state.container, { signal }))
    if (failed(before)) return unstopped(before.failed, [], [])
    if (before === undefined || !before.running)
      return {
        record: { ...base, pid: before?.pid ?? 0, pids: [], outcome: 'not-running', gpu: { kind: 'none' } },
        clean: true
      }
    base.pid = before.pid
    const listed = await ask((signal) => engine.pids(state.container, { signal }))
    const pids = failed(listed) ? [] : listed
    const tracked = new Map(pids.map((p) => [p, procStat(p)?.startTicks]))
    const alive = (): number[] =>
      [...tracked]
        .filter(([p, ticks]) => {
          const stat = procStat(p)
          return stat !== undefined && stat.state !== 'Z' && stat.startTicks === ticks
        })
        .map(([p]) => p)
    const gpuBefore = deps.gpu && !cancelled() ? await deps.gpu() : undefined
    const family = new Set(pids)
    const atStart = gpuBefore?.kind === 'available' ? memoryHeldBy(gpuBefore, family) : undefined

    const termAt = clock.now()
    const seconds = (): number => Math.round((clock.now() - termAt) / 100) / 10
    // cancelled before or during the stop: `docker stop -t 0`, since the engine goes on with the first stop whether
    // or not its caller waits
    let killedAtOnce = cancelled()
    let refused: string | undefined
    if (!killedAtOnce) {
      const stopping = await ask((signal) =>
        engine.stop(state.container, state.timeoutMs / 1000, {
          signal: deps.cancel === undefined ? signal : AbortSignal.any([signal, deps.cancel])
        })
      )
      if (cancelled()) killedAtOnce = true
      else if (failed(stopping)) refused = stopping.failed
      else refused = stopping
    }
    if (killedAtOnce) {
      const killing = await ask((signal) => engine.stop(state.container, 0, { signal, timeoutMs: 15_000 }))
      refused = failed(killing) ? killing.failed : killing
    }
    if (refused !== undefined) return unstopped(refused, pids, alive())
    // the engine answers once the main process is gone; its other processes go with the container's cgroup (a
    // cancelled stop waits a second for them, as for SIGKILL'd processes)
    for (let i = 0; alive().length > 0 && i < (cancelled() ? 10 : 50); i++) await clock.sleep(POLL_MS)
    const secondsToExit = seconds()
    const inspected = await ask((signal) => engine.inspect(state.container, { signal }))
    let after = failed(inspected) ? undefined : inspected
    const exitCode = after?.exitCode
    // `docker run --rm`: the engine removes it a moment after the stop; gone, as its run asked, before it is told
    for (let i = 0; after !== undefined && !after.running && before.autoRemove && i < 50 && !cancelled(); i++) {
      await clock.sleep(POLL_MS)
      const again = await ask((signal) => engine.inspect(state.container, { signal }))
      after = failed(again) ? undefined : again
    }
    const survivors = alive()
    const killed = killedAtOnce || secondsToExit * 1000 >= state.timeoutMs || exitCode === 137
    const record: StopRecord = {
      ...base,
      pids,
      signal: killed ? 'SIGKILL' : 'SIGTERM',
      ...(cancelled() ? { cancelled: true } : {}),
      ...(exitCode === undefined ? {} : { exitCode }),
      ...(after?.running === true || survivors.length > 0
        ? { outcome: 'survived' as const, survivors: survivors.length > 0 ? survivors : [before.pid] }
        : { outcome: 'exited' as const, secondsToExit }),
      gpu: await gpuRelease(gpuBefore, atStart, () => family, seconds, 30_000, deps)
    }
    const clean = record.outcome === 'exited' && !killed && record.gpu.kind !== 'held'
    return { record, clean, logTail: clean ? undefined : lastLines(state), logFile: state.logFile }
  } finally {
    clearTimeout(timer)
    deps.cancel?.removeEventListener('abort', onCancel)
    engine.close()
  }
}
