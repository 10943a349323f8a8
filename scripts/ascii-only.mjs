/**
 * Part of `npm run build`: rewrites each bundle with every character outside ASCII as a \u escape, which
 * means the same in the strings, templates, regular expressions and comments where such characters occur.
 * V8 keeps a script's source in memory for as long as it runs, one byte per character when every character
 * fits, two otherwise: a single typographic apostrophe doubles the bundle's heap.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { argv } from 'node:process'
import { pathToFileURL } from 'node:url'

export function asciiOnly(files) {
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    // A raw template would keep the escape's backslash, and so read differently.
    if (/String\.raw\s*`[^`]*[\u0080-\uffff]/.test(text))
      throw new Error(`${file}: a String.raw template holds a non-ASCII character`)
    writeFileSync(
      file,
      text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    )
  }
}

// run as `node scripts/ascii-only.mjs FILE...`
if (argv[1] && import.meta.url === pathToFileURL(argv[1]).href) asciiOnly(argv.slice(2))
