import { cachePrefix, generationOf, mergeHistories, readCachedHistory } from '../../../src/history/actions-cache.js'

const line = (at: string, key = 'k', extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ v: 1, key, at, ready: true, reason: 'ready', elapsedSeconds: 1, phases: [], ...extra })

describe('the Actions cache history', () => {
  it('merges two saves of the same base: each run once, oldest first', () => {
    const base = [line('2026-01-01T00:00:00Z'), line('2026-01-02T00:00:00Z')].join('\n') + '\n'
    const a = base + line('2026-01-03T00:00:00Z', 'k', { elapsedSeconds: 2 }) + '\n'
    const b = base + line('2026-01-03T00:00:01Z', 'k', { elapsedSeconds: 3 }) + '\n'
    const merged = mergeHistories(a, b).trim().split('\n')
    expect(merged.map((l) => JSON.parse(l).elapsedSeconds)).toEqual([1, 1, 2, 3])
  })

  it('keeps the last 100 runs of each key and drops lines that are not runs', () => {
    const many = Array.from({ length: 120 }, (_, i) => line(new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString()))
    const merged = mergeHistories(many.join('\n'), `not a run\n${line('2026-02-01T00:00:00Z', 'other')}`)
    const runs = merged
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(runs.filter((r) => r.key === 'k')).toHaveLength(100)
    expect(runs.filter((r) => r.key === 'other')).toHaveLength(1)
    expect(runs[0].at).toBe(new Date(Date.UTC(2026, 0, 1, 0, 20)).toISOString())
  })

  it('keys: a plain history-key as it is, anything else hashed; the generation read back', () => {
    expect(cachePrefix('kimi-tp8')).toBe('wait-for-model-history-kimi-tp8-')
    expect(cachePrefix('a,b c')).toMatch(/^wait-for-model-history-[0-9a-f]{16}-$/)
    expect(generationOf('wait-for-model-history-k-12', 'wait-for-model-history-k-')).toBe(12)
    expect(generationOf('wait-for-model-history-k-12.0a1b', 'wait-for-model-history-k-')).toBe(12)
    expect(generationOf('wait-for-model-history-k-x', 'wait-for-model-history-k-')).toBe(0)
    expect(generationOf(undefined, 'wait-for-model-history-k-')).toBe(0)
  })

  it('the job-end step takes back only a folder under RUNNER_TEMP and a key of ours', () => {
    const good = { dir: '/t/wait-for-model-history-abc', prefix: 'wait-for-model-history-k-', gen: 1, restoredBytes: 0 }
    expect(readCachedHistory(JSON.stringify(good), '/t')).toEqual(good)
    expect(readCachedHistory(JSON.stringify({ ...good, dir: '/etc' }), '/t')).toBeUndefined()
    expect(
      readCachedHistory(JSON.stringify({ ...good, dir: '/t/wait-for-model-history-a/../..' }), '/t')
    ).toBeUndefined()
    expect(readCachedHistory(JSON.stringify({ ...good, prefix: 'other-' }), '/t')).toBeUndefined()
    expect(readCachedHistory(JSON.stringify({ ...good, gen: -1 }), '/t')).toBeUndefined()
    expect(readCachedHistory('{', '/t')).toBeUndefined()
    expect(readCachedHistory(JSON.stringify(good), undefined)).toBeUndefined()
  })
})
