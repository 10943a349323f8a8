/**
 * `npm run build`: bundles the action (dist/index.js, with dist/licenses.txt and dist/package.json) and the CLI
 * (dist/cli.js) into dist.new/, post-processes both bundles, then moves each file over its namesake in dist/.
 * A rename replaces a file in one step, so dist/ and its files are there throughout: a CLI call or a test that
 * starts while a build runs finds the old bundle or the new one, never none (the old `rm -rf dist` first left a
 * window of several seconds with no dist/cli.js). A failed build leaves dist/ as it was.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { execPath } from 'node:process'
import { fileURLToPath } from 'node:url'
import { asciiOnly } from './ascii-only.mjs'
import { noHttp2 } from './no-http2.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const next = join(root, 'dist.new')
const ncc = join(root, 'node_modules/@vercel/ncc/dist/ncc/cli.js')

const node = (...args) => execFileSync(execPath, args, { cwd: root, stdio: 'inherit' })

rmSync(next, { recursive: true, force: true })
try {
  node(ncc, 'build', 'src/index.ts', '-o', 'dist.new', '--license', 'licenses.txt', '--quiet')
  // The CLI is its own bundle; built beside the action's so that ncc's package.json for it is not kept.
  node(ncc, 'build', 'src/cli.ts', '-o', 'dist.new/.cli', '--quiet')
  renameSync(join(next, '.cli/index.js'), join(next, 'cli.js'))
  rmSync(join(next, '.cli'), { recursive: true, force: true })
  const bundles = [join(next, 'index.js'), join(next, 'cli.js')]
  noHttp2(bundles)
  asciiOnly(bundles)

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
