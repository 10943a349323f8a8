import type { ListedModel } from './model-lists.js'

export type ModelMatch =
  | { kind: 'found'; model: ListedModel; how: 'exact' | 'case-insensitive' | 'path' | 'contains' }
  /** Several ids fit only loosely (or several fit equally well): picking one would be a guess. */
  | { kind: 'ambiguous'; candidates: ListedModel[] }
  | { kind: 'missing' }

/**
 * From the strictest fit to the loosest: equal, equal but for case, ending with `/<wanted>`, containing it. The
 * first fit that finds one id wins; several are ambiguous, since picking the first listed would be a guess.
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

export const matchKind = (how: Extract<ModelMatch, { kind: 'found' }>['how']): 'exact' | 'partial' =>
  how === 'contains' ? 'partial' : 'exact'

/** The listed id fewest edits away, ignoring case; cut to 50 ids of 200 characters so a hostile list cannot slow it. */
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
