/** The texts an engine's record cites from its source, checked against a checkout of that source (`engines:check`). */
import type { Cite } from './engine-record.js'

export interface CiteCheck {
  cite: Cite
  /** `missing`: the file is there without the text; `no-file`: the file is not. */
  found: 'yes' | 'missing' | 'no-file'
}

/** Each cite against the checkout `read` reads (a path of the repository; undefined: no such file). */
export function checkCites(cites: readonly Cite[], read: (path: string) => string | undefined): CiteCheck[] {
  const files = new Map<string, string | undefined>()
  return cites.map((cite) => {
    if (!files.has(cite.path)) files.set(cite.path, read(cite.path))
    const text = files.get(cite.path)
    return { cite, found: text === undefined ? 'no-file' : text.includes(cite.text) ? 'yes' : 'missing' }
  })
}
