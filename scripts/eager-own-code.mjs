/**
 * Part of `npm run build`. ncc writes each module of the bundle as a factory, a parenthesised arrow function, and
 * V8 compiles such a function lazily: it pre-parses the body as the bundle loads, then parses it again, in full,
 * when the factory is called. A parenthesised `function` expression is compiled at once instead (V8's heuristic
 * for functions that are called as soon as they are defined), so its body is parsed once. The action's own
 * modules in the bundle's main chunk all run as it starts, before the first probe: theirs are rewritten. On Node 20
 * that took 5-13 ms off the start-up (spawn to first request, `npm run bench -- --only startup`); on Node 24 it made
 * no measurable difference either way.
 *
 * undici's factories are left as they are: compiling all of them at once cost more than it saved (some are never
 * called). The modules are found by ncc's own account of the build (`--stats-out`): those from `src/` in the main
 * chunk. The build fails unless each one's factory is found exactly once as ncc writes it, so an ncc upgrade that
 * writes factories another way is noticed.
 */
import { readFileSync, writeFileSync } from 'node:fs'

/** ncc's account of a build (`--stats-out`): its modules, and the ids of the chunk loaded with the bundle. */
export function mainChunk(statsFile) {
  const { chunks, modules } = JSON.parse(readFileSync(statsFile, 'utf8'))
  return { main: new Set(chunks.filter((c) => c.names.includes('main')).map((c) => c.id)), modules }
}

export function eagerOwnCode(file, statsFile) {
  const { main, modules } = mainChunk(statsFile)
  const own = modules.filter((m) => m.name.startsWith('./src/') && m.chunks.some((id) => main.has(id)))
  let text = readFileSync(file, 'utf8')
  for (const { id, name } of own) {
    const header = new RegExp(`^/\\*\\*\\*/ ${id}:\\n/\\*\\*\\*/ \\(\\((\\w+(?:, \\w+)*)\\) => \\{$`, 'gm')
    const found = [...text.matchAll(header)]
    if (found.length !== 1)
      throw new Error(`${file}: expected the factory of ${name} (${id}) once, found ${found.length}`)
    text = text.replace(header, `/***/ ${id}:\n/***/ (function($1) { // scripts/eager-own-code.mjs`)
  }
  if (own.length === 0) throw new Error(`${file}: no module of src/ in the main chunk`)
  writeFileSync(file, text)
}
