/**
 * The history kept in GitHub's Actions cache (`history-file: actions-cache`), for runners that keep nothing between
 * jobs: restored into a folder of the job's before the wait, saved by the job-end step under the next generation's key.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { KEEP_RUNS } from './record.js'
import { parseHistory } from './store.js'

const CACHE_KEY_PREFIX = 'wait-for-model-history-'
/** The history's file in its folder (cache-call.ts caches it and its key). */
export const HISTORY_NAME = 'history.jsonl'

/** How the history reaches the cache: by default dist/cache.js in a process of its own, in the folder `dir`. */
export interface CacheClient {
  isFeatureAvailable(): boolean
  /** The key found (undefined: none), or the failure in words. */
  restore(dir: string, prefix: string): Promise<{ value?: string; failed?: string }>
  /** The entry's id (-1 without `failed`: a key another job took). */
  save(dir: string, key: string): Promise<{ value?: number; failed?: string }>
}

/** What the main step hands the job-end step in its state (`history`): where the copy is and what it was. */
export interface CachedHistory {
  dir: string
  prefix: string
  /** The generation restored (0: none). */
  gen: number
  /** How many bytes the restored history had: an unchanged one is not saved again. */
  restoredBytes: number
}

/** Keys take letters, digits and `._-`: a `history-key` keeps those, anything else is hashed. */
export function cachePrefix(historyKey: string): string {
  const plain = /^[A-Za-z0-9._-]{1,100}$/.test(historyKey)
  const slug = plain
    ? historyKey
    : process.getBuiltinModule('node:crypto').createHash('sha256').update(historyKey).digest('hex').slice(0, 16)
  return `${CACHE_KEY_PREFIX}${slug}-`
}

/** The generation a key holds, the number after the prefix; 0 for one not of ours. */
export function generationOf(key: string | undefined, prefix: string): number {
  if (key === undefined || !key.startsWith(prefix)) return 0
  const m = /^(\d{1,9})(?:\.[0-9a-f]+)?$/.exec(key.slice(prefix.length))
  return m ? Number(m[1]) : 0
}

/**
 * dist/cache.js, beside this bundle; the runtime token goes to it alone (as the runner gives it to this process).
 * Its output is @actions/cache's log, passed on; its last line is the result.
 */
function childCacheClient(env: NodeJS.ProcessEnv = process.env): CacheClient {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'cache.js')
  const call = (dir: string, op: string, key: string): Promise<{ value?: never; failed?: string }> =>
    new Promise((resolve) => {
      const { spawn } = process.getBuiltinModule('node:child_process')
      const child = spawn(process.execPath, [script, op, key], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      let err = ''
      child.stdout.on('data', (d: Buffer) => (out += d.toString()))
      child.stderr.on('data', (d: Buffer) => (err += d.toString()))
      child.once('error', (e) => resolve({ failed: e.message }))
      child.once('close', (code) => {
        const lines = out.trimEnd().split('\n')
        const last = lines.pop() ?? ''
        for (const line of lines) process.stdout.write(`${line}\n`)
        try {
          resolve(JSON.parse(last))
        } catch {
          resolve({
            failed: `the cache client exited with ${code}: ${(err.trim() || last).split('\n')[0].slice(0, 300)}`
          })
        }
      })
    })
  return {
    // as @actions/cache's isFeatureAvailable tells it
    isFeatureAvailable: () => Boolean(env.ACTIONS_CACHE_SERVICE_V2 ? env.ACTIONS_RESULTS_URL : env.ACTIONS_CACHE_URL),
    restore: (dir, prefix) => call(dir, 'restore', prefix),
    save: (dir, key) => call(dir, 'save', key)
  }
}

const readText = (path: string): string => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

/** Restores the newest entry of `prefix` into `dir`; a problem in words when the cache cannot be used. */
export async function restoreHistory(
  dir: string,
  prefix: string,
  client?: CacheClient
): Promise<{ history: CachedHistory } | { problem: string }> {
  try {
    const cache = client ?? childCacheClient()
    if (!cache.isFeatureAvailable())
      return {
        problem:
          'History is off: the Actions cache is not available here (ACTIONS_RESULTS_URL, or ACTIONS_CACHE_URL, is not set).'
      }
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const { value: matched, failed } = await cache.restore(dir, prefix)
    // saving on top of a history that could not be read would make a newest entry without its runs
    if (failed !== undefined) return { problem: `History is off: the Actions cache could not be read (${failed}).` }
    const restoredBytes = Buffer.byteLength(readText(join(dir, HISTORY_NAME)))
    return { history: { dir, prefix, gen: generationOf(matched, prefix), restoredBytes } }
  } catch (e) {
    return { problem: `History is off: the Actions cache could not be read (${(e as Error).message}).` }
  }
}

/**
 * Both histories' runs, each once (a line is a run: a run restored by both is the same line), oldest first, the last
 * KEEP_RUNS of each key.
 */
export function mergeHistories(a: string, b: string): string {
  const lines = new Map<string, { at: string; key: string }>()
  for (const text of [a, b])
    for (const line of text.split('\n')) {
      if (line.trim() === '' || lines.has(line)) continue
      const run = parseHistory(line).runs[0]
      if (run !== undefined) lines.set(line, { at: run.at, key: run.key })
    }
  const sorted = [...lines].sort(([, x], [, y]) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0))
  const seen = new Map<string, number>()
  const kept: string[] = []
  for (let i = sorted.length - 1; i >= 0; i--) {
    const [line, { key }] = sorted[i]
    const n = seen.get(key) ?? 0
    if (n < KEEP_RUNS) kept.push(line)
    seen.set(key, n + 1)
  }
  return kept
    .reverse()
    .map((l) => `${l}\n`)
    .join('')
}

export interface SaveOptions {
  client?: CacheClient
  /** Real time: other jobs' saves are what it waits for. */
  sleep?: (ms: number) => Promise<void>
  /** How long it keeps trying while other jobs take the next generation's key. */
  patienceMs?: number
}

export type Saved = { saved: string } | { unchanged: true } | { problem: string }

/**
 * Saves under the next generation's key. Keys are never overwritten, so a key another job took first is refused:
 * then the newest entry is restored again, its runs merged with ours, and the generation after it is tried. Two jobs
 * that restored the same entry thus both end in the newest one; after `patienceMs` (a job that took a key and never
 * finished its upload) it saves under a key of its own beside that generation.
 */
export async function saveHistory(history: CachedHistory, options: SaveOptions = {}): Promise<Saved> {
  const { dir, prefix } = history
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const patienceMs = options.patienceMs ?? 30_000
  const file = join(dir, HISTORY_NAME)
  let ours = readText(file)
  if (Buffer.byteLength(ours) === history.restoredBytes) return { unchanged: true }
  const cache = options.client ?? childCacheClient()
  let gen = history.gen
  const until = Date.now() + patienceMs
  let pauseMs = 200
  for (let attempt = 0; ; attempt++) {
    try {
      if (attempt > 0) {
        // what another job saved since: its runs are merged into ours
        const scratch = mkdtempSync(join(dir, 'newest-'))
        try {
          const { value: matched, failed } = await cache.restore(scratch, prefix)
          if (failed !== undefined) return { problem: failed }
          const theirs = generationOf(matched, prefix)
          if (theirs >= gen) {
            ours = mergeHistories(readText(join(scratch, HISTORY_NAME)), ours)
            gen = theirs
            writeFileSync(file, ours)
          }
        } finally {
          rmSync(scratch, { recursive: true, force: true })
        }
      }
      const late = Date.now() >= until
      const key = late
        ? `${prefix}${gen + 1}.${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}`
        : `${prefix}${gen + 1}`
      const { value: id, failed } = await cache.save(dir, key)
      if (id !== -1) return { saved: key }
      // a key another job took is told as information only; anything else is a failure, not worth a retry
      if (failed !== undefined) return { problem: failed }
      if (late) return { problem: `the Actions cache refused key ${key}` }
    } catch (e) {
      return { problem: (e as Error).message }
    }
    await sleep(pauseMs)
    pauseMs = Math.min(pauseMs * 2, 2_000)
  }
}

/**
 * The main step's state value read back: the runner keeps it in a file a process of the job may have written, so
 * only a folder under RUNNER_TEMP and a key of ours are taken; anything else is undefined (nothing is saved).
 */
export function readCachedHistory(value: string, runnerTemp: string | undefined): CachedHistory | undefined {
  if (value === '' || !runnerTemp) return undefined
  let s: Partial<CachedHistory>
  try {
    s = JSON.parse(value)
  } catch {
    return undefined
  }
  const fine =
    typeof s === 'object' &&
    s !== null &&
    typeof s.dir === 'string' &&
    s.dir.startsWith(`${runnerTemp.replace(/\/+$/, '')}/wait-for-model-history-`) &&
    !s.dir.includes('/..') &&
    typeof s.prefix === 'string' &&
    new RegExp(`^${CACHE_KEY_PREFIX}[A-Za-z0-9._-]{1,100}-$`).test(s.prefix) &&
    Number.isSafeInteger(s.gen) &&
    (s.gen as number) >= 0 &&
    Number.isSafeInteger(s.restoredBytes)
  return fine ? (s as CachedHistory) : undefined
}
