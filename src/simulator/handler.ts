/** The simulator's answer: a lazily loaded model's routes, then a streamed generation, then the engine's own. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type EngineName, json, type Phase, type Reply, SIMULATED_ENGINES, type SimulatedEngine } from './engines.js'
import { engineStates, lazyLoading } from './states.js'
import type { SimulatorOptions } from './options.js'
import { DEFAULT_PACE, streamFormat, writeStream } from './streams.js'

/** `readyAt`: milliseconds since the epoch. */
export function answerRequests(
  options: SimulatorOptions,
  readyAt: number
): (req: IncomingMessage, res: ServerResponse) => void {
  const engine: SimulatedEngine = SIMULATED_ENGINES[options.engine]
  const lazy = options.unloaded
    ? lazyLoading(options.engine, options.model, options.loadMs, options.failsToLoad !== undefined)
    : undefined
  const states = engineStates(options, readyAt - options.loadMs)
  let loadingAnswers = 0
  const isReady = (): boolean => Date.now() >= readyAt && loadingAnswers >= (options.loadingAnswers ?? 0)
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const answer = (request?: Record<string, unknown>): void => {
      if (lazy !== undefined) {
        const reply = lazy(req.method ?? 'GET', path, request)
        if (reply !== undefined) return void Promise.resolve(reply).then((r) => send(r))
      }
      const phase: Phase = isReady() ? 'ready' : 'loading'
      if (phase === 'loading') loadingAnswers++
      const state = states(req.method ?? 'GET', path, phase)
      if (state !== undefined) return void Promise.resolve(state).then((r) => send(r))
      const format = request && phase === 'ready' ? streamFormat(options.engine, path, request) : undefined
      if (format !== undefined && request !== undefined && servesModel(options.engine, request, options.model))
        return void writeStream(
          res,
          format,
          options.model,
          request,
          options.pace ?? DEFAULT_PACE,
          options.generationFails === true
        )
      const share = Math.min(1, Math.max(0, 1 - (readyAt - Date.now()) / Math.max(1, options.loadMs)))
      const reply =
        (request && engine.generate?.(path, phase, options.model, request, options.generationFails === true, share)) ??
        engine.reply(path, phase, options.model, share) ??
        engine.notFound ??
        json({ detail: 'Not Found' }, 404)
      send(reply)
    }
    const send = (reply: Reply): void => {
      const body =
        reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
      res.writeHead(reply.status, { ...reply.headers, ...(reply.type ? { 'content-type': reply.type } : {}) })
      res.end(body)
    }
    if (req.method !== 'POST') return answer()
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      // a generation request is a few hundred bytes; more is not kept
      if ((size += c.length) <= 64 * 1024) chunks.push(c)
    })
    req.on('end', () => answer(parseObject(Buffer.concat(chunks).toString('utf8'))))
  }
}

/** Whether a generation request names the model the engine serves (TGI serves its one model, whatever is named). */
function servesModel(engine: EngineName, request: Record<string, unknown>, model: string): boolean {
  const name = request.model
  if (engine === 'tgi' || (engine === 'llamacpp' && name === undefined)) return true
  // Ollama resolves a bare name to its :latest tag
  if (engine === 'ollama') return name === model || `${String(name)}:latest` === model
  return name === model
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
