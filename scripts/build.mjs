/**
 * `npm run build`: bundles the action (dist/index.js, its licenses in dist/licenses.txt), the CLI (dist/cli.js) and
 * the post step (dist/post.js) with ncc into dist.new/, then moves each file over its namesake in dist/.
 * A rename replaces a file in one step, so a CLI call or a test that starts while a build runs finds the old bundle
 * or the new one, never none. A failed build leaves dist/ as it was.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { execPath } from 'node:process'
import { fileURLToPath } from 'node:url'
import { asciiOnly } from './ascii-only.mjs'
import { noHttp2 } from './no-http2.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const next = join(root, 'dist.new')
const ncc = join(root, 'node_modules/@vercel/ncc/dist/ncc/cli.js')

rmSync(next, { recursive: true, force: true })
try {
  // the action's licenses cover the CLI and the post step too: they bundle a subset of its packages
  bundle('src/index.ts', 'index', ['--license', 'licenses.txt'])
  bundle('src/cli.ts', 'cli')
  bundle('src/post.ts', 'post')
  // @actions/cache, run as a process of its own for `history-file: actions-cache`: its licenses join the action's
  bundle('src/cache.ts', 'cache', ['--license', 'licenses.txt'])
  // the post step makes no HTTP request: no undici, no http2 in it
  noHttp2([join(next, 'index.js'), join(next, 'cli.js')])
  asciiOnly(
    readdirSync(next)
      .filter((name) => name.endsWith('.js'))
      .map((name) => join(next, name))
  )

  if (!existsSync(dist)) renameSync(next, dist)
  else {
    const built = new Set(readdirSync(next))
    for (const name of built) renameSync(join(next, name), join(dist, name))
    // what an earlier build wrote and this one does not, so that dist/ holds exactly this build
    for (const name of readdirSync(dist)) if (!built.has(name)) rmSync(join(dist, name), { recursive: true })
  }
} finally {
  rmSync(next, { recursive: true, force: true })
}

/**
 * Builds `entry` into dist.new/ as `<name>.js`. ncc names every build's file `index.js` and the chunks of a dynamic
 * `import()`, if any, `NNN.index.js`: each bundle's chunks become `NNN.<name>.js`, and the bundle is told so.
 */
function bundle(entry, name, extra = []) {
  const out = join(next, `.${name}`)
  execFileSync(execPath, [ncc, 'build', entry, '-o', out, '--quiet', ...extra], { cwd: root, stdio: 'inherit' })
  const chunks = readdirSync(out).filter((file) => /^\d+\.index\.js$/.test(file))
  if (chunks.length > 0) {
    const text = readFileSync(join(out, 'index.js'), 'utf8')
    const template = 'return "" + chunkId + ".index.js";'
    const found = text.split(template).length - 1
    if (found !== 1) throw new Error(`${entry}: expected ${JSON.stringify(template)} once, found it ${found} times`)
    writeFileSync(join(out, 'index.js'), text.replace(template, `return "" + chunkId + ".${name}.js";`))
  }
  // a rename keeps the mode ncc gave the file: the CLI's, which starts with a shebang, is executable
  renameSync(join(out, 'index.js'), join(next, `${name}.js`))
  for (const chunk of chunks) renameSync(join(out, chunk), join(next, chunk.replace('.index.js', `.${name}.js`)))
  // ncc's package.json ("type": "module") is kept once, with the action
  for (const file of ['licenses.txt', 'package.json'])
    if (name === 'index' && existsSync(join(out, file))) renameSync(join(out, file), join(next, file))
  if (name === 'cache')
    writeFileSync(
      join(next, 'licenses.txt'),
      `${readFileSync(join(next, 'licenses.txt'), 'utf8').trimEnd()}\n\n${readFileSync(join(out, 'licenses.txt'), 'utf8')}`
    )
  rmSync(out, { recursive: true, force: true })
}
