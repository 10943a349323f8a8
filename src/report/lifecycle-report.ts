/**
 * Words for the server's life around the wait: which model a loose name fits, a model the server has not
 * loaded, who holds a port, what holds GPU memory, and how a server was stopped. Text only.
 */

const list = (items: readonly string[]): string => items.map((i) => `"${i}"`).join(', ')

/** A `model` several listed ids contain, none of them exactly: stable words, so the summary is stable. */
export function ambiguousModelText(model: string, candidates: readonly string[]): { summary: string; detail: string } {
  return {
    summary: `"${model}" fits ${candidates.length} listed models`,
    detail:
      `"${model}" fits ${candidates.length} listed models and is none of them exactly: ${list(candidates)}. ` +
      'Give the exact id as "model" (an id ending with /<model> or equal to it ignoring case also counts as exact)'
  }
}

/** A model the server lists but loads only when asked (llama.cpp's router mode, LM Studio). */
export const unloadedModelText = (id: string): string =>
  `"${id}" is listed but not loaded: the server loads it only when asked (set "load: true" to have it loaded)`
