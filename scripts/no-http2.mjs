/**
 * Part of `npm run build`. undici's client loads `node:http2` (and with it `node:tls` and `node:crypto`) as it
 * loads, for HTTP/2 connections it makes only with `allowH2`, which this action never sets (a test checks): memory
 * and start-up spent for nothing. Each bundle's one reference to the module is replaced with the value undici
 * itself falls back to where `node:http2` is missing, `{ constants: {} }`. The build fails unless both the
 * reference and undici's fallback are found exactly once, so an undici or ncc upgrade that changes either is noticed.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { argv } from 'node:process'
import { pathToFileURL } from 'node:url'

const REFERENCE = 'module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http2");'
const FALLBACK = 'http2 = { constants: {} }'

export function noHttp2(files) {
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const needle of [REFERENCE, FALLBACK]) {
      const found = text.split(needle).length - 1
      if (found !== 1) throw new Error(`${file}: expected ${JSON.stringify(needle)} once, found it ${found} times`)
    }
    writeFileSync(file, text.replace(REFERENCE, 'module.exports = { constants: {} }; // scripts/no-http2.mjs'))
  }
}

// run as `node scripts/no-http2.mjs FILE...` (the bench's floor bundle)
if (argv[1] && import.meta.url === pathToFileURL(argv[1]).href) noHttp2(argv.slice(2))
