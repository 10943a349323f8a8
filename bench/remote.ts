/**
 * `npm run bench -- --only remote`: the remote kind (`host`, over real OpenSSH in a network namespace, as the
 * end-to-end tests make it) side by side with the local kind, on the same servers, their runs taken in turn:
 *
 * - lag to ready, in two shapes (refused until ready; 503 until ready): from the moment the server is ready to the
 *   gate's line saying so (target: the remote kind's median within 50 ms of the local kind's), and to the action's
 *   exit (after the wait: the wrong-server check and the GPU memory, over ssh a session each);
 * - a node's death to the wait's end: from the server's exit to the action's; target: 1 s;
 * - a remote log line to the gate seeing it: from the line written there to its arrival in the local copy that the
 *   gate reads (which wakes the gate's read by the file system); target: 100 ms. Beside it, a fatal line to the
 *   action's exit for both kinds (a fatal line waits 150 ms for the server's exit, to name its code).
 *
 * Needs root, sshd and `ip netns` (__tests__/helpers/ssh-nodes.ts); says why not and does nothing otherwise.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { freePort } from '../src/simulator/server.js'
import { runAction } from '../src/simulator/runner.js'
import { sshNode, sshNodesMissing } from '../__tests__/helpers/ssh-nodes.js'

/**
 * The server both kinds start: `node server.js PORT SCENARIO LOAD_MS STAMP_FILE`. It stamps (ms since the epoch) the
 * moment it becomes ready (`refused`: its port opens; `503`: its answers turn from 503 to the model list), exits
 * (`dies`), or writes its fatal line (`fatal`, then runs on).
 */
const SERVER = `
const [port, scenario, loadMs, stamp] = process.argv.slice(2)
const fs = require('fs')
const mark = () => fs.writeFileSync(stamp, String(Date.now()))
let ready = false
const listen = () => require('http').createServer((q, s) => {
  s.setHeader('content-type', 'application/json')
  if (!ready) { s.statusCode = 503; return s.end('{"error":"Loading model"}') }
  s.end(JSON.stringify({ object: 'list', data: [{ id: 'kimi', object: 'model' }] }))
}).listen(Number(port), '127.0.0.1', () => { if (scenario === 'refused') { ready = true; mark() } })
console.log('loading')
if (scenario === '503') setTimeout(listen, 300)
setTimeout(() => {
  if (scenario === 'refused') return listen()
  if (scenario === '503') { ready = true; return mark() }
  mark()
  if (scenario === 'dies') process.exit(3)
  console.log('FATAL-MARK the engine failed')
  setInterval(() => {}, 1000)
}, Number(loadMs))
`

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const ms = (x: number): string => `${Math.round(x)} ms`

type Kind = 'local' | 'remote'
interface Figure {
  what: string
  scenario: 'refused' | '503' | 'dies' | 'fatal'
  target: string
}

const FIGURES: Figure[] = [
  { what: 'lag to ready: refused until ready', scenario: 'refused', target: '—' },
  { what: 'lag to ready: 503 until ready', scenario: '503', target: '—' },
  { what: "the server's death to the wait's end", scenario: 'dies', target: '≤ 1000 ms' },
  { what: "a fatal log line to the wait's end", scenario: 'fatal', target: '—' }
]

/** Polls `file` until it holds `text`; resolves with the moment it did (or undefined after `ms`). */
function arrival(file: string, text: string, ms: number): Promise<number | undefined> {
  const until = Date.now() + ms
  return new Promise((resolve) => {
    const look = (): void => {
      let held = ''
      try {
        held = readFileSync(file, 'utf8')
      } catch {
        // not there yet
      }
      if (held.includes(text)) return resolve(Date.now())
      if (Date.now() > until) return resolve(undefined)
      setTimeout(look, 2)
    }
    look()
  })
}

/** What `remoteFigures` measured: ms per figure and kind (`<what>|local`, `<what>|remote`, `line|remote`). */
export type RemoteFigures = Map<string, number[]>

/**
 * Runs the action `runs` times for each figure and kind, in turn, on one sshd node made in `dir`; `undefined` with
 * why where this machine cannot (not root, no sshd, no `ip netns`).
 */
export async function remoteFigures({
  action,
  node,
  env,
  runs,
  dir
}: {
  action: string
  node: string
  env: NodeJS.ProcessEnv
  runs: number
  dir: string
}): Promise<RemoteFigures | string> {
  const missing = sshNodesMissing()
  if (missing !== undefined) return missing
  const ssh = await sshNode(dir, 'node')
  const script = join(dir, 'server.js')
  writeFileSync(script, SERVER)
  const figures: RemoteFigures = new Map()
  const add = (key: string, x: number): void => void figures.set(key, [...(figures.get(key) ?? []), x])
  try {
    for (const figure of FIGURES)
      for (let run = 0; run < runs; run++)
        for (const kind of ['local', 'remote'] as Kind[]) {
          const port = await freePort()
          const stamp = join(dir, `stamp-${kind}-${run}-${port}`)
          writeFileSync(stamp, '')
          let exitAt = 0
          let copy: Promise<number | undefined> | undefined
          let said = ''
          let readySaid: number | undefined
          const run_ = await runAction({
            entry: action,
            node,
            inputs: {
              url: `http://localhost:${port}/v1/models`,
              model: 'kimi',
              start: `exec ${node} ${script} ${port} ${figure.scenario} ${Math.round(2_000 + Math.random() * 1_000)} ${stamp}`,
              timeout: '30s',
              'history-file': '',
              ...(figure.scenario === 'fatal' ? { 'fail-pattern': 'FATAL-MARK' } : {}),
              ...(kind === 'remote' ? { host: ssh.host } : {})
            },
            env: {
              ...(env as Record<string, string>),
              HOME: dir,
              XDG_CACHE_HOME: join(dir, 'cache'),
              ...(kind === 'remote' ? { WAIT_FOR_MODEL_SSH_COMMAND: ssh.sshCommand } : {})
            },
            onStart: (child: ChildProcess) => void child.once('exit', () => (exitAt = Date.now())),
            // the local copy of the remote log, as soon as the action names it
            echo: new Writable({
              write(chunk: Buffer, _encoding, done) {
                said += chunk.toString()
                // the gate's line as it judges an answer ready, before its work after the wait and its exit
                if (readySaid === undefined && /s: HTTP 200, serving /.test(said)) readySaid = Date.now()
                const path = /is copied to (\S+) as it grows/.exec(said)?.[1]
                if (figure.scenario === 'fatal' && kind === 'remote' && copy === undefined && path !== undefined)
                  copy = arrival(path, 'FATAL-MARK', 20_000)
                done()
              }
            })
          })
          const pid = Number(run_.outputs.pid)
          // only our own server, still running the script: the ready and fatal ones run on
          if (pid > 0 && readCmdline(pid).includes(script)) process.kill(pid, 'SIGKILL')
          const at = Number(readFileSync(stamp, 'utf8'))
          const expected = figure.scenario === 'refused' || figure.scenario === '503' ? 'true' : 'false'
          if (!(at > 0) || run_.outputs.ready !== expected)
            throw new Error(`remote figures: ${figure.what} (${kind}): ${run_.stdout.slice(-1500)}`)
          add(`${figure.what}|${kind}`, exitAt - at)
          if (readySaid !== undefined) add(`${figure.what}, seen|${kind}`, readySaid - at)
          const seen = await copy
          if (seen !== undefined) add('line|remote', seen - at)
        }
  } finally {
    ssh.close()
  }
  return figures
}

/** The figures as BENCHMARKS.md has them. */
export async function remoteBench({
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
  console.log(
    `\n### A server on another host (\`host\`, over ssh) beside the local kind (${runs} runs each, in turn)\n`
  )
  const dir = mkdtempSync(join(tmpdir(), 'wait-for-model-bench-remote-'))
  const loadBefore = loadavg()[0]
  const figures = await remoteFigures({ action, node, env, runs, dir }).finally(() =>
    rmSync(dir, { recursive: true, force: true })
  )
  if (typeof figures === 'string') {
    console.log(`Not measured here: ${figures}.`)
    return
  }
  const row = (what: string, kind: string, target: string, xs: number[], met?: boolean): string =>
    `| ${what} | ${kind} | ${target} | ${ms(median(xs))} | ${ms(Math.max(...xs))} | ${met === undefined ? '' : met ? 'met' : '**not met**'} |`
  console.log(
    `Load average (1 min) ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after. ` +
      "Spawn of the action to its exit, on the bench's clock; the server stamps its own moments.\n"
  )
  console.log('| what | kind | target | median | worst | target met |')
  console.log('|---|---|---|---:|---:|---|')
  for (const figure of FIGURES) {
    const lag = figure.scenario === 'refused' || figure.scenario === '503'
    // lag to ready: the gate's ready line is the target's; the exit adds the work after the wait
    for (const [what, target] of lag
      ? [
          [`${figure.what}, seen`, 'remote median ≤ local + 50 ms'],
          [`${figure.what}, to the exit`, figure.target]
        ]
      : [[figure.what, figure.target]]) {
      const key = what.endsWith(', to the exit') ? figure.what : what
      const local = figures.get(`${key}|local`) ?? []
      const remote = figures.get(`${key}|remote`) ?? []
      const met = what.endsWith(', seen')
        ? median(remote) <= median(local) + 50
        : figure.scenario === 'dies'
          ? median(remote) <= 1_000 && median(local) <= 1_000
          : undefined
      console.log(row(what, 'local', target, local))
      console.log(row(what, 'over ssh', target, remote, met))
    }
  }
  const lines = figures.get('line|remote') ?? []
  console.log(
    row('a remote log line to the gate seeing it (its local copy)', 'over ssh', '≤ 100 ms', lines, median(lines) <= 100)
  )
}

/** A process's command line ('' once it has gone). */
function readCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
  } catch {
    return ''
  }
}
