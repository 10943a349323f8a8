import type { ListedModel } from './model-lists.js'

/**
 * Finds `wanted` among the listed models: an id equal to it wins; otherwise the first id that contains it,
 * compared case-insensitively (so `kimi` finds `/shared/kimi-k2.5-int4`).
 */
export function findModel(models: readonly ListedModel[], wanted: string): ListedModel | undefined {
  const exact = models.find((m) => m.id === wanted)
  if (exact) return exact
  const needle = wanted.toLowerCase()
  return models.find((m) => m.id.toLowerCase().includes(needle))
}
