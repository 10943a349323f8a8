/**
 * `npm run bench -- --only bounds`: the time bounds that the end-to-end tests assert only on the step's own clock,
 * or against a hang, because a loaded machine stretches any wall-clock figure (__tests__/helpers/bounds.ts). Here,
 * on an idle machine, on the bench's clock from the spawn to the exit:
 *
 * - how far past `timeout` the action ends, against a server that accepts and never answers and a closed port
 *   (the promise: `timeout` + 1 s at most; docs/guarantees.md);
 * - how soon a bad input ends the action with its error (the promise: under a second, before any request);
 * - how soon SIGTERM ends the action while its probe hangs (the promise: within a second; docs/cli.md);
 * - how soon the wait ends once the server it started exits (within a second; docs/server.md), by the server's own
 *   stamp of its exit in its log;
 * - how soon the CLI ends once an engine's own readiness route says ready (NVIDIA NIM's, a 2.5 s load at the default
 *   interval: within 1 s; docs/endpoints.md).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort, simulate } from '../src/simulator/server.js'

const TIMEOUT_MS = 2_000

function exitAfter(node: string, action: string, env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now()
  const child = spawn(node, [action], { env, stdio: 'ignore' })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', () => resolve(performance.now() - started))
  })
}

/** Spawns `entry`, sends SIGTERM 300 ms after its stdout says `Waiting up to`; resolves with the ms to its exit. */
function cancelAfter(node: string, entry: string, env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(node, [entry], { env, stdio: ['ignore', 'pipe', 'ignore'] })
  let seen = ''
  let signalledAt = 0
  child.stdout.on('data', (d: Buffer) => {
    if (signalledAt !== 0 || !(seen += String(d)).includes('Waiting up to')) return
    signalledAt = -1
    setTimeout(() => {
      signalledAt = performance.now()
      child.kill('SIGTERM')
    }, 300)
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', () => resolve(performance.now() - signalledAt))
  })
}

/** Runs `args` to its exit; resolves with the moment of the exit, in ms since the epoch. */
function endOf(node: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(node, args, { env, stdio: 'ignore' })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', () => resolve(Date.now()))
  })
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const ms = (x: number): string => `${Math.round(x)} ms`

export async function boundsBench({
  action,
  node,
  env,
  runs
}: {
  action: string
  node: string
  env: NodeJS.ProcessEnv
  runs: number
}): Promise<void> {
  // accepts every connection and never answers
  const silent = createServer(() => undefined)
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r))
  const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1/models`
  // a port that was free a moment ago: connection refused
  const closed = createServer()
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
  const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1/models`
  await new Promise((r) => closed.close(r))
  // no history: the bench writes nothing of the action's own outside its runs
  const base = { ...env, 'INPUT_HISTORY-FILE': '', INPUT_INTERVAL: '250ms' }

  const rows: Array<[string, string, number[]]> = []
  for (const [what, url] of [
    ['accepts and never answers', silentUrl],
    ['connection refused', closedUrl]
  ] as const) {
    const past: number[] = []
    for (let i = 0; i < runs; i++)
      past.push(
        (await exitAfter(node, action, { ...base, INPUT_URL: url, INPUT_TIMEOUT: `${TIMEOUT_MS}ms` })) - TIMEOUT_MS
      )
    rows.push([`ends past a ${TIMEOUT_MS / 1000} s timeout: ${what}`, '≤ 1000 ms', past])
  }
  const bad: number[] = []
  for (let i = 0; i < runs; i++)
    bad.push(await exitAfter(node, action, { ...base, INPUT_URL: silentUrl, INPUT_TIMEOUT: 'forever' }))
  rows.push(['bad input (timeout=forever): spawn to exit with its error', '< 1000 ms', bad])

  const cancel: number[] = []
  for (let i = 0; i < runs; i++)
    cancel.push(await cancelAfter(node, action, { ...base, INPUT_URL: silentUrl, INPUT_TIMEOUT: '60s' }))
  rows.push(['SIGTERM while the probe hangs: signal to exit', '< 1000 ms', cancel])
  silent.close()

  // a server the action starts, that exits 1.2 s after its own start and stamps the moment in its log
  const fakeServer = join(dirname(action), '..', '__tests__', 'fixtures', 'fake-server.mjs')
  const dead: number[] = []
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'wait-for-model-bench-bounds-'))
    try {
      const port = await freePort()
      const log = join(dir, 'server.log')
      const ended = await endOf(node, [action], {
        ...base,
        RUNNER_TEMP: dir,
        INPUT_URL: `http://127.0.0.1:${port}/v1/models`,
        INPUT_START: `${node} ${fakeServer} ${port} exit 1200 3`,
        'INPUT_LOG-FILE': log,
        INPUT_INTERVAL: '10s',
        INPUT_TIMEOUT: '60s'
      })
      dead.push(ended - Number(/^event at (\d+)$/m.exec(readFileSync(log, 'utf8'))?.[1]))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  rows.push(['the server it started exits (interval 10 s): its exit to the end', '< 1000 ms', dead])

  // NVIDIA NIM lists its model at once and says ready on /v1/health/ready after 2.5 s
  const cli = join(dirname(action), 'cli.js')
  const seen: number[] = []
  for (let i = 0; i < runs; i++) {
    const model = 'meta/llama-3.1-8b-instruct'
    const server = await simulate({ engine: 'nim', model, loadMs: 2_500 })
    try {
      const args = [cli, '--url', `${server.baseUrl}/v1/models`, '--model', model, '--engine', 'nim']
      const ended = await endOf(node, [...args, '--timeout', '30s', '--history-file', ''], { PATH: env.PATH })
      seen.push(ended - server.readyAt)
    } finally {
      await server.close()
    }
  }
  rows.push(["an engine's readiness route says ready (NIM, default interval): to the CLI's end", '≤ 1000 ms', seen])

  console.log(`\n### Time bounds (${runs} runs; spawn to exit, the bench's clock)\n`)
  console.log('| what | target | median | worst |')
  console.log('|---|---:|---:|---:|')
  for (const [what, target, xs] of rows)
    console.log(`| ${what} | ${target} | ${ms(median(xs))} | ${ms(Math.max(...xs))} |`)
}
