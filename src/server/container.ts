/**
 * The model server as a container: found on the Docker engine (at once, or once `start` has created it), its output
 * appended to a log file the gate follows like any other, its state polled so that an exit or an `unhealthy`
 * HEALTHCHECK ends the wait within a poll. The container keeps running when the wait is over.
 */
import { closeSync, writeSync } from 'node:fs'
import type { Clock } from '../runtime/clock.js'
import { type ContainerState, DockerEngine } from './docker.js'
import type { ServerLog, ServerProcess } from './process.js'
import { environment, procEnviron } from './proc.js'
import { processTree } from './port-owner.js'
import { LogFollower } from './log-follower.js'

/** How often the container's state is read: an exit is seen within this, plus one inspect (milliseconds). */
const STATE_POLL_MS = 250
/** With `start`: how long after its process exits (`docker run -d` exits at once) the container may still appear. */
const APPEAR_AFTER_START_MS = 5_000

export interface WatchedContainer extends ServerProcess {
  /** As last read; undefined until it is found. */
  readonly state: () => ContainerState | undefined
  /** Every host pid seen in the container (its main process's tree, and `top`'s). */
  readonly family: () => Set<number>
  /** Once the container is found, or the watch has ended without it. */
  readonly found: Promise<ContainerState | undefined>
}

export interface ContainerWatchOptions {
  engine: DockerEngine
  /** The name or id the user gave. */
  ref: string
  /** Found already (a container that ran before the step), or to be found (one `start` is creating). */
  initial?: ContainerState
  /** The process of `start`, whose exit before the container exists ends the watch. */
  starter?: ServerProcess
  /** Where `start`'s own output goes: its last line says why a container was never created. */
  starterLog?: string
  /** Where the container's output is appended. */
  log: ServerLog
  clock: Clock
  onHealth?(health: string, state: ContainerState): void
}

/** Watches the container `ref`; see the module comment. */
export function watchContainer(o: ContainerWatchOptions): WatchedContainer {
  const { engine, clock } = o
  const stopped = new AbortController()
  const signal = stopped.signal
  let state = o.initial
  const topPids = new Set<number>()
  let resolveExit: (how: string) => void = () => undefined
  const exited = new Promise<string>((resolve) => (resolveExit = resolve))
  let ended = false
  const end = (how: string): void => {
    if (ended) return
    ended = true
    resolveExit(how)
  }
  let starterExit: string | undefined
  void o.starter?.exited.then((how) => (starterExit = how))
  const starterFailed = (): boolean => starterExit !== undefined && !/code 0\b/.test(starterExit)
  /** `exited with code 125<when>: <its last line>` */
  const starterSaid = (when = ''): string => {
    const last = o.starterLog === undefined ? undefined : new LogFollower(o.starterLog, 1).tail()?.at(-1)
    return `${(starterExit ?? '').replace(/ \(.*\)$/, '')}${when}${last === undefined ? '' : `: ${last.text}`}`
  }

  const find = async (): Promise<ContainerState | undefined> => {
    if (state !== undefined) return state
    let starterGoneAt: number | undefined
    while (!signal.aborted) {
      const found = await engine.inspect(o.ref, { signal }).catch(() => undefined)
      if (found !== undefined) return (state = found)
      if (starterExit !== undefined) {
        starterGoneAt ??= clock.now()
        // `docker run` that failed (no such image, a name in use) never creates it
        if (starterFailed() || clock.now() - starterGoneAt > APPEAR_AFTER_START_MS) {
          end(`was never created: "start" ${starterSaid(' first')}`)
          return undefined
        }
      }
      await clock.sleep(100, signal)
    }
    return undefined
  }

  const { fd, offset: logOffset } = o.log
  let fdOpen = true
  const write = (chunk: Buffer): void => {
    if (fdOpen) writeSync(fd, chunk)
  }
  const closeLog = (): void => {
    if (fdOpen) closeSync(fd)
    fdOpen = false
  }

  const why = (s: ContainerState): string =>
    s.status === 'created'
      ? `could not be started (exit code ${s.exitCode}${s.error ? `; the engine: ${s.error}` : ''})`
      : s.oomKilled
        ? `was killed for lack of memory (OOMKilled, exit code ${s.exitCode})`
        : `exited with code ${s.exitCode}${s.error ? ` (the engine: ${s.error})` : ''}`

  let health = state?.health
  let lastTop = -Infinity
  /** Why the watch ends with the container in this state (it exited, it is unhealthy); undefined while it serves. */
  const ending = (now: ContainerState): string | undefined => {
    // `created` and no more: not started yet, unless the runtime failed to start it (an error, an exit code)
    const neverStarted = now.status === 'created' && now.error === '' && now.exitCode === 0
    if (!now.running && !neverStarted) return why(now)
    // Podman leaves one its runtime could not start `created`, with exit code 0 and no error: the client that
    // was to start it (`podman run` in `start`) failing says it never will be
    if (neverStarted && starterFailed()) return `could not be started ("start" ${starterSaid()})`
    if (now.health === health || now.health === undefined) return undefined
    health = now.health
    o.onHealth?.(now.health, now)
    if (now.health === 'unhealthy')
      return `is unhealthy (its HEALTHCHECK${now.healthLog ? `: ${now.healthLog}` : ' failed'})`
    return undefined
  }
  /** Reads the state once: false once the watch has ended. */
  const check = async (): Promise<boolean> => {
    const now = await engine.inspect(o.ref, { signal }).catch(() => 'unreadable' as const)
    if (signal.aborted || ended) return false
    // an engine that does not answer this once says nothing of the container: read again
    if (now === 'unreadable') return true
    const over = now === undefined ? 'was removed' : ending((state = now))
    if (over !== undefined) {
      end(over)
      return false
    }
    if (clock.now() - lastTop >= 1_000) {
      lastTop = clock.now()
      for (const p of await engine.pids(o.ref, { signal }).catch(() => [])) topPids.add(p)
    }
    return true
  }
  const poll = async (): Promise<void> => {
    while (await check()) await clock.sleep(STATE_POLL_MS, signal)
  }

  /**
   * The log stream ends when the container does: its state is read at once then, not a poll later. Podman's ends
   * early for a container not yet running: followed again while it runs, the part already written skipped.
   */
  const follow = async (s: ContainerState): Promise<void> => {
    let written = 0
    for (;;) {
      let at = 0
      const rest = (chunk: Buffer): void => {
        const skip = Math.min(chunk.length, Math.max(0, written - at))
        at += chunk.length
        if (skip === chunk.length) return
        write(skip === 0 ? chunk : chunk.subarray(skip))
        written = at
      }
      await engine.follow(s.id, s.tty, rest, signal)
      if (!(await check())) return
      await clock.sleep(STATE_POLL_MS, signal)
    }
  }

  const found = (async () => {
    const s = await find()
    if (s === undefined || signal.aborted) return s
    void follow(s)
    void poll()
    return s
  })()

  return {
    get pid() {
      return state?.pid ?? 0
    },
    label: `the container ${o.ref}`,
    logOffset,
    exited,
    state: () => state,
    found,
    family: () => {
      const main = state?.pid ?? 0
      return new Set([...(main > 0 ? processTree('/proc', main) : []), ...topPids])
    },
    // the serving process's own environment where /proc shows it, else the one the container was created with
    environ: () => {
      if (state === undefined) return undefined
      return (state.pid > 0 ? procEnviron(state.pid) : undefined) ?? environment(state.env)
    },
    release: () => {
      stopped.abort()
      o.starter?.release()
      engine.close()
      closeLog()
    }
  }
}

/** The container's start on the clock's scale, from the engine's wall-clock StartedAt. */
export const startedOnClock = (s: ContainerState | undefined, clock: Clock): number | undefined =>
  s?.startedAtMs === undefined ? undefined : clock.now() - Math.max(0, clock.wallMs() - s.startedAtMs)
