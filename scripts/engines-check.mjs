#!/usr/bin/env node
/**
 * `npm run engines:check -- <engine> <checkout>`: whether every text an engine's record cites from its source (log
 * lines, routes: `cites` in src/engines/<engine>.ts) still appears in that checkout of it, so that a new release can
 * be checked in one command. Exit 0: all found; 1: some missing (listed); 2: bad usage. Run by tsx (the records are
 * TypeScript).
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import process from 'node:process'
import { checkCites } from '../src/engines/cites.js'
import { ENGINE_RECORDS } from '../src/engines/index.js'

const [given, checkout] = process.argv.slice(2)
const usage = (line) => {
  process.stderr.write(
    `engines:check: ${line}\nusage: npm run engines:check -- <engine> <path to a checkout of its source>\n`
  )
  process.exit(2)
}
const record = ENGINE_RECORDS.find((r) => r.name === given || r.inputName === given)
if (record === undefined) usage(`give one of ${ENGINE_RECORDS.map((r) => r.inputName ?? r.name).join(', ')}`)
if (checkout === undefined || !existsSync(checkout) || !statSync(checkout).isDirectory())
  usage(`"${checkout ?? ''}" is not a directory`)
const cites = record.cites ?? []
if (cites.length === 0) usage(`${record.label}'s record cites no text of its source yet`)
const root = resolve(checkout)
const read = (path) => {
  const file = join(root, path)
  return existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8') : undefined
}
const checks = checkCites(cites, read)
for (const { cite, found } of checks) {
  const mark = found === 'yes' ? 'ok     ' : found === 'missing' ? 'MISSING' : 'NO FILE'
  process.stdout.write(`${mark} ${cite.path}: ${JSON.stringify(cite.text)}\n`)
}
const bad = checks.filter((c) => c.found !== 'yes').length
process.stdout.write(
  bad === 0
    ? `${record.label}: all ${checks.length} cited texts are in ${root}\n`
    : `${record.label}: ${bad} of ${checks.length} cited texts are not in ${root}: update the record (and its fixtures)\n`
)
process.exit(bad === 0 ? 0 : 1)
