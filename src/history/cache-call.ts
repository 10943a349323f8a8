/**
 * One call of @actions/cache on the history's files, in the working folder (the history's, which is also made
 * GITHUB_WORKSPACE: an entry is found only under the same paths, archived relative to it).
 */
import { restoreCache, saveCache } from '@actions/cache'

/** The files a cache entry holds, relative to its folder: the history and its key for credentials' hashes. */
const CACHED = ['history.jsonl', 'history.jsonl.key']

/**
 * `restore` gives the key it found (none: a miss), `save` the entry's id (-1: not saved, a key another job took
 * when `failed` is absent). @actions/cache tells a failure only as a warning on stdout, its return the same as a
 * miss: that line is kept from the output and returned as `failed`, for the history to say it in its own words.
 */
export async function cacheCall(
  op: string | undefined,
  key: string | undefined
): Promise<{ value?: string | number; failed?: string }> {
  if (key === undefined || (op !== 'restore' && op !== 'save')) return { failed: 'usage: cache.js restore|save KEY' }
  process.env.GITHUB_WORKSPACE = process.cwd()
  const write = process.stdout.write
  let failed: string | undefined
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    const m = /^::(?:warning|error)::(?:Failed to (?:restore|save): )?(.*)$/m.exec(String(chunk))
    if (m === null) return write.call(process.stdout, chunk, ...rest)
    // a key another job took: the save tries the next one
    if (!m[1].startsWith('Cache reservation failed')) failed ??= m[1].trim()
    return true
  }) as typeof process.stdout.write
  try {
    const value = op === 'restore' ? await restoreCache([...CACHED], key, [key]) : await saveCache([...CACHED], key)
    return { value, failed }
  } catch (e) {
    return { failed: (e as Error).message }
  } finally {
    process.stdout.write = write
  }
}
