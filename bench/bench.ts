/**
 * `npm run bench`: compares this action with the shell loop it replaces and with wait-on, on the same
 * simulated startups, on this machine, with no network. Prints Markdown tables (copied into BENCHMARKS.md).
 *
 *   npm run bench -- [--runs 10] [--startup-runs 40] [--idle-seconds 120]
 *                    [--only lag,startup,idle,fleet,bounds,smoke,llamacpp,long,remote]
 *                    [--long-runs 5] [--long-loads 2,30,300] [--remote-runs 10]
 *                    [--fleet 200] [--bare-env] [--node PATH] [--smoke-runs 5]
 *                    [--llamacpp-args "-ngl 99"] [--llamacpp-model FILE] [--skip-tools "shell loop,wait-on"]
 *
 * `llamacpp`: a real llama.cpp server (bench/real-llamacpp.ts), once `eval "$(scripts/real-llamacpp.sh)"` has
 * built it; not in the default set (it needs the build). `--llamacpp-args "-ngl 99"` adds arguments to the
 * server's (a CUDA build), `--llamacpp-model FILE` loads that model instead of writing a ~1 GiB one
 * (`scripts/tiny-gguf.py FILE --size gpu` for a GPU).
 *
 * `long`: the action with the URL alone against loads of 2 s, 30 s and 5 minutes in each shape a server can have
 * while it loads (refused, 503, its model listed while its readiness route says no, SGLang's warm-up), every run of
 * every shape of one load length at once (about 6 minutes in all).
 *
 * `remote`: the remote kind (`host`, over real sshd in a network namespace) beside the local kind (bench/remote.ts);
 * not in the default set (it needs root, sshd and `ip netns`).
 *
 * `--skip-tools` leaves out the tools whose names contain one of these words (the lag rows of the shell loops,
 * which sleep 15 s, set each run's length; leaving them out re-measures the action's rows in a third of the time).
 *
 * `--node` runs every Node process measured (the action, wait-on, the empty `node -e ''`) with that binary:
 * GitHub runs the action on Node 24.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { EngineName } from '../src/simulator/engines.js'
import { freePort, simulate } from '../src/simulator/server.js'
import { runAction } from '../src/simulator/runner.js'
import { boundsBench } from './bounds.js'
import { llamacppBench } from './real-llamacpp.js'
import { remoteBench } from './remote.js'

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
// A start-up is short and a shared machine's spread wide: a median of 10 moved as much as the target's margin.
const STARTUP_RUNS = Number(arg('startup-runs', '40'))
/** The start-up row's target: spawn to the action's first request at most this many times the undici floor's. */
const STARTUP_TARGET = 1.3
const IDLE_S = Number(arg('idle-seconds', '120'))
const ONLY = arg('only', 'startup,lag,idle,fleet,bounds,long').split(',')
const LONG_RUNS = Number(arg('long-runs', '5'))
const LONG_LOADS_S = arg('long-loads', '2,30,300').split(',').map(Number)
const FLEET = Number(arg('fleet', '200'))
const SMOKE_RUNS = Number(arg('smoke-runs', '5'))
const NODE = arg('node', process.execPath)
const REMOTE_RUNS = Number(arg('remote-runs', '10'))

interface Tool {
  name: string
  start(url: string, run?: RunContext): ChildProcess
  /** It reads the server's log: the bench writes one for it, with the engine's own lines. */
  readsLog?: boolean
  /** The action with other inputs: measured for detection lag only (its start-up is the defaults' row). */
  variant?: boolean
}

/** One start-up shape: how the simulated server starts, what each tool asks of it, and the engine's log lines. */
interface Shape {
  title: string
  engine: EngineName
  /** How long it answers HTTP before it is ready (0: it opens its port when ready). */
  answeringMs: number
  /** The route the tools probe, and whether they look for the model in it. */
  path: string
  model: boolean
  /** The engine's first line (it names the engine) and its ready line, as in its source (engine-logs.md). */
  firstLine: string
  readyLine: string
}

/** What a tool needs for one run: the log the bench writes for this server, the history of earlier runs. */
interface RunContext {
  shape: Shape
  logFile: string
  historyFile: string
}

/**
 * Every process gets this machine's environment, the empty `node -e ''` too: a variable such as
 * NODE_EXTRA_CA_CERTS (set here) costs every node start the same. `--bare-env` gives each only PATH.
 */
const BASE_ENV: NodeJS.ProcessEnv = args.includes('--bare-env') ? { PATH: process.env.PATH } : { ...process.env }

const shellLoop = (sleepS: number): Tool => ({
  name: `shell loop (curl, sleep ${sleepS})`,
  start: (url, run) =>
    spawn(
      'bash',
      [
        '-c',
        // on a health route: the status alone (curl -f fails on 4xx and 5xx)
        run?.shape.model === false
          ? `for i in $(seq 1 50); do curl -sf -m 5 "$URL" > /dev/null && break; sleep ${sleepS}; done`
          : `for i in $(seq 1 50); do curl -s -m 5 "$URL" | grep -q kimi && break; sleep ${sleepS}; done`
      ],
      {
        env: { ...BASE_ENV, URL: url },
        stdio: 'ignore'
      }
    )
})

/** The action with default settings, plus `inputs` (as the runner passes them: INPUT_ and the name). */
const action_ = (url: string, run: RunContext | undefined, inputs: Record<string, string> = {}): ChildProcess =>
  spawn(NODE, [action], {
    env: {
      ...BASE_ENV,
      INPUT_URL: url,
      ...(run?.shape.model === false ? {} : { INPUT_MODEL: 'kimi' }),
      INPUT_TIMEOUT: '10m',
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))
    },
    stdio: 'ignore'
  })

const SKIP = arg('skip-tools', '').split(',').filter(Boolean)

const ALL_TOOLS: Tool[] = [
  { name: 'wait-for-model (defaults)', start: (url, run) => action_(url, run) },
  {
    name: 'wait-for-model (history of earlier runs)',
    variant: true,
    start: (url, run) =>
      action_(url, run, run ? { 'history-file': run.historyFile, 'history-key': run.shape.title } : {})
  },
  {
    name: 'wait-for-model (the server log)',
    readsLog: true,
    variant: true,
    start: (url, run) => action_(url, run, run ? { 'log-file': run.logFile } : {})
  },
  shellLoop(15),
  shellLoop(5),
  {
    name: 'wait-on (defaults)',
    start: (url) => spawn(NODE, [waitOn, url.replace(/^http:/, 'http-get:')], { env: BASE_ENV, stdio: 'ignore' })
  }
]

const TOOLS = ALL_TOOLS.filter((tool) => !SKIP.some((word) => tool.name.includes(word)))

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

const SHAPES: Shape[] = [
  {
    title: 'refused 2–6 s, then ready (vLLM, TGI, Triton)',
    engine: 'vllm',
    answeringMs: 0,
    path: '/v1/models',
    model: true,
    firstLine: '(APIServer pid=1) INFO 12-01 11:00:00 [api_server.py:1] vLLM API server version 0.11.0',
    readyLine: '(APIServer pid=1) INFO:     Application startup complete.'
  },
  {
    title: 'refused 2–6 s, then 503 for 3 s, then ready (llama.cpp)',
    engine: 'openai',
    answeringMs: 3_000,
    path: '/v1/models',
    model: true,
    firstLine: 'build: 6428 (a1b2c3d4) with cc (GCC) 13.2.0 for x86_64-linux-gnu',
    readyLine: 'main: server is listening on http://127.0.0.1:8080 - starting the main loop'
  },
  {
    title: 'refused 2–6 s, then model listed but /health 503 for 3 s (warm-up), then ready (SGLang)',
    engine: 'sglang',
    answeringMs: 3_000,
    path: '/health',
    model: false,
    firstLine: "[2026-12-01 11:00:00] server_args=ServerArgs(model_path='/shared/kimi-k2.5-int4')",
    readyLine: '[2026-12-01 11:00:03] The server is fired up and ready to roll!'
  }
]

const scratch = join(root, 'node_modules', '.cache', 'wait-for-model-bench', `run-${process.pid}`)

/** Detection lag: the simulated server becomes ready; how long until each tool exits? */
async function lagScenario(shape: Shape): Promise<void> {
  const rows = TOOLS.map(() => ({ lags: [] as number[], requests: [] as number[], rss: [] as number[] }))
  mkdirSync(scratch, { recursive: true })
  const historyFile = join(scratch, 'history.jsonl')
  // run 0 only fills the history (the row "history of earlier runs"): it is not counted
  for (let run = 0; run <= RUNS; run++) {
    // every tool gets its own server, all running at once; each draws its own refused time, so that their
    // ready moments (when the measured work happens) rarely coincide on this 2-core machine
    await Promise.all(
      TOOLS.map(async (tool, i) => {
        const opensAfterMs = 2_000 + Math.random() * 4_000
        const logFile = join(scratch, `server-${i}.log`)
        writeFileSync(logFile, tool.readsLog ? `${shape.firstLine}\n` : '')
        const server = await simulate({
          engine: shape.engine,
          model: MODEL,
          loadMs: opensAfterMs + shape.answeringMs,
          opensAfterMs,
          // the engine prints its ready line as it becomes ready
          onEvent: (event) =>
            void (event === 'ready' && tool.readsLog && appendFileSync(logFile, `${shape.readyLine}\n`))
        })
        const child = tool.start(`${server.baseUrl}${shape.path}`, { shape, logFile, historyFile })
        const peak = trackPeakRss(child)
        const exitAt = await exited(child)
        // the simulator keeps epoch time; convert the exit to the same scale
        const lag = Date.now() - (performance.now() - exitAt) - server.readyAt
        if (run > 0) {
          rows[i].lags.push(lag)
          rows[i].requests.push(server.requests)
          rows[i].rss.push(peak())
        }
        await server.close()
      })
    )
    process.stderr.write(`  ${shape.title}: ${run === 0 ? 'warm-up run' : `run ${run}/${RUNS}`}\n`)
  }
  rmSync(scratch, { recursive: true, force: true })
  console.log(`\n### Detection lag: ${shape.title} (${RUNS} runs)\n`)
  console.log('| tool | median lag | worst lag | HTTP requests to the server (median) | peak RSS |')
  console.log('|---|---:|---:|---:|---:|')
  TOOLS.forEach((tool, i) => {
    const r = rows[i]
    console.log(
      `| ${tool.name} | ${fmtMs(median(r.lags))} | ${fmtMs(Math.max(...r.lags))} | ${median(r.requests)} | ${Math.max(...r.rss).toFixed(0)} MB |`
    )
  })
}

/** How a server behaves while it loads, for the long-load rows: which engine, and when its port opens. */
const LOAD_SHAPES: Array<{ title: string; engine: EngineName; opensAfterMs?: (loadMs: number) => number }> = [
  { title: 'refused until ready (vLLM)', engine: 'vllm' },
  { title: '503 `Loading model` (a generic OpenAI server)', engine: 'openai', opensAfterMs: () => 300 },
  { title: 'listed with `meta: null`, `/health` 503 (llama.cpp)', engine: 'llamacpp' },
  { title: 'listed, `/health` 503 through the warm-up (SGLang)', engine: 'sglang', opensAfterMs: () => 300 }
]

/**
 * Long loads: the action with the URL alone (no log, no history) against each shape loading for 2 s, 30 s and
 * 5 minutes. The lag must not grow with the load: readiness is seen within the cheap probes' gap whatever its length.
 */
async function longLoads(): Promise<void> {
  const rows: string[] = []
  for (const loadS of LONG_LOADS_S) {
    const loadMs = loadS * 1000
    const results = LOAD_SHAPES.map(() => ({ lags: [] as number[], requests: [] as number[] }))
    process.stderr.write(`  long loads: ${LOAD_SHAPES.length * LONG_RUNS} servers loading for ${loadS} s at once\n`)
    await Promise.all(
      LOAD_SHAPES.flatMap((shape, i) =>
        Array.from({ length: LONG_RUNS }, async (_, run) => {
          // spread the ready moments, so that the measured work rarely coincides on a small machine
          const jitterMs = (run / LONG_RUNS) * 1_000
          const server = await simulate({
            engine: shape.engine,
            model: MODEL,
            loadMs: loadMs + jitterMs,
            opensAfterMs: shape.opensAfterMs?.(loadMs)
          })
          const child = spawn(NODE, [action], {
            env: {
              ...BASE_ENV,
              INPUT_URL: `${server.baseUrl}/v1/models`,
              INPUT_MODEL: MODEL,
              INPUT_TIMEOUT: `${loadS * 2 + 60}s`
            },
            stdio: 'ignore'
          })
          const exitAt = await exited(child)
          results[i].lags.push(Date.now() - (performance.now() - exitAt) - server.readyAt)
          results[i].requests.push(server.requests)
          await server.close()
        })
      )
    )
    LOAD_SHAPES.forEach((shape, i) => {
      const r = results[i]
      rows.push(
        `| ${shape.title} | ${fmtMs(loadMs)} | ${fmtMs(median(r.lags))} | ${fmtMs(Math.max(...r.lags))} | ${median(r.requests)} |`
      )
    })
  }
  console.log(
    `\n### Detection lag by length of load: the URL alone (${LONG_RUNS} runs a row, all of one length at once)\n`
  )
  console.log("Target: within 300 ms median and 600 ms worst, whatever the load's length and shape.\n")
  console.log('| shape | load | median lag | worst lag | HTTP requests to the server (median) |')
  console.log('|---|---:|---:|---:|---:|')
  for (const row of rows) console.log(row)
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
  const tools = [...TOOLS.filter((t) => !t.variant), FLOOR]
  const firsts = tools.map(() => [] as number[])
  for (let run = 0; run < STARTUP_RUNS; run++) {
    const t0 = performance.now()
    empty.push((await exited(spawn(NODE, ['-e', ''], { env: BASE_ENV, stdio: 'ignore' }))) - t0)
    for (const [i, tool] of tools.entries()) {
      firstRequestAt = 0
      const started = performance.now()
      await exited(tool.start(url))
      firsts[i].push(firstRequestAt - started)
    }
  }
  server.close()
  const base = median(empty)
  console.log(`\n### Start-up: spawn to first request (${STARTUP_RUNS} runs, median)\n`)
  const envNote = args.includes('--bare-env')
    ? 'PATH only'
    : `this machine's${process.env.NODE_EXTRA_CA_CERTS ? ', with NODE_EXTRA_CA_CERTS' : ''}`
  console.log(`Empty \`node -e ''\`: ${fmtMs(base)} (Node ${nodeVersion}; environment: ${envNote}).\n`)
  const floor = median(firsts[tools.indexOf(FLOOR)])
  console.log("| tool | spawn → first request | ratio to `node -e ''` | ratio to the floor |")
  console.log('|---|---:|---:|---:|')
  tools.forEach((tool, i) =>
    console.log(
      `| ${tool.name} | ${fmtMs(median(firsts[i]))} | ${(median(firsts[i]) / base).toFixed(2)}× | ${(median(firsts[i]) / floor).toFixed(2)}× |`
    )
  )
  // the guard: the action's own start-up adds little to the HTTP client's
  const own = tools.findIndex((tool) => tool.name === 'wait-for-model (defaults)')
  if (own >= 0) {
    const ratio = median(firsts[own]) / floor
    console.log(
      `\nTarget: the action's first request within ${STARTUP_TARGET.toFixed(2)}× the floor: ${ratio.toFixed(2)}×, ${ratio <= STARTUP_TARGET ? 'met' : '**not met**'}.`
    )
  }
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

/**
 * The smoke test's accuracy: the action (`smoke-test: true`, 3 requests of 64 tokens) against the simulator streaming
 * at a set pace, each engine's own format; what it measures against what was set.
 */
async function smokeAccuracy(): Promise<void> {
  const TTFT_MS = 300
  const cases: Array<{ engine: EngineName; label: string; path: string; rate: number }> = [
    { engine: 'vllm', label: 'vLLM (OpenAI SSE, usage)', path: '/v1/models', rate: 20 },
    { engine: 'vllm', label: 'vLLM (OpenAI SSE, usage)', path: '/v1/models', rate: 50 },
    { engine: 'vllm', label: 'vLLM (OpenAI SSE, usage)', path: '/v1/models', rate: 200 },
    { engine: 'tgi', label: 'TGI (/generate_stream, details)', path: '/info', rate: 50 },
    { engine: 'ollama', label: 'Ollama (NDJSON, eval_count)', path: '/api/tags', rate: 50 },
    { engine: 'llamacpp', label: 'llama.cpp (/completion, timings)', path: '/v1/models', rate: 50 }
  ]
  console.log(
    `\n### Smoke test accuracy (3 requests of 64 tokens each, TTFT set to ${TTFT_MS} ms; ${SMOKE_RUNS} runs each)\n`
  )
  console.log(
    '| engine, stream | rate set | decode measured (median) | decode error: median, worst | TTFT measured (median) | TTFT error: median, worst |'
  )
  console.log('|---|---:|---:|---:|---:|---:|')
  for (const c of cases) {
    const server = await simulate({
      engine: c.engine,
      model: 'qwen3:latest',
      loadMs: 0,
      pace: { tokensPerSecond: c.rate, ttftMs: TTFT_MS }
    })
    const rates: number[] = []
    const ttfts: number[] = []
    for (let i = 0; i < SMOKE_RUNS; i++) {
      const run = await runAction({
        entry: action,
        node: NODE,
        inputs: {
          url: `${server.baseUrl}${c.path}`,
          model: 'qwen3',
          'smoke-test': 'fail-on-error',
          'history-file': '',
          ...(c.engine === 'llamacpp' ? { engine: 'llama.cpp' } : {})
        },
        env: BASE_ENV as Record<string, string>
      })
      if (run.code !== 0) throw new Error(`smoke bench: the action failed: ${run.stdout.slice(-2000)}`)
      rates.push(Number(run.outputs['decode-tokens-per-second']))
      ttfts.push(Number(run.outputs['ttft-ms']))
    }
    await server.close()
    const rateErrors = rates.map((r) => ((r - c.rate) / c.rate) * 100)
    const ttftErrors = ttfts.map((t) => t - TTFT_MS)
    const worst = (xs: number[]): number => xs.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a), 0)
    const signed = (x: number, digits: number, unit: string): string =>
      `${x >= 0 ? '+' : ''}${x.toFixed(digits)}${unit}`
    console.log(
      `| ${c.label} | ${c.rate} tokens/s | ${median(rates).toFixed(1)} tokens/s | ${signed(median(rateErrors), 2, '%')}, ${signed(worst(rateErrors), 2, '%')} | ` +
        `${median(ttfts).toFixed(0)} ms | ${signed(median(ttftErrors), 0, ' ms')}, ${signed(worst(ttftErrors), 0, ' ms')} |`
    )
  }
  console.log(
    "\nThe simulator sends token i at TTFT + i / rate from the request's arrival (an absolute schedule); the action " +
      'measures from before its request leaves to the first token, and from the first token to the last.'
  )
}

console.log(
  `# wait-for-model benchmark\n\n${new Date().toISOString()}, Node ${nodeVersion}, ${(await import('node:os')).cpus().length} cores`
)
if (ONLY.includes('startup')) await startup()
if (ONLY.includes('lag')) for (const shape of SHAPES) await lagScenario(shape)
if (ONLY.includes('idle')) await idle()
if (ONLY.includes('long')) await longLoads()
if (ONLY.includes('fleet')) await fleet()
if (ONLY.includes('bounds')) await boundsBench({ action, node: NODE, env: BASE_ENV, runs: Math.min(RUNS, 5) })
if (ONLY.includes('smoke')) await smokeAccuracy()
if (ONLY.includes('remote')) await remoteBench({ action, node: NODE, env: BASE_ENV, runs: REMOTE_RUNS })
if (ONLY.includes('llamacpp')) {
  // a 1 GiB model: in the temporary directory, not beside the bench's small files
  const dir = mkdtempSync(join((await import('node:os')).tmpdir(), 'wait-for-model-llamacpp-'))
  // the checkout npm runs the bench in (`root` is where the bundle's node_modules really is: another checkout's
  // where node_modules is a link to it)
  const here = process.cwd()
  await llamacppBench({
    runs: RUNS,
    root: here,
    scratch: dir,
    entry: join(here, 'dist', 'index.js'),
    node: NODE,
    serverArgs: arg('llamacpp-args', '').split(' ').filter(Boolean),
    modelFile: args.includes('--llamacpp-model') ? arg('llamacpp-model', '') : undefined
  }).finally(() => rmSync(dir, { recursive: true, force: true }))
}
