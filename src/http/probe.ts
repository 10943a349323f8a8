/**
 * One probe: a GET (up to 5 redirects) with a hard time limit and a capped body, through the environment's proxy
 * except for loopback. Its HTTP client also sends the generation check and the smoke test.
 */
import type { Dispatcher } from 'undici'
import { Agent, Client, ProxyAgent, request } from './undici-parts.js'
import { createLookup, proxyFor, proxyLabel } from './hosts.js'
import { type BodyCollector, createBodyCollector } from '../runtime/memory.js'
import { parseRetryAfter } from '../inputs/parse.js'
import { isCredentialName, redact } from '../inputs/secrets.js'
import { formatDuration } from '../runtime/clock.js'

/** Enough for any model list; a larger body is cut here so that a hostile server cannot flood memory. */
export const BODY_CAP_BYTES = 1024 * 1024
export const MAX_REDIRECTS = 5
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

export type ProbeResult =
  | {
      kind: 'http'
      status: number
      contentType: string
      body: string
      /** Parsed once for every reader; undefined when it is not JSON. */
      json: unknown
      truncated: boolean
      /** How long a 429 or 503 asks the client to wait, from its `Retry-After` header. */
      retryAfterMs?: number
      redirectedTo?: string
      /** The response's header names, lowercase (no values): an engine's own header names it. */
      headerNames?: readonly string[]
    }
  | {
      kind: 'error'
      code: string
      message: string
      status?: number
      /** The proxy the request went through (scheme, host and port), when the error may be the proxy's. */
      proxy?: string
      redirectedTo?: string
    }

export interface Prober {
  /** Settles within `timeoutMs` whatever the server does, or at once when `signal` aborts. */
  probe(timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult>
  close(): Promise<void>
}

export interface ProbeOptions {
  url: URL
  headers: Record<string, string>
  /** Added to Node's built-in ones. */
  caCert?: string
  insecureTls?: boolean
  /** Masked as they arrive, before anything cuts them: a cut through a key leaves a prefix no redaction knows. */
  secrets?: readonly string[]
  /** Shared by the clients of one wait. */
  collector?: BodyCollector
}

export function createProber({ url, headers, ...options }: ProbeOptions): Prober {
  const client = createHttpClient(options)
  return {
    probe: (timeoutMs, signal) => client.send({ url, method: 'GET', headers }, timeoutMs, signal),
    close: () => client.close()
  }
}

interface HttpRequest {
  url: URL
  method: 'GET' | 'POST'
  headers: Record<string, string>
  json?: unknown
  /** A 2xx body chunk by chunk (`body` then empty) until `stream` returns false; other statuses are read as usual. */
  stream?(chunk: Buffer): boolean
}

export interface HttpClient {
  send(request: HttpRequest, timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult>
  close(): Promise<void>
}

/**
 * Replaced whole when an exchange is cut short: undici cannot cancel a request waiting for its connection (a SYN
 * nobody answers, a stalled TLS handshake) and retries a closed tunnel for ever, so what was in flight is destroyed.
 */
interface Connections {
  direct: Dispatcher
  proxies: Map<string, Dispatcher>
}

export function createHttpClient({
  caCert,
  insecureTls,
  secrets = [],
  collector = createBodyCollector(),
  env = process.env
}: Omit<ProbeOptions, 'url' | 'headers'> & { env?: NodeJS.ProcessEnv } = {}): HttpClient {
  // node:tls is loaded only here: a plain http:// wait never needs it, nor its memory.
  const ca = caCert === undefined ? {} : { ca: [...process.getBuiltinModule('node:tls').rootCertificates, caCert] }
  const tls = { ...ca, ...(insecureTls ? { rejectUnauthorized: false } : {}) }
  // Our own AbortSignal bounds each request; undici's timeouts are left wide so they never fire first.
  const limits = { headersTimeout: 0, bodyTimeout: 0 }
  const lookupHost = createLookup()
  const connections = (): Connections => ({
    direct: new Agent({ ...limits, connect: { ...tls, lookup: lookupHost, autoSelectFamily: true } }),
    proxies: new Map()
  })
  let live = connections()
  const viaProxy = (proxy: URL): Dispatcher => {
    let agent = live.proxies.get(proxy.href)
    if (agent === undefined) {
      agent = new ProxyAgent({
        ...limits,
        uri: proxy.href,
        // As curl: an http:// URL is sent to the proxy in absolute form; only https:// is tunnelled (CONNECT).
        proxyTunnel: false,
        proxyTls: { ...tls, lookup: lookupHost },
        requestTls: tls,
        factory: (origin: string | URL, options: object) => new Client(origin, withFinalConnectErrors(options))
      })
      live.proxies.set(proxy.href, agent)
    }
    return agent
  }
  const discard = (old: Connections): void => {
    for (const d of [old.direct, ...old.proxies.values()]) void d.destroy().catch(() => undefined)
  }

  return {
    async send({ url, method, headers, json, stream }, timeoutMs, signal) {
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(new ProbeTimeout(timeoutMs)), Math.max(1, timeoutMs))
      const onStop = (): void => controller.abort(new ProbeStopped())
      if (signal?.aborted) onStop()
      else signal?.addEventListener('abort', onStop, { once: true })
      // Settles the moment the exchange is cut short, in whatever state it is (connecting included).
      let onCut = (): void => undefined
      const cut = new Promise<never>((_resolve, reject) => {
        onCut = () => reject(controller.signal.reason)
        controller.signal.addEventListener('abort', onCut, { once: true })
      })
      let status: number | undefined
      let target = url
      let proxy: URL | undefined
      let sent: Record<string, string> = {
        'user-agent': 'wait-for-model',
        accept: 'application/json, */*;q=0.5',
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers
      }
      const exchange = async (): Promise<ProbeResult> => {
        for (let hop = 0; ; hop++) {
          proxy = proxyFor(target, env)
          // `reset` closes the connection after each request: a kept-alive socket the server has just
          // dropped would otherwise read as a reset, and each probe should test that connections are accepted.
          const res = await request(proxy === undefined ? live.direct : viaProxy(proxy), {
            origin: target.origin,
            path: `${target.pathname}${target.search}`,
            method,
            headers: sent,
            body: json === undefined ? undefined : JSON.stringify(json),
            signal: controller.signal,
            reset: true
          })
          status = res.statusCode
          const location = [res.headers.location].flat()[0]
          // Only a GET is followed: a generation request that is redirected reports the redirect.
          if (method === 'GET' && REDIRECT_STATUSES.has(status) && location !== undefined) {
            await res.body.dump()
            if (hop === MAX_REDIRECTS)
              return {
                kind: 'error',
                code: 'TOO_MANY_REDIRECTS',
                message: `more than ${MAX_REDIRECTS} redirects`,
                status
              }
            const next = new URL(location, target)
            if (next.protocol !== 'http:' && next.protocol !== 'https:') {
              return { kind: 'error', code: 'BAD_REDIRECT', message: `redirected to a ${next.protocol} URL`, status }
            }
            // Credentials are for the origin they were configured for, like a browser's fetch does.
            if (next.origin !== target.origin) sent = withoutCredentials(sent)
            target = next
            continue
          }
          const contentType = String(res.headers['content-type'] ?? '')
          if (stream !== undefined && status >= 200 && status < 300) {
            let streamed = 0
            for await (const chunk of res.body as AsyncIterable<Buffer>) {
              streamed += chunk.length
              if (stream(chunk)) continue
              res.body.destroy()
              break
            }
            collector.arrived(streamed)
            return { kind: 'http', status, contentType, body: '', json: undefined, truncated: false }
          }
          const { text: raw, truncated } = await readCapped(res.body)
          collector.arrived(raw.length)
          const text = secrets.length === 0 ? raw : redact(raw, secrets)
          const retryAfter = [res.headers['retry-after']].flat()[0]
          return {
            kind: 'http',
            status,
            contentType,
            body: text,
            json: parseJson(text),
            truncated,
            headerNames: Object.keys(res.headers),
            ...((status === 429 || status === 503) && retryAfter !== undefined
              ? { retryAfterMs: parseRetryAfter(retryAfter, Date.now()) }
              : {}),
            ...(target === url ? {} : { redirectedTo: target.href })
          }
        }
      }
      const inFlight = exchange()
      try {
        return await Promise.race([inFlight, cut])
      } catch (e) {
        const error = describeError(controller.signal.aborted ? controller.signal.reason : e, proxy)
        // Headers over undici's limit leave as much garbage behind as a body near the cap would, but no body
        // arrived to count: counted as one, so that the next one collects.
        if (error.code === 'UND_ERR_HEADERS_OVERFLOW') collector.arrived(OVERFLOWED_HEADERS_BYTES)
        return {
          ...error,
          message: redact(error.message, secrets),
          status,
          ...(target === url ? {} : { redirectedTo: target.href })
        }
      } finally {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onStop)
        controller.signal.removeEventListener('abort', onCut)
        if (controller.signal.aborted) {
          // What was cut short may still be connecting or retrying: end it, and start the next exchange afresh.
          inFlight.catch(() => undefined)
          discard(live)
          live = connections()
        }
      }
    },
    close: async () => {
      discard(live)
    }
  }
}

/** undici retries a connection that fails with `UND_ERR_SOCKET` at once: a proxy closing after CONNECT would loop. */
function withFinalConnectErrors(options: object): object {
  const { connect } = options as { connect?: unknown }
  if (typeof connect !== 'function') return options
  type Callback = (err: (Error & { code?: string }) | null, socket: unknown) => void
  return {
    ...options,
    connect: (opts: object, callback: Callback) =>
      connect(opts, (err: (Error & { code?: string }) | null, socket: unknown) =>
        callback(
          err?.code === 'UND_ERR_SOCKET'
            ? Object.assign(new Error(`the proxy closed the connection (${err.message})`), { code: 'PROXY_CLOSED' })
            : err,
          socket
        )
      )
  }
}

const withoutCredentials = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !isCredentialName(name)))

const OVERFLOWED_HEADERS_BYTES = 1024 * 1024

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

async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(): void }
): Promise<{ text: string; truncated: boolean }> {
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

/** No model list nests deeper; JSON.parse of a 1 MiB `[[[…]]]` builds half a million arrays. */
const MAX_JSON_DEPTH = 64

export function parseJson(text: string): unknown {
  const first = /\S/.exec(text.slice(0, 4096))?.[0]
  if ((first !== '{' && first !== '[') || nestsDeeperThan(text, MAX_JSON_DEPTH)) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return false
}

/** Errors of the connection itself: through a proxy, they are the proxy's (it connects to the server). */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT'
])

function describeError(e: unknown, proxy?: URL): { kind: 'error'; code: string; message: string; proxy?: string } {
  let err = e as { code?: string; message?: string; cause?: unknown } | undefined
  // undici wraps socket and TLS errors; the innermost coded error is the informative one.
  while (err?.cause && typeof (err.cause as { code?: unknown }).code === 'string') err = err.cause as typeof err
  if (err && Array.isArray((err as { errors?: unknown }).errors)) {
    // happy-eyeballs (localhost → ::1 and 127.0.0.1) reports an AggregateError of both attempts
    const inner = (err as unknown as AggregateError).errors.find((x: { code?: string }) => x?.code) as typeof err
    if (inner) err = inner
  }
  const code = err?.code ?? 'UNKNOWN'
  const message = err?.message ?? String(e)
  if (proxy === undefined || code === 'TIMEOUT' || code === 'STOPPED') return { kind: 'error', code, message }
  // `PROXY_` keeps a refused proxy from reading as a refused server (nor waking the server's port watch).
  const proxied = CONNECT_CODES.has(code) ? `PROXY_${code}` : code
  return { kind: 'error', code: proxied, message, proxy: proxyLabel(proxy) }
}
