/**
 * The history file, one JSON line per finished wait, shared by every job on a runner: read, appended under its lock,
 * trimmed per key. Imports only Node, record.ts and own-files.ts, so that tests can run it in plain child processes.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync
} from 'node:fs'
import { dirname, join } from 'node:path'
import { createOwn, createTempBeside, openOwn, SymlinkRefused } from '../runtime/own-files.js'
import { KEEP_RUNS, type RunRecord } from './record.js'

/** One `write` with O_APPEND, kept under PIPE_BUF (the size POSIX makes atomic), is appended whole anywhere. */
export const MAX_LINE_BYTES = 4096
/** Only the end of a larger file is read (several thousand runs). */
const MAX_READ_BYTES = 8 * 1024 * 1024
/** A lock older than this was left by a process that died while holding it. */
const STALE_LOCK_MS = 10_000
const LOCK_WAIT_MS = 2_000

/** The runner's tool cache (kept between jobs on self-hosted runners) or the user's cache. */
export function defaultHistoryFile(
  env: NodeJS.ProcessEnv,
  frontEnd: 'action' | 'cli'
): { path?: string; notice?: string } {
  if (frontEnd === 'action') {
    return env.RUNNER_TOOL_CACHE
      ? { path: join(env.RUNNER_TOOL_CACHE, 'wait-for-model', 'history.jsonl') }
      : { notice: 'History is off: RUNNER_TOOL_CACHE is not set; give "history-file" to keep it elsewhere.' }
  }
  const base = env.XDG_CACHE_HOME || (env.HOME ? join(env.HOME, '.cache') : undefined)
  return base
    ? { path: join(base, 'wait-for-model', 'history.jsonl') }
    : { notice: 'History is off: neither XDG_CACHE_HOME nor HOME is set; give --history-file to keep it elsewhere.' }
}

/** Hashed, so that no secret in the URL, model or start command lands in the file. */
export function historyKey(url: string, model: string | undefined, start: string | undefined): string {
  // node:crypto is loaded only for a history that is on
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(JSON.stringify([url, model ?? '', start ?? '']))
    .digest('hex')
    .slice(0, 16)
}

const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT

/** A reason in words when the file cannot be appended to (history is then off). */
export function prepareHistory(path: string): string | undefined {
  try {
    mkdirSync(dirname(path), { recursive: true })
    const existing = lstatSync(path, { throwIfNoEntry: false })
    if (existing?.isSymbolicLink()) throw new SymlinkRefused(path)
    if (existing !== undefined && !existing.isFile()) throw new Error('not a regular file')
    closeSync(openOwn(path, APPEND))
    return undefined
  } catch (e) {
    // the message of a refused symbolic link names the path already
    if (e instanceof SymlinkRefused) return `History is off: ${e.message}.`
    return `History is off: cannot write ${path} (${(e as Error).message}).`
  }
}

export interface HistoryRead {
  runs: RunRecord[]
  /** Unreadable, or holding a figure that is not plausible. */
  skipped: number
}

export function readHistory(path: string): HistoryRead {
  let text: string
  try {
    text = readTail(path)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { runs: [], skipped: 0 }
    throw e
  }
  return parseHistory(text)
}

export function parseHistory(text: string): HistoryRead {
  const runs: RunRecord[] = []
  let skipped = 0
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    const run = parseRun(line)
    if (run === undefined) skipped++
    else runs.push(run)
  }
  return { runs, skipped }
}

/** 1e309 reads as Infinity: a figure past what any wait takes would switch the medians off without a word. */
const MAX_SECONDS = 366 * 24 * 3600
const plausibleSeconds = (n: unknown): boolean =>
  typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= MAX_SECONDS
const plausibleFigure = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1e12

function parseRun(line: string): RunRecord | undefined {
  let r: Partial<RunRecord>
  try {
    r = JSON.parse(line)
  } catch {
    return undefined
  }
  const fine =
    typeof r === 'object' &&
    r !== null &&
    typeof r.key === 'string' &&
    typeof r.ready === 'boolean' &&
    plausibleSeconds(r.elapsedSeconds) &&
    [r.startupSeconds, r.answeringSeconds].every((n) => n === undefined || plausibleSeconds(n)) &&
    [r.ttftMs, r.decodeTokensPerSecond, r.smokeTokens, r.engineDecodeTokensPerSecond, r.enginePromptMs].every(
      (n) => n === undefined || plausibleFigure(n)
    ) &&
    (r.placement === undefined || ['gpu', 'partial', 'cpu'].includes(r.placement)) &&
    Array.isArray(r.phases) &&
    r.phases.every((p) => typeof p?.name === 'string' && plausibleSeconds(p?.seconds)) &&
    (r.gpu === undefined ||
      (typeof r.gpu === 'object' &&
        r.gpu !== null &&
        typeof r.gpu.model === 'string' &&
        Number.isSafeInteger(r.gpu.count) &&
        typeof r.gpu.driver === 'string')) &&
    [r.engine, r.engineVersion, r.modelId].every((t) => t === undefined || typeof t === 'string') &&
    [r.env, r.workersEnv, r.ncclEnv].every(
      (env) =>
        env === undefined ||
        (typeof env === 'object' && env !== null && Object.values(env).every((v) => typeof v === 'string'))
    )
  return fine ? (r as RunRecord) : undefined
}

function readTail(path: string): string {
  const fd = openOwn(path, constants.O_RDONLY)
  try {
    const size = fstatSync(fd).size
    const length = Math.min(size, MAX_READ_BYTES)
    const buffer = Buffer.alloc(length)
    let got = 0
    while (got < length) {
      const n = readSync(fd, buffer, got, length - got, size - length + got)
      if (n === 0) break
      got += n
    }
    const text = buffer.subarray(0, got).toString('utf8')
    // Started mid-file: the first line is cut.
    return length < size ? text.slice(text.indexOf('\n') + 1) : text
  } finally {
    closeSync(fd)
  }
}

/** The line for a run, shrunk to fit MAX_LINE_BYTES (long values cut, then phases, then the environment dropped). */
export function runLine(run: RunRecord): string | undefined {
  const cut = (env: Record<string, string> | undefined): Record<string, string> | undefined =>
    env && Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.slice(0, 200)]))
  const cutValues = { ...run, env: cut(run.env), workersEnv: cut(run.workersEnv), ncclEnv: cut(run.ncclEnv) }
  const fewerPhases = { ...cutValues, phases: run.phases.slice(0, 30) }
  const attempts: RunRecord[] = [
    run,
    cutValues,
    fewerPhases,
    { ...fewerPhases, workersEnv: undefined, ncclEnv: undefined },
    { ...fewerPhases, env: undefined, envReport: undefined, workersEnv: undefined, ncclEnv: undefined }
  ]
  for (const attempt of attempts) {
    const line = `${JSON.stringify(attempt)}\n`
    if (Buffer.byteLength(line) <= MAX_LINE_BYTES) return line
  }
  return undefined
}

/** `cancelled`: the cancel came while it waited for the lock (nothing written). */
export type Appended = 'appended' | 'too-long' | 'cancelled'

/**
 * Appends one run under the file's lock, so a trim elsewhere cannot drop it, then trims its key. Without the lock
 * within `lockWaitMs` (at most 2 s), it appends all the same; a cancel ends the wait at once and records nothing.
 */
export async function appendRun(
  path: string,
  run: RunRecord,
  {
    keep = KEEP_RUNS,
    lockWaitMs = LOCK_WAIT_MS,
    signal
  }: { keep?: number; lockWaitMs?: number; signal?: AbortSignal } = {}
): Promise<Appended> {
  const line = runLine(run)
  if (line === undefined) return 'too-long'
  const lock = await takeLock(path, Date.now() + Math.min(lockWaitMs, LOCK_WAIT_MS), signal)
  try {
    if (lock === 'cancelled' || signal?.aborted) return 'cancelled'
    const fd = openOwn(path, APPEND)
    try {
      writeSync(fd, line)
    } finally {
      closeSync(fd)
    }
    if (lock === undefined) return 'appended'
    const kept = readHistory(path).runs.filter((r) => r.key === run.key).length
    if (kept > keep) trimLocked(path, keep)
    return 'appended'
  } finally {
    if (typeof lock === 'number') releaseLock(path, lock)
  }
}

/** Keeps the last `keep` runs of every key (dropping unreadable lines); the caller holds the lock. */
function trimLocked(path: string, keep: number): void {
  const { runs } = parseHistory(readTail(path))
  const seen = new Map<string, number>()
  const kept: RunRecord[] = []
  for (let i = runs.length - 1; i >= 0; i--) {
    const n = seen.get(runs[i].key) ?? 0
    if (n < keep) kept.push(runs[i])
    seen.set(runs[i].key, n + 1)
  }
  const text = kept
    .reverse()
    .map((r) => JSON.stringify(r) + '\n')
    .join('')
  // Under a random name, created exclusively: a name another user can guess is a name they can plant a link at.
  const old = openOwn(path, constants.O_RDONLY)
  const mode = fstatSync(old).mode & 0o777
  closeSync(old)
  const { temp, fd } = createTempBeside(path, mode)
  try {
    try {
      const bytes = Buffer.from(text)
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, path)
  } catch (e) {
    unlinkSync(temp)
    throw e
  }
}

const LOCK_POLL_MS = 2

/**
 * Tries on timers until `deadline` (undefined: not held) or until `signal` aborts (`cancelled`, at once). Real time,
 * not the wait's clock: the lock is shared with other processes and aged by the file system's times.
 */
async function takeLock(
  path: string,
  deadline: number,
  signal?: AbortSignal
): Promise<number | undefined | 'cancelled'> {
  for (;;) {
    if (signal?.aborted) return 'cancelled'
    const fd = tryLock(path)
    if (fd !== 'busy') return fd
    const left = deadline - Date.now()
    if (left <= 0) return undefined
    await sleep(Math.min(LOCK_POLL_MS, left), signal)
  }
}

/** Undefined when it cannot be taken at all. */
function tryLock(path: string): number | 'busy' | undefined {
  const lock = `${path}.lock`
  for (;;) {
    try {
      return createOwn(lock)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return undefined
      if (!lockIsStale(lock)) return 'busy'
    }
  }
}

function releaseLock(path: string, fd: number): void {
  closeSync(fd)
  unlinkSync(`${path}.lock`)
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}

function lockIsStale(lock: string): boolean {
  try {
    // lstat: the age of a planted link's target says nothing; unlinking removes the link itself, never its target
    if (Date.now() - lstatSync(lock).mtimeMs <= STALE_LOCK_MS) return false
    unlinkSync(lock)
  } catch {
    // Gone already: free to try again.
  }
  return true
}
