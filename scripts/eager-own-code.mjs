/**
 * Part of `npm run build`. ncc concatenates the action's own modules into one module factory of about 300 KB,
 * written as a parenthesised arrow function. V8 compiles such a function lazily: it pre-parses the whole body
 * as the bundle loads, then parses it again, in full, when the bundle calls it a moment later. A parenthesised
 * `function` expression is compiled at once instead (V8's heuristic for functions that are called as soon as
 * they are defined), so the body is parsed once. On Node 20 that took 5-13 ms off the start-up (spawn to first
 * request, `npm run bench -- --only startup`); on Node 24 it made no measurable difference either way.
 *
 * Only that one factory is rewritten: undici's are many small modules, and compiling all of them at once cost
 * more than it saved (some are never called). The factory is found by a name only the action's own code
 * defines (`function gate(`); the build fails unless exactly one arrow factory holds it, so an ncc upgrade that
 * writes factories another way is noticed.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { argv } from 'node:process'
import { pathToFileURL } from 'node:url'

const HEADER = /^\/\*\*\*\/ \(\((\w+(?:, \w+)*)\) => \{$/gm
const OWN_CODE = 'function gate('

export function eagerOwnCode(files) {
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    const headers = [...text.matchAll(HEADER)]
    // each factory runs from its header to the next one's
    const owners = headers.filter((h, i) => {
      const end = i + 1 < headers.length ? headers[i + 1].index : text.length
      return text.slice(h.index, end).includes(OWN_CODE)
    })
    if (owners.length !== 1)
      throw new Error(`${file}: expected one arrow module factory holding ${OWN_CODE}, found ${owners.length}`)
    const [header] = owners
    const rewritten = `/***/ (function(${header[1]}) { // scripts/eager-own-code.mjs`
    writeFileSync(file, text.slice(0, header.index) + rewritten + text.slice(header.index + header[0].length))
  }
}

if (argv[1] && import.meta.url === pathToFileURL(argv[1]).href) eagerOwnCode(argv.slice(2))
