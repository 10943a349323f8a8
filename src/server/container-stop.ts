/**
 * The job-end stop of a container with `docker stop` semantics (`POST /containers/{id}/stop?t=<stop timeout>`: the
 * image's stop signal, SIGTERM by default, then SIGKILL), then a wait until its processes are gone and their GPU
 * memory is released, told as the stop of a process is (a StopRecord).
 */
import { type GpuSnapshot, memoryHeldBy } from '../gpu/nvidia-smi.js'
import type { Clock } from '../runtime/clock.js'
import type { ContainerEndState } from './job-end.js'
import { DockerEngine } from './docker.js'
import { LogFollower } from './log-follower.js'
import { procStat } from './proc.js'
import type { JobEnd, StopRecord } from './stop.js'

export interface ContainerStopDeps {
  clock: Clock
  gpu?(): Promise<GpuSnapshot>
  proc?: string
  /** After the container has stopped, how long to wait for its GPU memory to be released. */
  gpuWaitMs?: number
  pollMs?: number
  /**
   * Aborted when the stopper itself is cancelled (the job-end step, signalled), as for a process (stop.ts): no more
   * waiting, the engine's SIGKILL at once (`docker stop -t 0`), its GPU memory not waited for.
   */
  cancel?: AbortSignal
}

/** Stops the container and says how it went; never throws for one already gone. */
export async function stopContainerAtJobEnd(
  state: Omit<ContainerEndState, 'kind'>,
  deps: ContainerStopDeps
): Promise<JobEnd> {
  const { clock } = deps
  const proc = deps.proc ?? '/proc'
  const pollMs = deps.pollMs ?? 100
  const engine = new DockerEngine(state.socket)
  try {
    const before = await engine.inspect(state.container)
    const base = { pid: before?.pid ?? 0, scope: 'tree' as const, container: state.container }
    if (before === undefined || !before.running)
      return { record: { ...base, pids: [], outcome: 'not-running', gpu: { kind: 'none' } }, clean: true }
    const pids = await engine.pids(state.container)
    const tracked = new Map(pids.map((p) => [p, procStat(p, proc)?.startTicks]))
    const alive = (): number[] =>
      [...tracked]
        .filter(([p, ticks]) => {
          const stat = procStat(p, proc)
          return stat !== undefined && stat.state !== 'Z' && stat.startTicks === ticks
        })
        .map(([p]) => p)
    const gpuBefore = deps.gpu ? await deps.gpu() : undefined
    const family = new Set(pids)
    const atStart = gpuBefore?.kind === 'available' ? memoryHeldBy(gpuBefore, family) : undefined

    const termAt = clock.now()
    const seconds = (): number => Math.round((clock.now() - termAt) / 100) / 10
    const cancelled = (): boolean => deps.cancel?.aborted === true
    const killedAtOnce = await stopOrKill(engine, state, deps.cancel)
    // the engine answers once the main process is gone; its other processes go with the container's cgroup (a
    // cancelled stop waits a second for them, as for SIGKILL'd processes)
    for (let i = 0; alive().length > 0 && i < (cancelled() ? 10 : 50); i++) await clock.sleep(pollMs)
    const secondsToExit = seconds()
    let after = await engine.inspect(state.container)
    const exitCode = after?.exitCode
    // `docker run --rm`: the engine removes it a moment after the stop; gone, as its run asked, before it is told
    for (let i = 0; after !== undefined && !after.running && before.autoRemove && i < 50 && !cancelled(); i++) {
      await clock.sleep(pollMs)
      after = await engine.inspect(state.container)
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
      gpu: { kind: 'none' }
    }
    record.gpu = await gpuRelease(gpuBefore, atStart, family, seconds, deps)
    const clean = record.outcome === 'exited' && !killed && record.gpu.kind !== 'held'
    const logTail =
      clean || state.logFile === undefined || state.logLines === 0
        ? undefined
        : new LogFollower(state.logFile, state.logLines).tail()
    return { record, clean, logTail, logFile: state.logFile }
  } finally {
    engine.close()
  }
}

/**
 * `docker stop` with the stop timeout; cancelled before or during it, `docker stop -t 0` (the stop signal, then
 * SIGKILL at once), since the engine goes on with the first stop whether or not its caller waits. True when the
 * cancel made it a kill.
 */
async function stopOrKill(
  engine: DockerEngine,
  state: Omit<ContainerEndState, 'kind'>,
  cancel?: AbortSignal
): Promise<boolean> {
  const cancelled = (): boolean => cancel?.aborted === true
  if (!cancelled())
    try {
      await engine.stop(state.container, state.timeoutMs / 1000, { signal: cancel })
      return false
    } catch (e) {
      if (!cancelled()) throw e
    }
  await engine.stop(state.container, 0)
  return true
}

async function gpuRelease(
  before: GpuSnapshot | undefined,
  atStart: ReturnType<typeof memoryHeldBy> | undefined,
  family: Set<number>,
  seconds: () => number,
  deps: ContainerStopDeps
): Promise<StopRecord['gpu']> {
  if (before === undefined) return { kind: 'unavailable', why: 'not asked' }
  if (before.kind === 'unavailable') return { kind: 'unavailable', why: before.why }
  if (atStart === undefined || atStart.apps.length === 0) return { kind: 'none' }
  const until = deps.clock.now() + (deps.gpuWaitMs ?? 30_000)
  for (;;) {
    const now = await (deps.gpu as NonNullable<ContainerStopDeps['gpu']>)()
    const held = now.kind === 'available' ? memoryHeldBy(now, family) : undefined
    if (held !== undefined && held.apps.length === 0) return { kind: 'released', mib: atStart.mib, seconds: seconds() }
    // a read the cancel ended says nothing of the memory
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
    await deps.clock.sleep(Math.min(deps.pollMs ?? 100, until - deps.clock.now()), deps.cancel)
  }
}
