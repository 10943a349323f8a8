import { readdirSync, readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { runAction } from '../../src/simulator/runner.js'
import { simulate } from '../../src/simulator/server.js'

/** What `npm run build` makes of the sources: one lean, plain-ASCII file per entry point, with its licenses. */
const root = new URL('../..', import.meta.url)
const text = (path: string): string => readFileSync(new URL(path, root), 'utf8')
const bundles = ['dist/index.js', 'dist/cli.js']

it('dist/licenses.txt carries the license of every runtime dependency bundled into dist/index.js', () => {
  // ncc writes the licenses of the main chunk only: a chunk (of a dynamic import(), if any) must hold our code alone.
  // The bundled packages: Dependabot's group `bundled`, which unit/examples/workflows.test.ts checks against src/.
  const dependabot = parse(text('.github/dependabot.yml')) as {
    updates: Array<{ groups?: { bundled?: { patterns: string[] } } }>
  }
  const bundled = dependabot.updates.flatMap((u) => u.groups?.bundled?.patterns ?? [])
  expect(bundled).toContain('undici')
  const licensed = text('dist/licenses.txt')
    .split('\n')
    .filter((l) => /^(@[\w.-]+\/)?[\w.-]+$/.test(l))
  expect(licensed).toEqual(expect.arrayContaining(bundled))
  const chunks = readdirSync(new URL('dist/', root)).filter((f) => /^\d+\.(index|cli|post)\.js$/.test(f))
  // what a chunk holds is ours: no package's license text, no package's code (undici's errors, core's commands)
  for (const chunk of chunks) expect(text(`dist/${chunk}`)).not.toMatch(/UndiciError|issueCommand|Copyright/)
})

it.each(bundles)('%s bundles one copy of undici', (file) => {
  // A string from undici's Client, which every version has: a second copy would be a second HTTP stack to load.
  expect(text(file).split("'invalid maxHeaderSize'").length - 1).toBe(1)
})

const chunkFiles = readdirSync(new URL('dist/', root))
  .filter((f) => /^\d+\.(index|cli|post)\.js$/.test(f))
  .map((f) => `dist/${f}`)

it.each([...bundles, 'dist/post.js', 'dist/cache.js', ...chunkFiles])(
  '%s is plain ASCII, so that V8 holds its source at one byte per character',
  (file) => {
    expect(text(file).match(/[\u0080-\uffff]/g) ?? []).toEqual([])
  }
)

it('never asks undici for HTTP/2, which the bundles are built without (scripts/no-http2.mjs)', () => {
  const sources = readdirSync(new URL('src/', root), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => text(`src/${f}`))
  expect(sources.filter((s) => /allowH2|useH2c/.test(s))).toEqual([])
  for (const file of bundles)
    expect(text(file)).toContain('module.exports = { constants: {} }; // scripts/no-http2.mjs')
})

// Each module loaded before the first probe delays it (`npm run bench`, start-up): those only some waits need are
// loaded when one does (TLS, a host name to resolve, a pattern to run, a body to collect).
it('a wait on an http:// address loads neither node:http2, tls, dns, vm nor perf_hooks', async () => {
  const server = await simulate({ engine: 'vllm', model: 'kimi', loadMs: 300 })
  try {
    const hook = new URL('../fixtures/builtins.mjs', import.meta.url).pathname
    const run = await runAction({
      entry: new URL('dist/index.js', root).pathname,
      inputs: { url: `${server.baseUrl}/v1/models`, model: 'kimi', interval: '100ms' },
      env: { NODE_OPTIONS: `--import ${hook}` }
    })
    expect(run.code).toBe(0)
    const builtins = [...run.stderr.matchAll(/^builtin=(.+)$/gm)].map((m) => m[1])
    // the hook saw the modules the probe needs, so an empty list cannot pass
    expect(builtins).toEqual(expect.arrayContaining(['net', 'http']))
    expect(builtins.filter((b) => /^(http2|tls|https|dns|vm|perf_hooks|fs\/promises)$/.test(b))).toEqual([])
  } finally {
    await server.close()
  }
})
