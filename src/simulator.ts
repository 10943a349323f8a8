/**
 * A stand-in for a model server's startup, faithful to each engine's own answers (see the research notes on
 * model servers): the port stays closed while the engine does, then the engine's loading answers, then ready.
 * Serves `npm run demo` and the project's own test fixtures.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createNetServer } from 'node:net'

export type Phase = 'loading' | 'ready'
interface Reply {
  status: number
  /** An object is sent as compact JSON; a string as it is. */
  body?: unknown
  type?: string
}

export interface SimulatedEngine {
  /** When the port opens, as a fraction of the load time: 1 = only once ready. */
  opensAt: number
  reply(path: string, phase: Phase, model: string): Reply | undefined
}

const json = (body: unknown, status = 200): Reply => ({ status, body, type: 'application/json' })
const empty = (status: number): Reply => ({ status })
const openAiList = (model: string, ownedBy: string, extra: Record<string, unknown> = {}): Reply =>
  json({ object: 'list', data: [{ id: model, object: 'model', created: 1767225600, owned_by: ownedBy, root: model, ...extra }] })

export const SIMULATED_ENGINES = {
  // vLLM binds its socket without listening until the engine is built: refused for the whole load.
  vllm: {
    opensAt: 1,
    reply: (path, _phase, model) =>
      path === '/health' ? empty(200) : path === '/v1/models' ? openAiList(model, 'vllm', { max_model_len: 262144 }) : undefined
  },
  // SGLang opens the port for its warm-up request: /health says 503 while /v1/models already lists.
  sglang: {
    opensAt: 0.9,
    reply: (path, phase, model) =>
      path === '/health' || path === '/health_generate'
        ? empty(phase === 'ready' ? 200 : 503)
        : path === '/v1/models'
          ? openAiList(model, 'sglang', { max_model_len: 262144 })
          : undefined
  },
  // llama.cpp serves HTTP before loading; /v1/models lists the model with "meta": null until it is loaded.
  llamacpp: {
    opensAt: 0,
    reply(path, phase, model) {
      if (path === '/v1/models' || path === '/models') {
        const meta = phase === 'ready' ? { vocab_type: 2, n_vocab: 151936, n_ctx_train: 262144 } : null
        return json({ models: [{ name: model, model }], object: 'list', data: [{ id: model, object: 'model', created: 1767225600, owned_by: 'llamacpp', meta }] })
      }
      if (phase === 'loading') {
        return path === '/'
          ? { status: 503, body: '<html><head><title>Loading model</title></head></html>', type: 'text/html' }
          : json({ error: { message: 'Loading model', type: 'unavailable_error', code: 503 } }, 503)
      }
      return path === '/health' ? json({ status: 'ok' }) : undefined
    }
  },
  // TGI binds only after warm-up.
  tgi: {
    opensAt: 1,
    reply: (path, _phase, model) =>
      path === '/health'
        ? empty(200)
        : path === '/info'
          ? json({ model_id: model, model_sha: null, max_input_tokens: 4095, max_total_tokens: 4096, router: 'text-generation-router', version: '3.3.6' })
          : path === '/v1/models'
            ? json({ object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: model }] })
            : undefined
  },
  // Ollama answers at once and lists a model only once it is pulled.
  ollama: {
    opensAt: 0,
    reply(path, phase, model) {
      const ready = phase === 'ready'
      if (path === '/') return { status: 200, body: 'Ollama is running', type: 'text/plain' }
      if (path === '/api/tags') return json({ models: ready ? [{ name: model, model, size: 2019393189 }] : [] })
      if (path === '/v1/models') {
        return json({ object: 'list', data: ready ? [{ id: model, object: 'model', created: 1767225600, owned_by: 'library' }] : null })
      }
      return undefined
    }
  },
  // Triton loads its startup models before it opens any endpoint.
  triton: {
    opensAt: 1,
    reply(path, _phase, model) {
      if (path === '/v2/health/ready' || path === '/v2/health/live') return empty(200)
      if (path === `/v2/models/${model}/ready`) return empty(200)
      if (path === `/v2/models/${model}`) return json({ name: model, versions: ['1'], platform: 'onnxruntime_onnx', inputs: [], outputs: [] })
      return undefined
    }
  },
  // A generic OpenAI-compatible server: refused, then 503 "Loading model" everywhere, then the list.
  openai: {
    opensAt: 0.4,
    reply(path, phase, model) {
      if (phase === 'loading') return json({ error: { message: 'Loading model', type: 'unavailable_error', code: 503 } }, 503)
      return path === '/health' ? empty(200) : path === '/v1/models' ? openAiList(model, 'system') : undefined
    }
  }
} satisfies Record<string, SimulatedEngine>

export type EngineName = keyof typeof SIMULATED_ENGINES

export interface SimulatorOptions {
  engine: EngineName
  model: string
  loadMs: number
  /** 0 picks a free port. */
  port?: number
  host?: string
}

export interface SimulatedServer {
  port: number
  baseUrl: string
  /** Milliseconds since the epoch at which the engine counts as ready. */
  readyAt: number
  close(): Promise<void>
}

/** Starts the simulated startup now: the port opens at `opensAt × loadMs`, the model is ready at `loadMs`. */
export async function simulate(options: SimulatorOptions): Promise<SimulatedServer> {
  const engine: SimulatedEngine = SIMULATED_ENGINES[options.engine]
  const host = options.host ?? '127.0.0.1'
  const port = options.port || (await freePort(host))
  const startedAt = Date.now()
  const readyAt = startedAt + options.loadMs
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const phase: Phase = Date.now() >= readyAt ? 'ready' : 'loading'
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const reply = engine.reply(path, phase, options.model) ?? json({ detail: 'Not Found' }, 404)
    const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
    res.writeHead(reply.status, reply.type ? { 'content-type': reply.type } : {})
    res.end(body)
  })
  let closed = false
  const listen = (): void => {
    if (!closed) server.listen(port, host)
  }
  const opensInMs = engine.opensAt * options.loadMs
  // An engine that serves from the start is listening before this returns, so no probe sees it refuse.
  let timer: NodeJS.Timeout | undefined
  if (opensInMs <= 0) await new Promise<void>((resolve) => server.listen(port, host, resolve))
  else timer = setTimeout(listen, opensInMs)
  return {
    port,
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    readyAt,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true
        clearTimeout(timer)
        server.closeAllConnections()
        if (server.listening) server.close(() => resolve())
        else resolve()
      })
  }
}

/** Asks the kernel for a free port, then releases it for the simulated server to open later. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer()
    probe.once('error', reject)
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}
