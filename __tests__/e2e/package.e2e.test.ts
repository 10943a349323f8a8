import { execFile } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { simulate } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'

/**
 * The npm package as a user gets it: packed, installed from the tarball alone into an empty project (offline,
 * with an empty cache and an unreachable registry, so that any runtime dependency would fail the install),
 * and run through npx.
 */
const root = new URL('../..', import.meta.url).pathname
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
const exec = promisify(execFile)
/** The tarball, the project, npm's cache: one directory for the suite. */
const box = sandbox('wait-for-model-pack-', 'file')

let work: string
let project: string
/** npm's settings for every command here: nothing may reach a registry, nothing may come from a shared cache. */
let npmEnv: NodeJS.ProcessEnv

beforeAll(async () => {
  work = box.dir()
  project = join(work, 'project')
  npmEnv = {
    ...process.env,
    npm_config_cache: join(work, 'npm-cache'),
    // a closed loopback port: a request for any package would fail at once
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    XDG_CACHE_HOME: join(work, 'xdg-cache'),
    // npm keeps a compile cache under the temporary directory: this suite's, removed with it
    TMPDIR: work
  }
  await exec('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: root, env: npmEnv })
  mkdirSync(project)
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty-project', private: true }))
  await exec('npm', ['install', '--offline', join(work, `wait-for-model-${pkg.version}.tgz`)], {
    cwd: project,
    env: npmEnv
  })
}, 120_000)

it('installs with no dependency: the bundles of dist/, their licences and the documents, nothing else', () => {
  const installed = join(project, 'node_modules')
  expect(readdirSync(installed).filter((n) => !n.startsWith('.'))).toEqual(['wait-for-model'])
  const files = readdirSync(join(installed, 'wait-for-model'), { recursive: true, encoding: 'utf8' }).sort()
  const bundles = readdirSync(join(root, 'dist')).filter((f) => f.endsWith('.js'))
  expect(bundles).toEqual(expect.arrayContaining(['cli.js', 'index.js', 'post.js']))
  expect(files).toEqual(
    [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'dist',
      ...bundles.map((f) => `dist/${f}`),
      'dist/licenses.txt',
      'package.json'
    ].sort()
  )
  const manifest = JSON.parse(readFileSync(join(installed, 'wait-for-model', 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >
  expect(manifest.dependencies).toBeUndefined()
  expect(manifest.private).toBeUndefined()
})

it('npx wait-for-model --version prints the packed version', async () => {
  const { stdout } = await exec('npx', ['--offline', 'wait-for-model', '--version'], { cwd: project, env: npmEnv })
  expect(stdout.trim()).toBe(pkg.version)
})

it('npx wait-for-model waits for a simulated vLLM and exits 0 once it lists the model', async () => {
  const server = await simulate({ engine: 'vllm', model: 'Qwen/Qwen3-0.6B', loadMs: 800 })
  try {
    const { stdout } = await exec(
      'npx',
      [
        '--offline',
        'wait-for-model',
        '--url',
        `${server.baseUrl}/v1/models`,
        '--model',
        'qwen3',
        '--interval',
        '200ms',
        '--timeout',
        '30s',
        '--json'
      ],
      { cwd: project, env: npmEnv }
    )
    const outputs = JSON.parse(stdout) as Record<string, unknown>
    expect(outputs).toMatchObject({ reason: 'ready', 'model-id': 'Qwen/Qwen3-0.6B' })
    expect(outputs.ready).toBe(true)
  } finally {
    await server.close()
  }
}, 60_000)

it('npx wait-for-model demo runs the packaged action against a simulated vLLM: ready, then stopped by a fatal line', async () => {
  // exec rejects unless the demo exits 0, which it does only when the first wait is ready and the second fails
  const { stdout } = await exec('npx', ['--offline', 'wait-for-model', 'demo'], { cwd: project, env: npmEnv })
  const [ready, crash] = stdout.split('\n2. The same engine')
  expect(crash).toBeDefined()
  // the first wait: its outputs and summary, then the job-end step stops the server it started
  expect(ready).toMatch(/^ {2}ready = true$/m)
  expect(ready).toMatch(/^ {2}reason = ready$/m)
  expect(ready).toMatch(/^\| Result \| ✅ ready \|$/m)
  expect(ready).toMatch(/The job-end step \(dist\/post\.js\):\nStopped the server's process group \d+/)
  // the second: the fatal line of its log ends the wait, and the summary leads with it
  expect(crash).toMatch(/^Not ready after [\d.]+s \(\d+ probes?\): log-error$/m)
  expect(crash).toMatch(/Job summary:\n\n### wait-for-model\n\n\*\*❌ Not ready \(log-error\)\*\*/)
  expect(crash).toContain('CUDA out of memory')
}, 120_000)
