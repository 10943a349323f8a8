import { tmpdir } from 'node:os'
import { runAction } from '../../src/simulator/runner.js'
import type { SimulatedServer } from '../../src/simulator/options.js'
import { simulate } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, type ProcessRun, runProcess } from '../helpers/support.js'

/**
 * Readers that leave early, through real pipes: the CLI and the packaged action keep their exit status and
 * print no stack trace when the pipe under stdout or stderr closes (EPIPE).
 */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
/** The CLI's history (its default: under the user's cache directory) goes here. */
const cacheHome = sandbox('wait-for-model-pipes-cache-', 'file')

let server: SimulatedServer
beforeEach(async () => {
  server = await simulate({ engine: 'vllm', model: 'Qwen/Qwen3-0.6B', loadMs: 1_000 })
})
afterEach(() => server.close())

/** Runs a bash pipeline with the CLI as $CLI; resolves with bash's exit status and what reached this end. */
const pipeline = (script: string): Promise<ProcessRun> =>
  runProcess('bash', ['-c', script], {
    // TMPDIR: this run's, whose leftovers the tests' teardown looks for
    env: {
      PATH: process.env.PATH ?? '',
      XDG_CACHE_HOME: cacheHome.dir(),
      TMPDIR: tmpdir(),
      NODE: process.execPath,
      CLI: cli
    }
  })

const wait = (url: string): string => `"$NODE" "$CLI" --url ${url} --model qwen3 --interval 200ms --timeout 30s`
const STACK = /EPIPE|^\s+at /m

it('`wait-for-model … 2>&1 | head -1`: exits 0 once the server is ready, after head has gone', async () => {
  // the first line (the plan) reaches head; every later progress line meets a closed pipe
  const r = await pipeline(`${wait(`${server.baseUrl}/v1/models`)} 2>&1 | head -1; exit "\${PIPESTATUS[0]}"`)
  expect(r.stdout).toMatch(/^Waiting up to 30\.0s for http:\/\/127\.0\.0\.1:\d+\/v1\/models .*\n$/)
  expect(r).toMatchObject({ code: 0, stderr: '' })
})

it('--json into a reader that has left: exits 0, and stderr (still open) shows no EPIPE and no stack trace', async () => {
  const r = await pipeline(`${wait(`${server.baseUrl}/v1/models`)} --json | head -c 0; exit "\${PIPESTATUS[0]}"`)
  expect(r.stderr).toMatch(/^Ready after /m)
  expect(r.stderr).not.toMatch(STACK)
  expect(r.code).toBe(0)
})

it('a closed pipe keeps the other exit statuses too: 1 for a timeout, 2 for bad usage', async () => {
  // a path the simulator does not serve: 404 until the timeout
  const timeout = await pipeline(
    `"$NODE" "$CLI" --url ${server.baseUrl}/nothing-here --interval 200ms --timeout 1s 2>&1 | head -c 0; exit "\${PIPESTATUS[0]}"`
  )
  expect(timeout.code).toBe(1)
  const usage = await pipeline(`"$NODE" "$CLI" --url not-a-url 2>&1 | head -c 0; exit "\${PIPESTATUS[0]}"`)
  expect(usage.code).toBe(2)
})

it('the packaged action whose stdout closes at once still waits, sets its outputs and exits 0 without a stack trace', async () => {
  const run = await runAction({
    entry,
    inputs: { url: `${server.baseUrl}/v1/models`, model: 'qwen3', interval: '200ms', timeout: '30s' },
    // the runner's end of the pipe goes away before the action writes its first line
    onStart: (child) => child.stdout?.destroy()
  })
  expect(run.stderr).not.toMatch(STACK)
  expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready', 'model-id': 'Qwen/Qwen3-0.6B' })
  expect(run.code).toBe(0)
})
