/**
 * `npm run bench -- --only bounds`: the time bounds that the end-to-end tests assert only on the step's own clock,
 * or against a hang, because a loaded machine stretches any wall-clock figure (__tests__/helpers/bounds.ts). Here,
 * on an idle machine, on the bench's clock from the spawn to the exit:
 *
 * - how far past `timeout` the action ends, against a server that accepts and never answers and a closed port
 *   (the promise: `timeout` + 1 s at most; docs/guarantees.md);
 * - how soon a bad input ends the action with its error (the promise: under a second, before any request).
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'

const TIMEOUT_MS = 2_000

function exitAfter(node: string, action: string, env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now()
  const child = spawn(node, [action], { env, stdio: 'ignore' })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', () => resolve(performance.now() - started))
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
  silent.close()

  console.log(`\n### Time bounds (${runs} runs; spawn to exit, the bench's clock)\n`)
  console.log('| what | target | median | worst |')
  console.log('|---|---:|---:|---:|')
  for (const [what, target, xs] of rows)
    console.log(`| ${what} | ${target} | ${ms(median(xs))} | ${ms(Math.max(...xs))} |`)
}
