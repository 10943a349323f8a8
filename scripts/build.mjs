/**
 * `npm run build`: bundles the action (dist/index.js, with dist/licenses.txt and dist/package.json) and the CLI
 * (dist/cli.js) and the post step (dist/post.js) into dist.new/, post-processes the bundles, then moves each file over its namesake in dist/.
 * What a wait loads only when its settings call for it (the server side, the smoke test, what follows the wait)
 * is a chunk beside its bundle: `NNN.index.js` for the action's, `NNN.cli.js` for the CLI's (ncc names both
 * bundles' chunks `NNN.index.js`; the CLI's are renamed, and its bundle told their new names).
 * A rename replaces a file in one step, so dist/ and its files are there throughout: a CLI call or a test that
 * starts while a build runs finds the old bundle or the new one, never none (the old `rm -rf dist` first left a
 * window of several seconds with no dist/cli.js). A failed build leaves dist/ as it was.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { execPath } from 'node:process'
import { fileURLToPath } from 'node:url'
import { asciiOnly } from './ascii-only.mjs'
import { noHttp2 } from './no-http2.mjs'
import { eagerOwnCode, mainChunk } from './eager-own-code.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const next = join(root, 'dist.new')
const ncc = join(root, 'node_modules/@vercel/ncc/dist/ncc/cli.js')

const node = (...args) => execFileSync(execPath, args, { cwd: root, stdio: 'inherit' })

rmSync(next, { recursive: true, force: true })
try {
  // ncc's account of each build (which module went into which chunk), read below, then removed
  const stats = { index: join(next, '.stats-index.json'), cli: join(next, '.stats-cli.json') }
  node(
    ncc,
    'build',
    'src/index.ts',
    '-o',
    'dist.new',
    '--license',
    'licenses.txt',
    '--quiet',
    '--stats-out',
    stats.index
  )
  // The CLI is its own bundle; built beside the action's so that ncc's package.json for it is not kept.
  node(ncc, 'build', 'src/cli.ts', '-o', 'dist.new/.cli', '--quiet', '--stats-out', stats.cli)
  onlyOwnCodeInChunks(stats.index)
  onlyOwnCodeInChunks(stats.cli)
  renameSync(join(next, '.cli/index.js'), join(next, 'cli.js'))
  renameChunks(join(next, '.cli'), join(next, 'cli.js'), 'cli')
  rmSync(join(next, '.cli'), { recursive: true, force: true })
  // The post step (stop the server at the job end) too: its licenses are a subset of the action's.
  node(ncc, 'build', 'src/post.ts', '-o', 'dist.new/.post', '--quiet')
  renameSync(join(next, '.post/index.js'), join(next, 'post.js'))
  const postChunks = chunksIn(join(next, '.post'))
  if (postChunks.length > 0) throw new Error(`the post step's bundle has chunks, which nothing copies: ${postChunks}`)
  rmSync(join(next, '.post'), { recursive: true, force: true })
  const bundles = [join(next, 'index.js'), join(next, 'cli.js')]
  // the post step makes no HTTP request: no undici, no http2 in it
  noHttp2(bundles)
  // the post step is not timed: its factories are left as ncc writes them
  eagerOwnCode(join(next, 'index.js'), stats.index)
  eagerOwnCode(join(next, 'cli.js'), stats.cli)
  Object.values(stats).forEach((f) => rmSync(f))
  // every chunk too, the CLI's (renamed above) as the action's
  const chunks = readdirSync(next).filter((name) => /^\d+\.(index|cli)\.js$/.test(name))
  asciiOnly([...bundles, join(next, 'post.js'), ...chunks.map((c) => join(next, c))])

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
 * ncc writes the licenses of the bundle's main chunk only: a package whose code went into a lazily loaded chunk
 * alone would ship without its license. The chunks must hold the action's own modules (src/) and nothing else.
 */
function onlyOwnCodeInChunks(statsFile) {
  const { main, modules } = mainChunk(statsFile)
  const names = (m) => (m.modules ?? [m]).map((inner) => inner.name)
  const foreign = modules
    .filter((m) => m.chunks.length > 0 && !m.chunks.some((id) => main.has(id)))
    .flatMap(names)
    .filter((name) => !name.startsWith('./src/'))
  if (foreign.length > 0) throw new Error(`only src/ may be loaded lazily (licenses.txt): ${foreign.join(', ')}`)
}

function chunksIn(dir) {
  return readdirSync(dir).filter((name) => /^\d+\.index\.js$/.test(name))
}

/** Moves the chunks ncc wrote in `dir` beside the bundle, as `NNN.<suffix>.js`, and points the bundle at them. */
function renameChunks(dir, bundle, suffix) {
  const template = 'return "" + chunkId + ".index.js";'
  const text = readFileSync(bundle, 'utf8')
  const chunks = chunksIn(dir)
  const found = text.split(template).length - 1
  if (found !== (chunks.length > 0 ? 1 : 0))
    throw new Error(`${bundle}: expected ${JSON.stringify(template)} once, found it ${found} times`)
  writeFileSync(bundle, text.replace(template, `return "" + chunkId + ".${suffix}.js";`))
  for (const name of chunks)
    renameSync(join(dir, name), join(dirname(bundle), name.replace('.index.js', `.${suffix}.js`)))
}
