/**
 * A real llama.cpp server against the action, shared by the real-engine suite (__tests__/real/llamacpp.real.test.ts)
 * and `npm run bench -- --only llamacpp`. `scripts/real-llamacpp.sh` builds the server and says where it is
 * (WAIT_FOR_MODEL_LLAMA_SERVER) and where llama.cpp's gguf-py is (WAIT_FOR_MODEL_GGUF_PY), which
 * scripts/tiny-gguf.py needs to write random-weight models.
 *
 * One run: an independent observer polls the server's /v1/models every 10 ms from before the server starts, and
 * notes when it first answers 200; the action's lag is from then to the line it prints when a probe sees the
 * model served (its wait's lag), and to its exit (with what follows the wait: the check of who holds the port, the
 * GPU reading, the outputs).
 * `with log`: the action starts the server (`start`) and follows its log; `without`: the server is started here,
 * and the action only probes its URL.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { freePort } from '../src/simulator/server.js'
import { runAction } from '../src/simulator/runner.js'

export interface RealLlamacpp {
  server: string
  ggufPy: string
}

/** The built server and gguf-py from the environment, or why they are not there. */
export function realLlamacpp(env: NodeJS.ProcessEnv = process.env): RealLlamacpp | string {
  const server = env.WAIT_FOR_MODEL_LLAMA_SERVER
  const ggufPy = env.WAIT_FOR_MODEL_GGUF_PY
  if (!server || !ggufPy)
    return 'WAIT_FOR_MODEL_LLAMA_SERVER and WAIT_FOR_MODEL_GGUF_PY are not set: eval "$(scripts/real-llamacpp.sh)" first'
  if (!existsSync(server)) return `WAIT_FOR_MODEL_LLAMA_SERVER: no file ${server}`
  if (!existsSync(join(ggufPy, 'gguf'))) return `WAIT_FOR_MODEL_GGUF_PY: no gguf package in ${ggufPy}`
  return { server, ggufPy }
}

/**
 * Writes a random-weight model (`tiny`: loads at once; `small`: in about a second; `big`: about 1 GiB; `gpu`: about
 * 9.9 GB, for a CUDA build with `-ngl 99`) with scripts/tiny-gguf.py.
 */
export function makeModel(
  real: RealLlamacpp,
  path: string,
  size: 'tiny' | 'small' | 'big' | 'gpu',
  root: string
): string {
  execFileSync('python3', [join(root, 'scripts', 'tiny-gguf.py'), path, '--size', size], {
    env: { ...process.env, GGUF_PY: real.ggufPy },
    stdio: ['ignore', 'ignore', 'inherit']
  })
  return path
}

export interface RealRun {
  ready: boolean
  reason: string
  modelId: string
  /** From the observer's first 200 to the action's line saying a probe saw the model served, in ms. */
  seenMs: number
  /** From the observer's first 200 to the action's exit (after the checks and reports that follow), in ms. */
  exitMs: number
  /** The action's `placement` output (empty where nothing told). */
  placement: string
  /** The action's `startup-seconds` (with log only). */
  startupSeconds?: number
  /** The server's own stamp on `llama_server: model loaded`, in seconds since its start. */
  loadedStampS?: number
  /** Without the log (the server started here): from its spawn to the observer's first 200, in seconds. */
  observedS?: number
  stdout: string
  /** Every output of the action, as it set them. */
  outputs: Record<string, string>
  /** The server's log, as written (empty without one). */
  log: string
}

/** `m.ss.mmm.uuu` on the line `llama_server: model loaded`, in seconds. */
export function loadedStamp(log: string): number | undefined {
  const m = /^(\d+)\.(\d\d)\.(\d{3})\.(\d{3}) I srv {2}llama_server: model loaded$/m.exec(log)
  return m ? Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) / 1e3 + Number(m[4]) / 1e6 : undefined
}

/** Polls `url` every 10 ms until it answers 200; resolves with that moment (performance.now()). */
function observe(url: string, signal: AbortSignal): Promise<number | undefined> {
  return new Promise((resolve) => {
    const once = (): void => {
      if (signal.aborted) return resolve(undefined)
      const sent = performance.now()
      const req = request(url, { timeout: 1_000 }, (res) => {
        res.resume()
        if (res.statusCode === 200) resolve(performance.now() - (performance.now() - sent) / 2)
        else setTimeout(once, 10)
      })
      req.on('error', () => setTimeout(once, 10))
      req.on('timeout', () => req.destroy())
      req.end()
    }
    once()
  })
}

/** One start of the real server, measured. */
export async function realRun({
  real,
  model,
  withLog,
  dir,
  entry,
  node = process.execPath,
  serverArgs = [],
  inputs = {},
  kill
}: {
  real: RealLlamacpp
  model: string
  withLog: boolean
  dir: string
  entry: string
  node?: string
  /** More arguments for llama-server (a CUDA build: `-ngl 99`, every layer on the GPU). */
  serverArgs?: readonly string[]
  /** More inputs for the action (`smoke-test`). */
  inputs?: Record<string, string>
  /** Given each server's process (group) id, to stop it afterwards: the caller's own processes. */
  kill(pid: number): void
}): Promise<RealRun> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/v1/models`
  const logFile = join(dir, `llama-server-${port}.log`)
  const args = [
    '-m',
    model,
    '--alias',
    'wfm-random',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '-np',
    '1',
    ...serverArgs
  ]
  const stop = new AbortController()
  const observed = observe(url, stop.signal)
  let own: number | undefined
  let spawnedAt: number | undefined
  if (!withLog) {
    const { openSync, closeSync } = await import('node:fs')
    const fd = openSync(logFile, 'wx')
    spawnedAt = performance.now()
    const child = spawn(real.server, args, { detached: true, stdio: ['ignore', fd, fd] })
    closeSync(fd)
    own = child.pid
    if (own !== undefined) kill(own)
  }
  let exitAt = 0
  let saidAt: number | undefined
  const run = await runAction({
    entry,
    node,
    inputs: {
      url,
      model: 'wfm-random',
      timeout: '2m',
      'history-file': '',
      ...(withLog ? { start: [real.server, ...args].join(' '), 'log-file': logFile } : {}),
      ...inputs
    },
    onStart: (child) => {
      child.once('exit', () => (exitAt = performance.now()))
      child.stdout?.on('data', (d: Buffer) => {
        // the change line the wait prints the moment a probe sees the model served
        if (saidAt === undefined && /^[\d.]+m?s: HTTP 200, serving /m.test(d.toString())) saidAt = performance.now()
      })
    }
  })
  // the observer has seen it by now, unless the server never served: then 5 s more, and no lag
  const late = setTimeout(() => stop.abort(), 5_000)
  const seen = await observed
  clearTimeout(late)
  stop.abort()
  if (run.outputs.pid) kill(Number(run.outputs.pid))
  const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''
  return {
    ready: run.outputs.ready === 'true',
    reason: run.outputs.reason,
    modelId: run.outputs['model-id'],
    placement: run.outputs.placement ?? '',
    seenMs: seen === undefined || saidAt === undefined ? NaN : saidAt - seen,
    exitMs: seen === undefined ? NaN : exitAt - seen,
    startupSeconds: run.outputs['startup-seconds'] ? Number(run.outputs['startup-seconds']) : undefined,
    loadedStampS: loadedStamp(log),
    observedS: seen === undefined || spawnedAt === undefined ? undefined : (seen - spawnedAt) / 1000,
    stdout: run.stdout,
    outputs: run.outputs,
    log
  }
}

/** `stop` for `realRun`: the process group of a server this process started, or the action started for it. */
export function stopGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGTERM')
  } catch {
    // gone already
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/**
 * The bench row: N runs with the log and N without, against a ~1 GiB model (a load of a second or more), or the
 * model `modelFile` (a CUDA build: `serverArgs` -ngl 99 and tiny-gguf.py's `gpu` model).
 */
export async function llamacppBench({
  runs,
  root,
  scratch,
  entry,
  node,
  serverArgs = [],
  modelFile
}: {
  runs: number
  root: string
  scratch: string
  entry: string
  node: string
  serverArgs?: readonly string[]
  modelFile?: string
}): Promise<void> {
  const real = realLlamacpp()
  const how = serverArgs.length ? `\`${serverArgs.join(' ')}\`` : 'CPU'
  const what = modelFile ? `the random-weight model ${modelFile}` : 'a random-weight ~1 GiB llama'
  console.log(`\n### A real llama.cpp server (llama-server v0.5.0, ${how}, ${what})\n`)
  if (typeof real === 'string') return console.log(`Not run: ${real}.`)
  const model = modelFile ?? makeModel(real, join(scratch, 'big.gguf'), 'big', root)
  const started: number[] = []
  const kill = (pid: number): void => void started.push(pid)
  console.log(
    '| the action | runs | lag to seen ready: median, worst | lag to exit: median, worst | startup-seconds − own stamp: median, worst | own stamp (median) | observer − own stamp (median) |'
  )
  console.log('|---|---:|---:|---:|---:|---:|---:|')
  try {
    for (const withLog of [true, false]) {
      const seen: number[] = []
      const exit: number[] = []
      const offs: number[] = []
      const stamps: number[] = []
      const observed: number[] = []
      for (let i = 0; i < runs; i++) {
        const r = await realRun({ real, model, withLog, dir: scratch, entry, node, serverArgs, kill })
        started.splice(0).forEach(stopGroup)
        if (!r.ready) throw new Error(`llamacpp bench: not ready (${r.reason}): ${r.stdout.slice(-2000)}`)
        seen.push(r.seenMs)
        exit.push(r.exitMs)
        if (r.startupSeconds !== undefined && r.loadedStampS !== undefined) offs.push(r.startupSeconds - r.loadedStampS)
        if (r.loadedStampS !== undefined) stamps.push(r.loadedStampS)
        if (r.observedS !== undefined && r.loadedStampS !== undefined) observed.push(r.observedS - r.loadedStampS)
      }
      const worst = (xs: number[]): number => xs.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a), 0)
      const s = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(2)} s`
      const ms = (xs: number[]): string => `${Math.round(median(xs))} ms, ${Math.round(Math.max(...xs))} ms`
      console.log(
        `| ${withLog ? '`start` and its log' : 'the URL alone (no log)'} | ${runs} | ${ms(seen)} | ${ms(exit)} | ` +
          `${offs.length ? `${s(median(offs))}, ${s(worst(offs))}` : '–'} | ` +
          `${stamps.length ? `${median(stamps).toFixed(2)} s` : '–'} | ` +
          `${observed.length ? `${Math.round(median(observed) * 1000)} ms` : '–'} |`
      )
    }
  } finally {
    started.forEach(stopGroup)
  }
  console.log(
    '\nLag: from the first 200 an independent observer saw (polling /v1/models every 10 ms) to the line the ' +
      'action prints when a probe sees the model served, and to its exit. `startup-seconds` has one decimal; the ' +
      "stamp is llama.cpp's own on `llama_server: model loaded` (seconds since its start); observer − own stamp: " +
      "without the log, from the server's spawn to the observer's first 200, less that stamp. " +
      'Targets: with the log, a median lag of at most 100 ms, the worst at most 200 ms, startup-seconds within 0.3 s ' +
      'of the stamp; without it, at most 300 ms and 600 ms.'
  )
}
