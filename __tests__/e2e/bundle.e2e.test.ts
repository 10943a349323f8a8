import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { parse } from 'yaml'
import { runAction } from '../../src/simulator/runner.js'
import { simulate } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { loopback, ownPath } from '../helpers/loopback.js'

/** What `npm run build` makes of the sources: one lean, plain-ASCII file per entry point, with its licenses. */
const root = new URL('../..', import.meta.url)
const text = (path: string): string => readFileSync(new URL(path, root), 'utf8')
const bundles = ['dist/index.js', 'dist/cli.js']

it('dist/licenses.txt carries the license of every runtime dependency bundled into dist/index.js', () => {
  // ncc writes the licenses of the main chunk only: a lazily loaded chunk once left undici's and core's out. The
  // chunks now hold the action's own code alone, which the build checks (scripts/build.mjs, onlyOwnCodeInChunks).
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
  const chunks = readdirSync(new URL('dist/', root)).filter((f) => /^\d+\.(index|cli)\.js$/.test(f))
  expect(chunks.length).toBeGreaterThan(0)
  // what a chunk holds is ours: no package's license text, no package's code (undici's errors, core's commands)
  for (const chunk of chunks) expect(text(`dist/${chunk}`)).not.toMatch(/UndiciError|issueCommand|Copyright/)
})

it.each(bundles)('%s bundles one copy of undici', (file) => {
  // A string from undici's Client, which every version has: a second copy would be a second HTTP stack to load.
  expect(text(file).split("'invalid maxHeaderSize'").length - 1).toBe(1)
})

const chunkFiles = readdirSync(new URL('dist/', root))
  .filter((f) => /^\d+\.(index|cli)\.js$/.test(f))
  .map((f) => `dist/${f}`)

it.each([...bundles, ...chunkFiles])(
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

describe('what only some waits need is a chunk, loaded by those waits alone (src/wait/servers/process.ts)', () => {
  const copy = sandbox('wfm-bundle-')
  // dist/ less the chunks of the server side and of the smoke test: a wait that loaded either could not run
  const withoutLazyChunks = (): { entry: string; removed: string[] } => {
    cpSync(new URL('dist/', root), copy.dir(), { recursive: true })
    const removed = readdirSync(copy.dir()).filter(
      (f) => /^\d+\.index\.js$/.test(f) && /function (startServer|smokeEndpoints)\(/.test(text(`dist/${f}`))
    )
    for (const f of removed) rmSync(copy.path(f))
    return { entry: copy.path('index.js'), removed }
  }

  it('a plain wait (a URL and a model) is ready without them', async () => {
    const server = await simulate({ engine: 'vllm', model: 'kimi', loadMs: 300 })
    try {
      const { entry, removed } = withoutLazyChunks()
      expect(removed).toHaveLength(2)
      const run = await runAction({
        entry,
        inputs: { url: `${server.baseUrl}/v1/models`, model: 'kimi', interval: '100ms' }
      })
      expect(run.stderr).toBe('')
      expect(run.outputs.ready).toBe('true')
    } finally {
      await server.close()
    }
  })

  it('a wait that starts its server loads the server side (and fails without it)', async () => {
    const { entry } = withoutLazyChunks()
    const run = await runAction({
      entry,
      inputs: { url: 'http://127.0.0.1:9/v1/models', start: 'sleep 1', timeout: '5s', 'port-check': 'false' }
    })
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/Unexpected error: .*Cannot find module .*\d+\.index\.js/)
  })
})

describe("a plain wait's first probe leaves before the rest of the action is loaded (src/wait/first-probe.ts)", () => {
  const copy = sandbox('wfm-first-probe-')
  const net = loopback()

  it('the gate is a chunk of the action, not of its main file', () => {
    expect(text('dist/index.js')).not.toMatch(/function gate\(/)
    const chunks = readdirSync(new URL('dist/', root)).filter(
      (f) => /^\d+\.index\.js$/.test(f) && /function gate\(/.test(text(`dist/${f}`))
    )
    expect(chunks).toHaveLength(1)
  })

  it('without that chunk, the server still gets the first request; then the action fails', async () => {
    cpSync(new URL('dist/', root), copy.dir(), { recursive: true })
    for (const f of readdirSync(copy.dir()))
      if (/^\d+\.index\.js$/.test(f) && /function gate\(/.test(text(`dist/${f}`))) rmSync(copy.path(f))
    let requests = 0
    const own = ownPath()
    const url = await net.http((req, res) => {
      if (req.url?.startsWith(own)) requests++
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[{"id":"kimi"}]}')
    })
    const run = await runAction({
      entry: copy.path('index.js'),
      inputs: { url: `${url}${own}/v1/models`, model: 'kimi', timeout: '5s' }
    })
    expect(requests).toBe(1)
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/Unexpected error: .*Cannot find module .*\d+\.index\.js/)
  })
})
