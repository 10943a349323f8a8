/**
 * The model server as a container: found on the Docker engine (at once, or once `start` has created it), its output
 * appended to a log file the gate follows like any other, its state polled so that an exit or an `unhealthy`
 * HEALTHCHECK ends the wait within a poll. The container keeps running when the wait is over.
 */
import { closeSync, readFileSync, writeSync } from 'node:fs'
import type { Clock } from '../runtime/clock.js'
import { type ContainerState, DockerEngine, EngineError } from './docker.js'
import type { ServerLog, ServerProcess } from './process.js'
import { environment, procEnviron } from './proc.js'
import { processTree } from './port-owner.js'
import { LogFollower } from './log-follower.js'

/** How often the container's state is read: an exit is seen within this, plus one inspect (milliseconds). */
const STATE_POLL_MS = 250
/** With `start`: how long after its process exits (`docker run -d` exits at once) the container may still appear. */
const APPEAR_AFTER_START_MS = 5_000
/** An engine whose every answer fails this long (an HTTP error, not a container, none) cannot be watched through. */
const ENGINE_FAULT_MS = 3_000
/** Restarts by its restart policy, seen restarting again, that make a restart loop. */
const RESTART_LOOP = 3

export interface WatchedContainer extends ServerProcess {
  /** As last read; undefined until it is found. */
  readonly state: () => ContainerState | undefined
  /** Every host pid seen in the container (its main process's tree, and `top`'s). */
  readonly family: () => Set<number>
  /** Once the container is found, or the watch has ended without it. */
  readonly found: Promise<ContainerState | undefined>
  /** `start` ended without creating it (a name another container holds): nothing of this run's to stop. */
  readonly neverCreated: () => boolean
  /** Whether the engine's pids are this machine's (false: another pid namespace, as with Docker-in-Docker). */
  readonly pidsTrusted: () => boolean
}

export interface ContainerWatchOptions {
  engine: DockerEngine
  /** The name or id the user gave. */
  ref: string
  /** Found already (a container that ran before the step), or to be found (one `start` is creating). */
  initial?: ContainerState
  /**
   * With `start`: the container that held the name before it ran. It is not this run's unless the engine started
   * it since (`docker start`) and `start` has not failed: a refused `docker run` (the name in use) leaves it another's.
   */
  before?: ContainerState
  /** With `start`: when it ran, on the wall clock. */
  startWallMs?: number
  /** The engine's failure to answer the pre-flight's inspect: one more failure ends the watch. */
  engineFault?: boolean
  /** Said once when the engine's pids turn out not to be this machine's. */
  onForeignPids?(state: ContainerState): void
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
    // the client's error line, not the usage hint after it (`See 'docker run --help'.`)
    const lines = o.starterLog === undefined ? [] : (new LogFollower(o.starterLog, 5).tail() ?? [])
    const last = [...lines].reverse().find((l) => /\berror\b/i.test(l.text)) ?? lines.at(-1)
    return `${(starterExit ?? '').replace(/ \(.*\)$/, '')}${when}${last === undefined ? '' : `: ${last.text}`}`
  }

  let faultSince: number | undefined = o.engineFault === true ? -Infinity : undefined
  /** The engine's answer, or undefined when it knows no such container; ends the watch once it has failed too long. */
  const read = async (): Promise<ContainerState | undefined | 'unreadable'> => {
    try {
      const now = await engine.inspect(o.ref, { signal })
      faultSince = undefined
      return now
    } catch (e) {
      if (signal.aborted) return 'unreadable'
      faultSince ??= clock.now()
      // one failed answer says nothing of the container; an engine that keeps failing cannot tell an exit
      if (clock.now() - faultSince >= ENGINE_FAULT_MS || !(e instanceof EngineError))
        end(`cannot be watched: the engine at ${engine.socketPath} ${e instanceof EngineError ? e.message : String(e)}`)
      return 'unreadable'
    }
  }

  let neverCreated = false
  /** Another's container by that name: the one there before `start`, or one created before it ran. */
  const anothers = (s: ContainerState): boolean => {
    const startWall = o.startWallMs ?? -Infinity
    // `docker start` of one created earlier (also attached, never exiting): started since `start` ran
    if (o.before !== undefined && s.id === o.before.id)
      return starterFailed() || !((s.startedAtMs ?? -Infinity) >= startWall)
    return s.createdAtMs !== undefined && s.createdAtMs < startWall - 1_000
  }
  const find = async (): Promise<ContainerState | undefined> => {
    if (state !== undefined) return state
    let starterGoneAt: number | undefined
    while (!signal.aborted && !ended) {
      const found = await read()
      if (found !== undefined && found !== 'unreadable' && !(o.starter !== undefined && anothers(found)))
        return (state = found)
      if (starterExit !== undefined) {
        starterGoneAt ??= clock.now()
        // `docker run` that failed (no such image, a name in use) never creates it
        if (starterFailed() || clock.now() - starterGoneAt > APPEAR_AFTER_START_MS) {
          neverCreated = true
          const held =
            found !== undefined && found !== 'unreadable'
              ? ` (the container ${o.ref} there, ${found.id.slice(0, 12)}, is not this run's: left alone)`
              : ''
          end(`was never created: "start" ${starterSaid(' first')}${held}`)
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

  // read from the first look on: a container already unhealthy when the wait begins ends it at once
  let health: string | undefined
  let lastTop = -Infinity
  let restarts: number | undefined
  let restarting = false
  let exitSeen = false
  const exits: number[] = []
  /** A restart loop: restarted by its policy again and again, the exit codes seen between. */
  const restartLoop = (now: ContainerState): string | undefined => {
    const rose = restarts !== undefined && now.restartCount > restarts
    // each exit once: seen while the engine waits to restart it, or only by the count that rose since
    if (now.restarting && !restarting) exits.push(now.exitCode)
    else if (rose && !exitSeen && now.exitCode !== 0) exits.push(now.exitCode)
    exitSeen = now.restarting || (exitSeen && !rose)
    restarting = now.restarting
    restarts = now.restartCount
    if ((!rose && !now.restarting) || now.restartCount < RESTART_LOOP) return undefined
    const codes =
      exits.length === 0 ? '' : `; exit code${exits.length === 1 ? '' : 's'} seen: ${exits.slice(-10).join(', ')}`
    return `is in a restart loop: the engine has restarted it ${now.restartCount} times (its restart policy)${codes}`
  }
  /** Why the watch ends with the container in this state (it exited, it is unhealthy); undefined while it serves. */
  const ending = (now: ContainerState): string | undefined => {
    // `created` and no more: not started yet, unless the runtime failed to start it (an error, an exit code)
    const neverStarted = now.status === 'created' && now.error === '' && now.exitCode === 0
    if (!now.running && !neverStarted) return why(now)
    const loop = restartLoop(now)
    if (loop !== undefined) return loop
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
    const now = await read()
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
      // only the pids this machine shows in the container (another pid namespace's are strangers' here)
      for (const p of await engine.pids(o.ref, { signal }).catch(() => []))
        if (inContainer(p, state?.id ?? '') === 'yes') topPids.add(p)
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

  let toldForeign = false
  /** Whether the main pid the engine gives is, on this machine, a process of the container. */
  function pidsTrusted(): boolean {
    if (state === undefined || state.pid <= 0) return true
    // a main process gone since the last look is no stranger: it has no processes here to count either way
    if (inContainer(state.pid, state.id) !== 'no') return true
    if (!toldForeign) {
      toldForeign = true
      o.onForeignPids?.(state)
    }
    return false
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
    neverCreated: () => neverCreated,
    pidsTrusted,
    family: () => {
      const main = pidsTrusted() ? (state?.pid ?? 0) : 0
      return new Set([...(main > 0 ? processTree('/proc', main) : []), ...topPids])
    },
    // the serving process's own environment where /proc shows it, else the one the container was created with
    environ: () => {
      if (state === undefined) return undefined
      return (state.pid > 0 && pidsTrusted() ? procEnviron(state.pid) : undefined) ?? environment(state.env)
    },
    release: () => {
      stopped.abort()
      o.starter?.release()
      engine.close()
      closeLog()
    }
  }
}

/**
 * Whether `pid` is, on this machine, a process of the container `id`: its cgroup names the container (Docker's
 * `docker-<id>.scope` or `/docker/<id>`, Podman's `libpod-<id>`); `gone` where no such process is left. An engine
 * in another pid namespace (Docker in Docker) gives pids that here are other processes, or none.
 */
function inContainer(pid: number, id: string): 'yes' | 'no' | 'gone' {
  try {
    return id.length >= 12 && readFileSync(`/proc/${pid}/cgroup`, 'utf8').includes(id) ? 'yes' : 'no'
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'no'
  }
}

/** The container's start on the clock's scale, from the engine's wall-clock StartedAt. */
export const startedOnClock = (s: ContainerState | undefined, clock: Clock): number | undefined =>
  s?.startedAtMs === undefined ? undefined : clock.now() - Math.max(0, clock.wallMs() - s.startedAtMs)
