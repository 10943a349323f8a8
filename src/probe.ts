/** One probe: a single GET with a hard time limit and a cap on how much of the body is read. */
import { Agent, request } from 'undici'
import { formatDuration } from './time.js'

/** Enough for any model list; a larger body is cut here so that a hostile server cannot flood memory. */
export const BODY_CAP_BYTES = 1024 * 1024

export type ProbeResult =
  | { kind: 'http'; status: number; contentType: string; body: string; truncated: boolean }
  | { kind: 'error'; code: string; message: string; status?: number }

export interface Prober {
  /** Sends one GET that settles within `timeoutMs`, whatever the server does, or at once when `signal` aborts. */
  probe(timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult>
  close(): Promise<void>
}

export interface ProbeOptions {
  url: URL
  headers: Record<string, string>
}

export function createProber({ url, headers }: ProbeOptions): Prober {
  const client = createHttpClient()
  return {
    probe: (timeoutMs, signal) => client.send({ url, method: 'GET', headers }, timeoutMs, signal),
    close: () => client.close()
  }
}

export interface HttpRequest {
  url: URL
  method: 'GET' | 'POST'
  headers: Record<string, string>
  /** Sent as JSON. */
  json?: unknown
}

export interface HttpClient {
  send(request: HttpRequest, timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult>
  close(): Promise<void>
}

/** One exchange at a time with a hard time limit and a capped body: shared by the probe and the generation check. */
export function createHttpClient(): HttpClient {
  // Our own AbortSignal bounds each request; undici's timeouts are left wide so they never fire first.
  const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0 })
  return {
    async send({ url, method, headers, json }, timeoutMs, signal) {
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(new ProbeTimeout(timeoutMs)), Math.max(1, timeoutMs))
      const onStop = (): void => controller.abort(new ProbeStopped())
      if (signal?.aborted) onStop()
      else signal?.addEventListener('abort', onStop, { once: true })
      let status: number | undefined
      try {
        // `reset` closes the connection after each request: a kept-alive socket the server has just
        // dropped would otherwise read as a reset, and each probe should test that connections are accepted.
        const res = await request(url, {
          method,
          headers: {
            'user-agent': 'wait-for-model',
            accept: 'application/json, */*;q=0.5',
            ...(json === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers
          },
          body: json === undefined ? undefined : JSON.stringify(json),
          dispatcher: agent,
          signal: controller.signal,
          reset: true
        })
        status = res.statusCode
        const { text, truncated } = await readCapped(res.body)
        const contentType = String(res.headers['content-type'] ?? '')
        return { kind: 'http', status, contentType, body: text, truncated }
      } catch (e) {
        return { ...describeError(controller.signal.aborted ? controller.signal.reason : e), status }
      } finally {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onStop)
      }
    },
    close: () => agent.destroy()
  }
}

/** The wait was told to stop (the server exited, a log line matched, the job was cancelled). */
class ProbeStopped extends Error {
  readonly code = 'STOPPED'
  constructor() {
    super('stopped')
  }
}

class ProbeTimeout extends Error {
  readonly code = 'TIMEOUT'
  constructor(readonly ms: number) {
    super(`no answer within ${formatDuration(ms)}`)
  }
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    if (size + chunk.length > BODY_CAP_BYTES) {
      chunks.push(chunk.subarray(0, BODY_CAP_BYTES - size))
      body.destroy()
      return { text: decode(chunks), truncated: true }
    }
    chunks.push(chunk)
    size += chunk.length
  }
  return { text: decode(chunks), truncated: false }
}

const decode = (chunks: Buffer[]): string => new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks))

/** Reduces whatever undici or the socket threw to a stable code and its message. */
function describeError(e: unknown): { kind: 'error'; code: string; message: string } {
  let err = e as { code?: string; message?: string; cause?: unknown } | undefined
  // undici wraps socket and TLS errors; the innermost coded error is the informative one.
  while (err?.cause && typeof (err.cause as { code?: unknown }).code === 'string') err = err.cause as typeof err
  if (err && Array.isArray((err as { errors?: unknown }).errors)) {
    // happy-eyeballs (localhost → ::1 and 127.0.0.1) reports an AggregateError of both attempts
    const inner = (err as unknown as AggregateError).errors.find((x: { code?: string }) => x?.code) as typeof err
    if (inner) err = inner
  }
  return { kind: 'error', code: err?.code ?? 'UNKNOWN', message: err?.message ?? String(e) }
}
