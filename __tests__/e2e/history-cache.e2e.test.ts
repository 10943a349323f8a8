import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { type CacheService, startCacheService } from '../helpers/cache-service.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors, fakeServer } from '../helpers/support.js'

/**
 * `history-file: actions-cache` as ephemeral runners live it: each job a fresh runner folder (its RUNNER_TEMP, tool
 * cache and workspace) sharing nothing but the cache service, through dist/index.js, then dist/post.js with the
 * state the main step saved, the real @actions/cache talking to the stand-in.
 */
const post = new URL('../../dist/post.js', import.meta.url).pathname
const box = sandbox('wfm-history-cache-e2e-')
let service: CacheService

beforeEach(async () => {
  service = await startCacheService()
})
afterEach(() => service.close())

/** A fresh runner folder, as an ephemeral runner gives each job. */
function runnerFolder(): Record<string, string> {
  const root = mkdtempSync(join(box.dir(), 'runner-'))
  const env = { RUNNER_TEMP: join(root, 'temp'), RUNNER_TOOL_CACHE: join(root, 'tool-cache') }
  for (const dir of [...Object.values(env), join(root, 'work')]) mkdirSync(dir, { recursive: true })
  return { ...env, GITHUB_WORKSPACE: join(root, 'work') }
}

/** The main step on a server that loads for `loadMs`, in the runner folder `runner`. */
async function mainStep(runner: Record<string, string>, loadMs: number, inputs: Record<string, string> = {}) {
  const port = await freePort()
  const run = await runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      start: `node ${fakeServer} ${port} loads ${loadMs}`,
      interval: '100ms',
      timeout: '30s',
      'history-file': 'actions-cache',
      'history-key': 'kimi-tp8',
      ...inputs
    },
    env: { ...runner, ...service.env }
  })
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  return run
}

function postStep(runner: Record<string, string>, state: Record<string, string>) {
  const env: Record<string, string> = { ...runner, ...service.env }
  for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value
  return runAction({ entry: post, inputs: {}, env })
}

/** The runs in the newest finalized entry of the cache, as the next job restores them. */
function newestRuns(): Array<{ key: string; startupSeconds?: number }> {
  const newest = service.entries.filter((e) => e.finalized).at(-1)
  if (newest?.data === undefined) return []
  const dir = mkdtempSync(join(box.dir(), 'newest-'))
  writeFileSync(join(dir, 'cache.tzst'), newest.data)
  execFileSync('tar', ['-xf', 'cache.tzst', '-P', '-C', dir], { cwd: dir })
  return readFileSync(join(dir, 'history.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
}

describe('history in the Actions cache (history-file: actions-cache)', () => {
  it('ten jobs on ten fresh runner folders build one history, and the eleventh is warned of its slower start-up', async () => {
    for (let i = 0; i < 10; i++) {
      const runner = runnerFolder()
      const run = await mainStep(runner, 200)
      expect(errors(run.stdout)).toEqual([])
      expect(run.outputs.ready).toBe('true')
      expect(run.stdout).not.toContain('test-runtime-token')
      const p = await postStep(runner, run.state)
      expect(p.code).toBe(0)
      expect(p.stdout).toContain(`History saved to the Actions cache as wait-for-model-history-kimi-tp8-${i + 1}.`)
      expect(p.stdout).not.toContain('::warning')
      expect(p.stdout + p.stderr).not.toContain('test-runtime-token')
    }
    expect(newestRuns()).toHaveLength(10)
    const runner = runnerFolder()
    const eleventh = await mainStep(runner, 3000)
    expect(eleventh.outputs.ready).toBe('true')
    expect(eleventh.outputs['expected-seconds']).not.toBe('')
    expect(eleventh.stdout).toMatch(
      /::warning title=Model server startup slower than usual::Startup took [\d.]+s, [\d.]+%25 over the median of [\d.]+s of the last 10 ready runs/
    )
    await postStep(runner, eleventh.state)
    expect(newestRuns()).toHaveLength(11)
    expect(service.refused).toBe(0)
  }, 240_000)

  it('two jobs that restored the same history and save at once lose no run', async () => {
    const first = runnerFolder()
    const base = await mainStep(first, 100)
    await postStep(first, base.state)
    const [a, b] = [runnerFolder(), runnerFolder()]
    const runA = await mainStep(a, 100)
    const runB = await mainStep(b, 100)
    const [postA, postB] = await Promise.all([postStep(a, runA.state), postStep(b, runB.state)])
    expect([postA.code, postB.code]).toEqual([0, 0])
    const saved = [postA.stdout, postB.stdout].map((s) => /saved to the Actions cache as (\S+)\./.exec(s)?.[1]).sort()
    expect(saved).toEqual(['wait-for-model-history-kimi-tp8-2', 'wait-for-model-history-kimi-tp8-3'])
    expect(newestRuns()).toHaveLength(3)
  }, 120_000)

  it('a cache that cannot be reached: the summary says history is off, once, and the wait is not failed', async () => {
    const runner = runnerFolder()
    const port = await freePort()
    const run = await runAction({
      entry,
      inputs: {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: 'kimi',
        start: `node ${fakeServer} ${port} loads 100`,
        interval: '100ms',
        timeout: '30s',
        'history-file': 'actions-cache'
      },
      env: {
        ...runner,
        ACTIONS_RESULTS_URL: 'http://127.0.0.1:1/',
        ACTIONS_RUNTIME_TOKEN: 't',
        ACTIONS_CACHE_SERVICE_V2: '1'
      }
    })
    if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
    expect(run.code).toBe(0)
    expect(run.outputs.ready).toBe('true')
    expect(run.summary.split('History is off').length - 1).toBe(1)
  }, 120_000)
})
