/**
 * Stops a server and everything it started: SIGTERM to its process group, up to a timeout for it to exit, then
 * SIGKILL; then waits until none of its processes remain and, where nvidia-smi tells, until none of them holds GPU
 * memory (the next job on a shared runner needs it back). The answer is a record of how it went, never words.
 */
import { type GpuSnapshot, memoryHeldBy } from '../gpu/nvidia-smi.js'
import { procPids, procStat } from './proc.js'
import { processTree } from './port-owner.js'
import type { Clock } from '../runtime/clock.js'
import type { ProcessEndState } from './job-end.js'
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

export interface StopOptions {
  /** The server: the leader of its process group (as `start` launches it), or any process of it. */
  pid: number
  /** From SIGTERM until SIGKILL. */
  timeoutMs: number
  /** After SIGKILL, how long to wait for the processes to go before calling them survivors. */
  killWaitMs?: number
  /** After the processes have gone, how long to wait for their GPU memory to be released. */
  gpuWaitMs?: number
  pollMs?: number
  /**
   * The server as recorded at launch (the job-end state): `pid` is signalled only while it is still that process,
   * and the processes that carry `marker` in their environment are the server's too. Without it (`wait-for-model
   * stop --pid`, the user's own word) the pid is taken as given.
   */
  launch?: Recorded & { marker?: string }
}
export interface StopDeps {
  clock: Clock
  /** Reads the GPUs (nvidia-smi); without it, GPU memory is not looked at. */
  gpu?(): Promise<GpuSnapshot>
  /** Sends a signal (a negative pid: to a process group); process.kill by default. */
  kill?(pid: number, signal: NodeJS.Signals): void
  /** How the leader exited, where the caller is its parent and can know. */
  exited?: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Where procfs is mounted. */
  proc?: string
  /**
   * Aborted when the stopper itself is cancelled (the job-end step, signalled): no more waiting, SIGKILL at once,
   * the GPU memory read once and not waited for.
   */
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
  /** A container stopped through its engine (its name or id); `pid` is then its main process. */
  container?: string
  /** `group`: `pid` leads its process group, which was signalled whole; `tree`: it does not, so `pid` and its
   * descendants were signalled one by one (a group it merely belongs to may hold the runner itself). */
  scope: 'group' | 'tree'
  /**
   * `not-running`: nothing to stop; `exited`: all its processes are gone; `survived`: some outlived SIGKILL;
   * `refused`: `pid` is a process no stop may signal (`refused` says which), nothing was signalled.
   */
  outcome: 'not-running' | 'exited' | 'survived' | 'refused'
  /** The processes of the server when the stop began. */
  pids: number[]
  /** Why `pid` itself was not signalled: this process, an ancestor of it, pid 1, the runner. */
  refused?: Spared
  /** `pid` is no longer the process launched then (`launch`): left alone, with its group. */
  notOurs?: Exclude<Identity, { kind: 'same' | 'gone' }>
  /** Processes that carry the run's marker outside the server's group and tree (an escaped worker): stopped too. */
  escaped?: number[]
  /** Processes of its group or tree that no stop may signal (this process, an ancestor, the runner): left alone. */
  spared?: number[]
  /** The last signal sent: SIGTERM, or SIGKILL once the timeout passed. */
  signal?: 'SIGTERM' | 'SIGKILL'
  /** The leader's exit, where known (only its parent can know). */
  exitCode?: number | null
  exitSignal?: NodeJS.Signals | null
  /** From SIGTERM until the last of its processes was gone. */
  secondsToExit?: number
  /** Still running after SIGKILL. */
  survivors?: number[]
  gpu: GpuRelease
  /** The stop was cancelled (see `StopDeps.cancel`): what it skipped was skipped for that. */
  cancelled?: boolean
}

interface Member {
  pid: number
  startTicks?: number
}

/** Stops the server `pid` and its processes; see the module comment. */
export async function stopServer(options: StopOptions, deps: StopDeps): Promise<StopRecord> {
  const { clock } = deps
  const proc = deps.proc ?? '/proc'
  const pollMs = options.pollMs ?? 100
  const kill = deps.kill ?? ((pid, signal) => process.kill(pid, signal))
  const guard = processGuard(proc)
  const refused = guard.spared(options.pid)
  if (refused !== undefined)
    return { pid: options.pid, scope: 'tree', outcome: 'refused', refused, pids: [], gpu: { kind: 'none' } }
  const { launch } = options
  const identity = launch === undefined ? undefined : identify(options.pid, launch, proc)
  const notOurs = identity === undefined || identity.kind === 'same' || identity.kind === 'gone' ? undefined : identity
  // after a reboot nothing running can be the server's; a reused pid is a stranger's, and so is its group; a pid
  // that cannot be checked is left alone like one that failed the check
  const leader = notOurs === undefined ? procStat(options.pid, proc) : undefined
  const inGroup = (): number[] => procPids(proc).filter((p) => procStat(p, proc)?.pgrp === options.pid)
  // A group outlives its leader (workers left behind by a server that crashed), and Linux reuses no pid that
  // still names a group: with the leader gone, processes in group `pid` are that server's. With a launch
  // record, only those that carry its marker are: the group may be a stranger's that took the pid and left.
  const leaderless = notOurs === undefined && (leader === undefined || leader.state === 'Z')
  const marker = notOurs?.kind === 'rebooted' ? undefined : launch?.marker
  const seen = new Map<string, boolean>()
  const marked = (): number[] =>
    marker === undefined ? [] : markedProcesses(marker, launch?.startTicks ?? 0, seen, proc)
  // never a group a spared process is in: that would stop the stopper (and the runner's step with it)
  const groupScope =
    notOurs === undefined &&
    !guard.groupSpared(options.pid) &&
    (leaderless ? launch === undefined && inGroup().length > 0 : leader?.pgrp === options.pid)
  const scope = groupScope ? 'group' : 'tree'
  const spared = new Set<number>()
  const members = (): Member[] => {
    // a pid checked as gone may be taken by a stranger any moment: with a launch record, it is not looked at again
    const tree =
      notOurs === undefined && !(leaderless && launch !== undefined) ? [...processTree(proc, options.pid)] : []
    const group = groupScope ? inGroup() : []
    // with the leader gone, its group's processes that carry the marker are among these
    const tagged = marked()
    const found = new Set([...tree, ...group, ...(tagged.length > 0 ? descendantsOf(tagged, proc) : [])])
    return [...found].flatMap((pid) => {
      if (guard.spared(pid) !== undefined) {
        spared.add(pid)
        return []
      }
      const stat = procStat(pid, proc)
      // without /proc only the pid itself can be asked about (and, with a launch record, not even that)
      if (stat === undefined)
        return pid === options.pid && launch === undefined && signalled(kill, pid, 0) ? [{ pid }] : []
      return stat.state === 'Z' ? [] : [{ pid, startTicks: stat.startTicks }]
    })
  }
  const initial = members()
  const inside = new Set(notOurs === undefined ? [...processTree(proc, options.pid), ...inGroup()] : [])
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
  const heldAtStart = atStart?.mib ?? 0
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
  void deps.exited?.then((e) => (exit = e))

  const alive = (): number[] => {
    const now = members()
    // any process the server has started since counts too
    for (const m of now) if (!tracked.has(m.pid)) tracked.set(m.pid, m.startTicks)
    return now.filter((m) => tracked.get(m.pid) === m.startTicks).map((m) => m.pid)
  }
  const send = (signal: NodeJS.Signals): void => {
    if (scope === 'group') {
      signalled(kill, -options.pid, signal)
      // the group had them all, but for those that left it
      for (const pid of alive()) if (procStat(pid, proc)?.pgrp !== options.pid) signalled(kill, pid, signal)
    } else for (const pid of alive()) signalled(kill, pid, signal)
  }
  const cancelled = (): boolean => deps.cancel?.aborted === true
  const waitGone = async (ms: number, cancellable: boolean): Promise<boolean> => {
    const until = clock.now() + ms
    for (;;) {
      if (alive().length === 0) return true
      if (clock.now() >= until || (cancellable && cancelled())) return false
      await clock.sleep(Math.min(pollMs, until - clock.now()), cancellable ? deps.cancel : undefined)
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
  // /proc loses a process a moment before its parent hears of the exit: a few polls for the code
  for (let i = 0; gone && deps.exited !== undefined && exit === undefined && i < 10 && !cancelled(); i++)
    await clock.sleep(pollMs)
  const exited = {
    signal,
    ...(cancelled() ? { cancelled: true } : {}),
    ...(exit === undefined ? {} : { exitCode: exit.code, exitSignal: exit.signal })
  }
  const record = gone
    ? { ...base, ...exited, outcome: 'exited' as const, secondsToExit }
    : { ...base, ...exited, outcome: 'survived' as const, survivors: alive() }

  if (before === undefined) return { ...record, gpu: { kind: 'unavailable', why: 'not asked' } }
  if (before.kind === 'unavailable') return { ...record, gpu: { kind: 'unavailable', why: before.why } }
  // an entry whose memory nvidia-smi cannot show ([N/A]) still holds some: waited for like the others
  if (atStart === undefined || atStart.apps.length === 0) return { ...record, gpu: { kind: 'none' } }
  const gpuUntil = clock.now() + (options.gpuWaitMs ?? 30_000)
  for (;;) {
    const now = await (deps.gpu as NonNullable<StopDeps['gpu']>)()
    const held = now.kind === 'available' ? memoryHeldBy(now, family()) : undefined
    if (held !== undefined && held.apps.length === 0)
      return { ...record, gpu: { kind: 'released', mib: heldAtStart, seconds: seconds() } }
    // a read the cancel ended (a job-end step's nvidia-smi is ended by its cancel) says nothing of the memory
    if (held === undefined && now.kind === 'unavailable' && now.why === 'cancelled')
      return { ...record, gpu: { kind: 'unavailable', why: 'cancelled' } }
    if (clock.now() >= gpuUntil || cancelled()) {
      return {
        ...record,
        gpu: {
          kind: 'held',
          mib: heldAtStart,
          heldMib: held?.mib ?? heldAtStart,
          seconds: seconds(),
          pids: [...new Set(held?.apps.map((a) => a.pid) ?? [])]
        }
      }
    }
    await clock.sleep(Math.min(pollMs, gpuUntil - clock.now()), deps.cancel)
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
  /** The log's last lines when it did not exit on SIGTERM (or outlived SIGKILL); undefined otherwise or without a log. */
  logTail?: LogLine[]
  logFile?: string
}

/** Stops the server the main step launched and says how it went. Never throws for a server that is already gone. */
export async function stopAtJobEnd(
  state: Omit<ProcessEndState, 'kind'>,
  deps: { clock: Clock; gpu?(): Promise<GpuSnapshot>; proc?: string; cancel?: AbortSignal }
): Promise<JobEnd> {
  const launch = { startTicks: state.startTicks, bootId: state.bootId, marker: state.runMarker }
  const record = await stopServer({ pid: state.pid, timeoutMs: state.timeoutMs, launch }, deps)
  const exitedOnTerm = record.outcome !== 'survived' && record.signal !== 'SIGKILL'
  const clean = exitedOnTerm && record.gpu.kind !== 'held' && record.outcome !== 'refused'
  // why it would not stop may be in its last lines (a hung NCCL teardown, a stuck writer)
  const logTail =
    exitedOnTerm || state.logFile === undefined || state.logLines === 0
      ? undefined
      : new LogFollower(state.logFile, state.logLines).tail()
  return { record, clean, logTail, logFile: state.logFile }
}
