/** The model server as a process: launched by `start` or found by `pid`, watched until it exits, left running. */
import { closeSync, constants, existsSync, fstatSync, mkdirSync, readFileSync } from 'node:fs'
import { createOwn, openOwn, readSmallFile } from '../runtime/own-files.js'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { printable } from '../runtime/text.js'
import { InputError, PID_FORM } from '../inputs/input-error.js'
import { isInputVariable } from '../inputs/variables.js'
import type { Clock } from '../runtime/clock.js'
import { procEnviron, procStat } from './proc.js'

export interface ServerProcess {
  pid: number
  /** What the exit is said of, where not `the server process <pid>`. */
  label?: string
  /** On the clock's scale; undefined when unknown (no /proc). */
  startedAt?: number
  /** Settles once the process has exited, saying how ("exited with code 1", "was killed by SIGKILL"). */
  exited: Promise<string>
  environ(): Record<string, string> | undefined
  /** Stops watching; the process keeps running. */
  release(): void
  /** With `start`: the size of the log before the server began to append to it. */
  logOffset?: number
  /** `/proc/<pid>/stat` field 22, read at launch or when first watched; undefined without /proc. */
  startTicks?: number
}

const randomPart = (): string => process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')

/**
 * Where the log goes with `start` and no `log-file`: a new file in the runner's temporary directory, created now and
 * exclusively, so that no other run's log is ever truncated and no link planted at a name we would use is followed.
 */
export function newLogFile(env: NodeJS.ProcessEnv, pid = process.pid): string {
  const dir = env.RUNNER_TEMP || tmpdir()
  for (let n = 1; ; n++) {
    // a random part: a name another user of a shared folder can guess is one they can plant a link at
    const path = join(dir, `model-server-${pid}-${randomPart()}.log`)
    try {
      if (n === 1) mkdirSync(dir, { recursive: true })
      closeSync(createOwn(path))
      return path
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'EEXIST' && n < 10) continue
      throw new InputError('log-file', {
        problem: `none given, and no new log can be created in "${printable(dir)}" (${code ?? (e as Error).message})`
      })
    }
  }
}

/** The step's environment, without the action's own `INPUT_*` variables (its api-key) and the runner's internals. */
export function serverEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (e): e is [string, string] => e[1] !== undefined && !isInputVariable(e[0]) && !isRunnerInternal(e[0])
    )
  )
}

/** A run marker for the server's environment: 128 random bits, so that no other process carries it by chance. */
export const newRunMarker = (): string => process.getBuiltinModule('node:crypto').randomBytes(16).toString('hex')

const FOREGROUND_HINT =
  '"start" must run the server in the foreground, without & or nohup: the action puts it in the background'

/** Like a `run:` step: bash, which also execs a lone command so that the pid is the server's own. */
const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh'

export interface ServerLog {
  fd: number
  /** Its size when opened: what it held before is an earlier run's. */
  offset: number
}

/**
 * Opens the log a server's output is appended to (never truncated: it may be a log the user keeps, or another
 * run's), before anything starts, so that a bad one runs nothing.
 */
export function openServerLog(path: string): ServerLog {
  try {
    mkdirSync(dirname(path), { recursive: true })
    // never through a symbolic link (nor into a FIFO): the server's output would go wherever it points
    const fd = openOwn(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT)
    return { fd, offset: fstatSync(fd).size }
  } catch (e) {
    throw new InputError('log-file', {
      value: printable(path),
      problem: `cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`
    })
  }
}

/**
 * Runs `command` with the shell, detached in its own process group (pid = group id) so that it outlives the step
 * and a signal to the action does not reach it; its output is appended to `logFile`.
 */
export function startServer(
  command: string,
  logFile: string,
  env: Record<string, string>,
  clock: Clock
): ServerProcess {
  const { fd, offset: logOffset } = openServerLog(logFile)
  try {
    // node:child_process (with node:dgram) only for `start`
    const child = process
      .getBuiltinModule('node:child_process')
      .spawn(SHELL, ['-c', command], { detached: true, stdio: ['ignore', fd, fd], env })
    const startedAt = clock.now()
    const exited = new Promise<string>((resolve) => {
      child.once('error', (e) => resolve(`could not be started (${e.message})`))
      child.once('exit', (code, signal) =>
        resolve(
          signal
            ? `was killed by ${signal}`
            : code === 0
              ? `exited with code 0 (${FOREGROUND_HINT})`
              : `exited with code ${code}`
        )
      )
    })
    child.unref()
    const pid = child.pid
    if (pid === undefined) throw new Error(`could not start ${SHELL} for "start"`)
    return {
      pid,
      startedAt,
      // read at once: the fork has happened, and an exec (bash running a lone command) keeps the pid and the time
      startTicks: procStat(pid)?.startTicks,
      exited,
      // Once the shell has exec'd the server (or if it has exited), what it was given is what it started with.
      environ: () => procEnviron(pid) ?? env,
      release: () => child.removeAllListeners(),
      logOffset
    }
  } finally {
    closeSync(fd)
  }
}

/** Watches a process started elsewhere; it is polled, since only a parent hears of its child's exit. */
export function attachServer(pid: number, clock: Clock, pollMs = 250): ServerProcess {
  const first = procStat(pid)
  const ageMs = first === undefined ? undefined : processAgeMs(first.startTicks)
  let timer: NodeJS.Timeout | undefined
  const exited = new Promise<string>((resolve) => {
    const check = (): void => {
      const why = gone(pid, first?.startTicks)
      if (why === undefined) return
      clearInterval(timer)
      resolve(why)
    }
    timer = setInterval(check, pollMs)
    check()
  })
  return {
    pid,
    startedAt: ageMs === undefined ? undefined : clock.now() - ageMs,
    startTicks: first?.startTicks,
    exited,
    environ: () => procEnviron(pid),
    release: () => clearInterval(timer)
  }
}

/** A pid file holds one number and a newline: anything larger is not one. */
const PID_FILE_MAX_BYTES = 4096

/** Reads `pid` when it names a file: a regular file only, of a few bytes, read without blocking. */
export function resolvePid(spec: { pid: number } | { file: string }): number {
  if ('pid' in spec) return spec.pid
  let text: string
  try {
    text = readSmallFile(spec.file, PID_FILE_MAX_BYTES).trim()
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message
    throw new InputError('pid', {
      problem: `could not read "${printable(spec.file)}" (${why})`,
      form: PID_FORM
    })
  }
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new InputError('pid', {
      value: printable(spec.file),
      problem: `holds "${printable(text)}", not a process id`
    })
  return Number(text)
}

/** Why the process is no longer running, or undefined while it runs. */
function gone(pid: number, startTicks: number | undefined): string | undefined {
  const stat = procStat(pid)
  if (stat !== undefined) {
    if (stat.state === 'Z') return 'has exited (a zombie awaiting its parent)'
    // the same id on a process that started at another time: ours is gone and the id was reused
    if (startTicks !== undefined && stat.startTicks !== startTicks)
      return 'has exited (its process id now belongs to another process)'
    return undefined
  }
  try {
    process.kill(pid, 0)
    return undefined
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? undefined : 'is not running'
  }
}

/** USER_HZ, the unit of /proc start times: 100 on every Linux architecture GitHub runners use. */
const TICKS_PER_SECOND = 100

function processAgeMs(startTicks: number): number | undefined {
  try {
    const uptimeS = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0])
    return Math.max(0, uptimeS * 1000 - (startTicks * 1000) / TICKS_PER_SECOND)
  } catch {
    return undefined
  }
}

/** When `pid` started, on the wall clock (ms since the epoch, to /proc's 10 ms); undefined when it is not running. */
export function processStartedAt(pid: number): number | undefined {
  const stat = procStat(pid)
  const ageMs = stat === undefined ? undefined : processAgeMs(stat.startTicks)
  return ageMs === undefined ? undefined : Date.now() - ageMs
}

/**
 * What the runner gives the action's own process and no `run:` step (its `NodeScriptActionHandler`): the Actions
 * runtime's token (the job's cache and artifact credential), the cache and results services, the OIDC token request.
 * A detached server outlives the step and may run code the job did not write: it gets the environment of a `run:`
 * step, not the action's (the list is docs/server.md's).
 */
const RUNNER_PREFIXES = ['ACTIONS_RUNTIME_', 'ACTIONS_ID_TOKEN_', 'ACTIONS_CACHE_', 'ACTIONS_RESULTS_'] as const

/** This step's own file commands: a server writing to them would forge what the action tells the runner. */
const STEP_FILES = ['GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STEP_SUMMARY'] as const

const isRunnerInternal = (name: string): boolean =>
  RUNNER_PREFIXES.some((p) => name.startsWith(p)) || (STEP_FILES as readonly string[]).includes(name)
