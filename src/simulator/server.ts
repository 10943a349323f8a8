/** A stand-in for a model server's startup, faithful to each engine's answers: for `npm run demo` and the tests. */
import { createServer, type Server } from 'node:http'
import { readFileSync } from 'node:fs'
import { createServer as createNetServer } from 'node:net'
import { SIMULATED_ENGINES, type SimulatedEngine } from './engines.js'
import { SIMULATED_LOGS, logLine } from './engine-logs.js'
import { answerRequests } from './handler.js'
import { headLog, simulateWorker } from './nodes.js'
import type { SimulatedServer, SimulatorEvent, SimulatorOptions } from './options.js'

/** Starts the simulated startup now: the port opens at `opensAt × loadMs`, the model is ready at `loadMs`. */
export async function simulate(options: SimulatorOptions): Promise<SimulatedServer> {
  if (options.node !== undefined && options.node.rank > 0) return simulateWorker(options, options.node)
  const engine: SimulatedEngine = SIMULATED_ENGINES[options.engine]
  const host = options.host ?? '127.0.0.1'
  // A busy port is reported now rather than when the simulated engine would open it.
  const port = await freePort(host, options.port ?? 0)
  const startedAt = Date.now()
  const readyAt = startedAt + options.loadMs
  const tell = (event: SimulatorEvent): void => options.onEvent?.(event, Date.now() - startedAt)
  let requests = 0
  const listener = answerRequests(options, readyAt)
  const server: Server = createServer((req, res) => {
    requests++
    listener(req, res)
  })
  let closed = false
  const timers: NodeJS.Timeout[] = []
  const stop = (): Promise<void> =>
    new Promise<void>((resolve) => {
      closed = true
      timers.forEach(clearTimeout)
      server.closeAllConnections()
      if (server.listening) server.close(() => resolve())
      else resolve()
    })
  const log = options.node === undefined ? SIMULATED_LOGS[options.engine] : headLog(options.engine, options.node)
  const print = (text: string): void => {
    if (!closed) {
      const at = new Date()
      options.onLog?.(
        logLine(log, text, { model: options.model, at, sinceMs: at.getTime() - startedAt, loadMs: options.loadMs })
      )
    }
  }
  const ended = new Promise<'crashed'>((resolve, reject) => {
    server.once('error', (e) => void stop().then(() => reject(e)))
    if (options.crashAfterMs !== undefined) {
      const crash = (): void => {
        log.fatal.forEach(print)
        void stop().then(() => (tell('crashed'), resolve('crashed')))
      }
      timers.push(setTimeout(crash, options.crashAfterMs))
    }
  })
  if (options.onLog) {
    // A model loaded only when asked (`unloaded`) has no start-up of its own to show: the first lines only.
    for (const [share, text] of log.lines)
      if (!options.unloaded || share === 0) timers.push(setTimeout(() => print(text), share * options.loadMs))
    const { offload } = log
    if (offload !== undefined && options.onGpu !== undefined && !options.unloaded) {
      // a model of 32 repeating layers and its output layer
      const line = offload.line(Math.round(33 * options.onGpu), 33)
      timers.push(setTimeout(() => print(line), offload.at * options.loadMs))
    }
  }
  // Callers that never crash the engine need not await this.
  ended.catch(() => undefined)
  const listen = (): void => {
    if (!closed) server.listen(port, host, () => tell('listening'))
  }
  const opensInMs = options.opensAfterMs ?? engine.opensAt * options.loadMs
  // An engine that serves from the start is listening before this returns, so no probe sees it refuse.
  if (opensInMs <= 0)
    await new Promise<void>((resolve) => server.listen(port, host, () => (tell('listening'), resolve())))
  else timers.push(setTimeout(listen, opensInMs))
  if (options.onEvent) timers.push(setTimeout(() => tell('ready'), options.loadMs))
  return {
    port,
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    readyAt,
    ended,
    get requests() {
      return requests
    },
    close: stop
  }
}

/** Checks that `port` can be opened on `host` (0: finds a free one outside the ephemeral range), then releases it. */
export async function freePort(host = '127.0.0.1', port = 0): Promise<number> {
  if (port !== 0) return takenOrFree(host, port)
  // Outside the kernel's ephemeral range: until the engine opens it, no connection can be given the port as its own
  // (a connection's port, kept a minute in TIME_WAIT once closed, would stop the engine opening it)
  const [low, high] = ephemeralRange()
  const spans = [
    [1024, low - 1],
    [high + 1, 65535]
  ].filter(([a, b]) => b - a >= 1000)
  for (let tries = 0; spans.length > 0 && tries < 50; tries++) {
    const [a, b] = spans[tries % spans.length]
    const candidate = a + Math.floor(Math.random() * (b - a + 1))
    const free = await takenOrFree(host, candidate).catch(() => undefined)
    if (free !== undefined) return free
  }
  return takenOrFree(host, 0)
}

/** The range the kernel gives connections their ports from (Linux); elsewhere, IANA's dynamic ports. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number)
    if (Number.isInteger(low) && Number.isInteger(high)) return [low, high]
  } catch {
    // not Linux
  }
  return [49152, 65535]
}

function takenOrFree(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer()
    probe.once('error', reject)
    probe.listen(port, host, () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}
