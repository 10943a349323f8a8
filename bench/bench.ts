/**
 * `npm run bench`: compares this action with the shell loop it replaces and with wait-on, on the same
 * simulated startups, on this machine, with no network. Prints Markdown tables (copied into BENCHMARKS.md).
 *
 *   npm run bench -- [--runs 10] [--idle-seconds 120] [--only lag,startup,idle,fleet] [--fleet 200] [--bare-env]
 *                    [--node PATH]
 *
 * `--node` runs every Node process measured (the action, wait-on, the empty `node -e ''`) with that binary:
 * GitHub runs the action on Node 24.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, simulate } from '../src/simulator/server.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const action = join(root, 'dist', 'index.js')
const waitOn = join(root, 'node_modules', 'wait-on', 'bin', 'wait-on')
const undiciFloor = join(root, 'node_modules', '.cache', 'wait-for-model-bench', 'floor', 'index.js')
const MODEL = '/shared/kimi-k2.5-int4'

const args = process.argv.slice(2)
const arg = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback
}
const RUNS = Number(arg('runs', '10'))
const IDLE_S = Number(arg('idle-seconds', '120'))
const ONLY = arg('only', 'startup,lag,idle,fleet').split(',')
const FLEET = Number(arg('fleet', '200'))
const NODE = arg('node', process.execPath)

interface Tool {
  name: string
  start(url: string): ChildProcess
}

/**
 * Every process gets this machine's environment, the empty `node -e ''` too: a variable such as
 * NODE_EXTRA_CA_CERTS (set here) costs every node start the same. `--bare-env` gives each only PATH.
 */
const BASE_ENV: NodeJS.ProcessEnv = args.includes('--bare-env') ? { PATH: process.env.PATH } : { ...process.env }

const shellLoop = (sleepS: number): Tool => ({
  name: `shell loop (curl, sleep ${sleepS})`,
  start: (url) =>
    spawn(
      'bash',
      ['-c', `for i in $(seq 1 50); do curl -s -m 5 "$URL" | grep -q kimi && break; sleep ${sleepS}; done`],
      {
        env: { ...BASE_ENV, URL: url },
        stdio: 'ignore'
      }
    )
})

const TOOLS: Tool[] = [
  {
    name: 'wait-for-model (defaults)',
    start: (url) =>
      spawn(NODE, [action], {
        env: { ...BASE_ENV, INPUT_URL: url, INPUT_MODEL: 'kimi', INPUT_TIMEOUT: '10m' },
        stdio: 'ignore'
      })
  },
  shellLoop(15),
  shellLoop(5),
  {
    name: 'wait-on (defaults)',
    start: (url) => spawn(NODE, [waitOn, url.replace(/^http:/, 'http-get:')], { env: BASE_ENV, stdio: 'ignore' })
  }
]

/** Not a tool: the HTTP client alone, loaded as the action loads it, sending one request. No action starts sooner. */
const FLOOR: Tool = {
  name: 'floor: undici alone (the parts the probe loads, one request)',
  start: (url) => spawn(NODE, [undiciFloor], { env: { ...BASE_ENV, URL: url }, stdio: 'ignore' })
}

const nodeVersion = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim()

/** Peak resident memory (VmHWM) of a running process, read until it exits. */
function trackPeakRss(child: ChildProcess): () => number {
  let peakKb = 0
  const read = (): void => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
      if (m) peakKb = Math.max(peakKb, Number(m[1]))
    } catch {
      // the process has gone
    }
  }
  const timer = setInterval(read, 20)
  child.once('exit', () => clearInterval(timer))
  read()
  return () => peakKb / 1024
}

const exited = (child: ChildProcess): Promise<number> =>
  new Promise((resolve) => child.once('exit', () => resolve(performance.now())))

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const fmtMs = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`)

/** Detection lag: the simulated server becomes ready; how long until each tool exits? */
async function lagScenario(title: string, refusedMs: () => number, loadingMs: number): Promise<void> {
  const rows = TOOLS.map(() => ({ lags: [] as number[], requests: [] as number[], rss: [] as number[] }))
  for (let run = 0; run < RUNS; run++) {
    // every tool gets its own server, all running at once; each draws its own refused time, so that their
    // ready moments (when the measured work happens) rarely coincide on this 2-core machine
    await Promise.all(
      TOOLS.map(async (tool, i) => {
        const opensAfterMs = refusedMs()
        const server = await simulate({
          engine: 'openai',
          model: MODEL,
          loadMs: opensAfterMs + loadingMs,
          opensAfterMs
        })
        const child = tool.start(`${server.baseUrl}/v1/models`)
        const peak = trackPeakRss(child)
        const exitAt = await exited(child)
        // the simulator keeps epoch time; convert the exit to the same scale
        const lag = Date.now() - (performance.now() - exitAt) - server.readyAt
        rows[i].lags.push(lag)
        rows[i].requests.push(server.requests)
        rows[i].rss.push(peak())
        await server.close()
      })
    )
    process.stderr.write(`  ${title}: run ${run + 1}/${RUNS}\n`)
  }
  console.log(`\n### Detection lag: ${title} (${RUNS} runs)\n`)
  console.log('| tool | median lag | worst lag | HTTP requests to the server (median) | peak RSS |')
  console.log('|---|---:|---:|---:|---:|')
  TOOLS.forEach((tool, i) => {
    const r = rows[i]
    console.log(
      `| ${tool.name} | ${fmtMs(median(r.lags))} | ${fmtMs(Math.max(...r.lags))} | ${median(r.requests)} | ${Math.max(...r.rss).toFixed(0)} MB |`
    )
  })
}

/** Start-up: from spawn to the first request a ready server sees, against an empty `node -e ''`. */
async function startup(): Promise<void> {
  let firstRequestAt = 0
  const server = createServer((_req, res) => {
    firstRequestAt ||= performance.now()
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data: [{ id: MODEL }] }))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/models`
  const empty: number[] = []
  const firsts = [...TOOLS, FLOOR].map(() => [] as number[])
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now()
    empty.push((await exited(spawn(NODE, ['-e', ''], { env: BASE_ENV, stdio: 'ignore' }))) - t0)
    for (const [i, tool] of [...TOOLS, FLOOR].entries()) {
      firstRequestAt = 0
      const started = performance.now()
      await exited(tool.start(url))
      firsts[i].push(firstRequestAt - started)
    }
  }
  server.close()
  const base = median(empty)
  console.log(`\n### Start-up: spawn to first request (${RUNS} runs, median)\n`)
  const envNote = args.includes('--bare-env')
    ? 'PATH only'
    : `this machine's${process.env.NODE_EXTRA_CA_CERTS ? ', with NODE_EXTRA_CA_CERTS' : ''}`
  console.log(`Empty \`node -e ''\`: ${fmtMs(base)} (Node ${nodeVersion}; environment: ${envNote}).\n`)
  console.log("| tool | spawn → first request | ratio to `node -e ''` |")
  console.log('|---|---:|---:|')
  ;[...TOOLS, FLOOR].forEach((tool, i) =>
    console.log(`| ${tool.name} | ${fmtMs(median(firsts[i]))} | ${(median(firsts[i]) / base).toFixed(2)}× |`)
  )
  const bundle = readFileSync(action).length
  console.log(`\n\`dist/index.js\`: ${(bundle / 1024 / 1024).toFixed(2)} MB.`)
}

/** Cost while waiting on a server that does not come up: CPU share and memory of the action. */
async function idle(): Promise<void> {
  const port = await freePort()
  const child = spawn(NODE, [action], {
    env: { ...BASE_ENV, INPUT_URL: `http://127.0.0.1:${port}/v1/models`, INPUT_TIMEOUT: `${IDLE_S + 10}s` },
    stdio: 'ignore'
  })
  const peak = trackPeakRss(child)
  const ticks = (): number => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return Number(fields[11]) + Number(fields[12]) // utime + stime, in clock ticks (1/100 s)
  }
  await new Promise((r) => setTimeout(r, 3_000))
  const t0 = ticks()
  const w0 = performance.now()
  await new Promise((r) => setTimeout(r, IDLE_S * 1000))
  const cpu = (ticks() - t0) / 100 / ((performance.now() - w0) / 1000)
  const rss = peak()
  child.kill()
  console.log(`\n### Cost while waiting (${IDLE_S} s on a closed port)\n`)
  console.log('| tool | CPU (share of one core) | peak RSS |')
  console.log('|---|---:|---:|')
  console.log(`| wait-for-model (defaults) | ${(cpu * 100).toFixed(2)}% | ${rss.toFixed(0)} MB |`)
}

/** Many endpoints becoming ready at random times over 30 s: how late is each seen, and what does it cost? */
async function fleet(): Promise<void> {
  const loads = Array.from({ length: FLEET }, () => 1_000 + Math.random() * 29_000)
  const servers = await Promise.all(
    loads.map((loadMs, i) => simulate({ engine: 'vllm', model: `/models/m-${i}`, loadMs }))
  )
  const output = join(root, 'node_modules', '.cache', `fleet-output-${process.pid}`)
  const { writeFileSync, rmSync } = await import('node:fs')
  writeFileSync(output, '')
  const spawnedAt = Date.now()
  const child = spawn(NODE, [action], {
    env: {
      ...BASE_ENV,
      INPUT_URL: servers.map((s) => `${s.baseUrl}/v1/models`).join('\n'),
      INPUT_MODEL: 'm-',
      INPUT_TIMEOUT: '2m',
      GITHUB_OUTPUT: output
    },
    stdio: 'ignore'
  })
  const peak = trackPeakRss(child)
  let ticks = 0
  const sample = setInterval(() => {
    try {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ')
      ticks = Number(fields[11]) + Number(fields[12])
    } catch {
      // exited
    }
  }, 100)
  const exitAt = await exited(child)
  clearInterval(sample)
  const wallS = (Date.now() - (performance.now() - exitAt) - spawnedAt) / 1000
  const text = readFileSync(output, 'utf8')
  rmSync(output)
  const json = /^results<<(.+)\n([\s\S]*?)\n\1$/m.exec(text)?.[2] ?? '[]'
  const results = JSON.parse(json) as Array<{ ready: boolean; 'elapsed-seconds': number }>
  // elapsed-seconds has one decimal and counts from the process start, a few ms after the spawn
  const lags = results.map((r, i) => spawnedAt + r['elapsed-seconds'] * 1000 - servers[i].readyAt)
  await Promise.all(servers.map((s) => s.close()))
  console.log(`\n### Fleet: ${FLEET} endpoints ready at random times over 30 s (one run)\n`)
  console.log('| ready | median lag | worst lag | CPU (share of one core, whole run) | peak RSS |')
  console.log('|---:|---:|---:|---:|---:|')
  console.log(
    `| ${results.filter((r) => r.ready).length} of ${FLEET} | ${fmtMs(median(lags))} | ${fmtMs(Math.max(...lags))} | ${((ticks / 100 / wallS) * 100).toFixed(2)}% | ${peak().toFixed(0)} MB |`
  )
  console.log('\nLags are ±50 ms: `elapsed-seconds` has one decimal.')
}

console.log(
  `# wait-for-model benchmark\n\n${new Date().toISOString()}, Node ${nodeVersion}, ${(await import('node:os')).cpus().length} cores`
)
if (ONLY.includes('startup')) await startup()
if (ONLY.includes('lag')) {
  const refused = (): number => 2_000 + Math.random() * 4_000
  await lagScenario('refused 2–6 s, then ready (vLLM, TGI, Triton)', refused, 0)
  await lagScenario('refused 2–6 s, then 503 for 3 s, then ready', refused, 3_000)
}
if (ONLY.includes('idle')) await idle()
if (ONLY.includes('fleet')) await fleet()
