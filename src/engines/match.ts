import type { ListedModel } from './model-lists.js'

/** How `model` was found among the listed ids, or why it was not. */
export type ModelMatch =
  | { kind: 'found'; model: ListedModel; how: 'exact' | 'case-insensitive' | 'path' | 'contains' }
  /** Several ids fit only loosely (or several fit equally well): picking one would be a guess. */
  | { kind: 'ambiguous'; candidates: ListedModel[] }
  | { kind: 'missing' }

/**
 * Finds `wanted` among the listed models, from the strictest fit to the loosest: an id equal to it; equal but
 * for case; ending with `/<wanted>` (a path or an `org/name` repo id); containing it (so `kimi` finds
 * `/shared/kimi-k2.5-int4`). The first kind of fit that finds exactly one id wins; one that finds several is
 * ambiguous, since `llama-3.1-8b` among `llama-3.1-8b-instruct-lora-sql` and `llama-3.1-8b-instruct` would pick
 * whichever the server lists first, and `model-id` would then point the benchmark at it.
 */
export function matchModel(models: readonly ListedModel[], wanted: string): ModelMatch {
  const exact = models.find((m) => m.id === wanted)
  if (exact) return { kind: 'found', model: exact, how: 'exact' }
  const needle = wanted.toLowerCase()
  const tiers: Array<[Exclude<Extract<ModelMatch, { kind: 'found' }>['how'], 'exact'>, (id: string) => boolean]> = [
    ['case-insensitive', (id) => id === needle],
    ['path', (id) => id.endsWith(`/${needle}`)],
    ['contains', (id) => id.includes(needle)]
  ]
  for (const [how, fits] of tiers) {
    const found = models.filter((m) => fits(m.id.toLowerCase()))
    // the same id listed twice (a list that repeats an entry) is one model, not a choice
    if (found.length > 0 && found.every((m) => m.id === found[0].id)) return { kind: 'found', model: found[0], how }
    if (found.length > 1) return { kind: 'ambiguous', candidates: found }
  }
  return { kind: 'missing' }
}

/** How a found model fits: `exact` for an id equal to it, but for case, or ending with `/<wanted>`; else `partial`. */
export const matchKind = (how: Extract<ModelMatch, { kind: 'found' }>['how']): 'exact' | 'partial' =>
  how === 'contains' ? 'partial' : 'exact'

/**
 * The listed id nearest to `wanted` (the fewest single-character edits, ignoring case), for a message that says
 * what the server serves instead: "kimi-k2" against ["Qwen/Qwen3-8B", "kimi-k2.5"] names "kimi-k2.5". Ids and
 * `wanted` are cut to 200 characters, so a hostile list cannot make this slow: 50 ids at most are compared.
 */
export function nearestModel(ids: readonly string[], wanted: string): string | undefined {
  let best: { id: string; d: number } | undefined
  const w = wanted.toLowerCase().slice(0, 200)
  for (const id of ids.slice(0, 50)) {
    const d = editDistance(id.toLowerCase().slice(0, 200), w)
    if (best === undefined || d < best.d) best = { id, d }
  }
  return best?.id
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    prev = row
  }
  return prev[b.length]
}
