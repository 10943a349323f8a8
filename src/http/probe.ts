/**
 * One probe: a single GET (following up to 5 redirects) with a hard time limit and a cap on how much of
 * the body is read. Goes through the proxy the environment names, except for loopback addresses. The HTTP
 * client underneath also sends the generation check.
 */
import { type LookupAddress, lookup } from 'node:dns'
import type { Dispatcher } from 'undici'
import { Agent, EnvHttpProxyAgent, request } from './undici-parts.js'
import { collectGarbage } from '../runtime/memory.js'
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
      /** The body as JSON, parsed once for every reader (see `parseJson`); undefined when it is not JSON. */
      json: unknown
      truncated: boolean
      /** How long a 429 or 503 asks the client to wait, from its `Retry-After` header. */
      retryAfterMs?: number
      /** The URL that answered, when redirects led elsewhere. */
      redirectedTo?: string
    }
  | { kind: 'error'; code: string; message: string; status?: number }

export interface Prober {
  /** Sends one GET that settles within `timeoutMs`, whatever the server does, or at once when `signal` aborts. */
  probe(timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult>
  close(): Promise<void>
}

export interface ProbeOptions {
  url: URL
  headers: Record<string, string>
  /** Extra trusted CA certificates (PEM), added to Node's built-in ones. */
  caCert?: string
  /** Skip certificate checks. */
  insecureTls?: boolean
  /**
   * Masked in the body and the error message as soon as they arrive, before anything reads, quotes or cuts them
   * (a cut through a key would leave a prefix no later redaction recognises).
   */
  secrets?: readonly string[]
}

/** localhost, 127.0.0.0/8 and ::1 (as URL.hostname writes them): never sent through a proxy. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '')
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void

/**
 * `localhost` is loopback on both families whatever /etc/hosts says (RFC 6761), and model servers listen on
 * either: tried on 127.0.0.1, then ::1 (Node's happy eyeballs moves on at once from a refused one).
 */
function lookupLoopback(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  if (hostname.toLowerCase().replace(/\.$/, '') !== 'localhost')
    return void lookup(hostname, { ...options, all: options.all === true }, callback)
  const both = [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 }
  ]
  if (options.all) callback(null, both)
  else callback(null, both[0].address, both[0].family)
}

/**
 * Once bodies this large in all have arrived, they are collected before the next request rather than left for V8
 * to collect when it likes: one body near the cap, or many smaller ones (a 64 KB list on every probe), whose
 * buffers would otherwise pile up outside the heap until the next full collection.
 */
const COLLECT_AFTER_BYTES = 256 * 1024

export function createProber({ url, headers, caCert, insecureTls, secrets }: ProbeOptions): Prober {
  const client = createHttpClient({ caCert, insecureTls, secrets })
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
export function createHttpClient({
  caCert,
  insecureTls,
  secrets = []
}: Pick<ProbeOptions, 'caCert' | 'insecureTls' | 'secrets'> = {}): HttpClient {
  // node:tls is loaded only here: a plain http:// wait never needs it (nor its memory, 6 MB on Node 24).
  const ca = caCert === undefined ? {} : { ca: [...process.getBuiltinModule('node:tls').rootCertificates, caCert] }
  const tls = { ...ca, ...(insecureTls ? { rejectUnauthorized: false } : {}) }
  // Our own AbortSignal bounds each request; undici's timeouts are left wide so they never fire first.
  const limits = { headersTimeout: 0, bodyTimeout: 0 }
  const direct = new Agent({ ...limits, connect: { ...tls, lookup: lookupLoopback, autoSelectFamily: true } })
  // Made on first use, so that a loopback-only wait never reads the proxy variables.
  let viaProxy: EnvHttpProxyAgent | undefined
  const dispatcherFor = (target: URL): Dispatcher =>
    isLoopback(target.hostname)
      ? direct
      : (viaProxy ??= new EnvHttpProxyAgent({ ...limits, connect: tls, requestTls: tls }))

  let bodyBytes = 0
  return {
    async send({ url, method, headers, json }, timeoutMs, signal) {
      if (bodyBytes >= COLLECT_AFTER_BYTES) {
        collectGarbage()
        bodyBytes = 0
      }
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(new ProbeTimeout(timeoutMs)), Math.max(1, timeoutMs))
      const onStop = (): void => controller.abort(new ProbeStopped())
      if (signal?.aborted) onStop()
      else signal?.addEventListener('abort', onStop, { once: true })
      let status: number | undefined
      let target = url
      let sent: Record<string, string> = {
        'user-agent': 'wait-for-model',
        accept: 'application/json, */*;q=0.5',
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers
      }
      try {
        for (let hop = 0; ; hop++) {
          // `reset` closes the connection after each request: a kept-alive socket the server has just
          // dropped would otherwise read as a reset, and each probe should test that connections are accepted.
          const res = await request(dispatcherFor(target), {
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
          const { text: raw, truncated } = await readCapped(res.body)
          const text = secrets.length === 0 ? raw : redact(raw, secrets)
          bodyBytes += raw.length
          const retryAfter = [res.headers['retry-after']].flat()[0]
          return {
            kind: 'http',
            status,
            contentType: String(res.headers['content-type'] ?? ''),
            body: text,
            json: parseJson(text),
            truncated,
            ...((status === 429 || status === 503) && retryAfter !== undefined
              ? { retryAfterMs: parseRetryAfter(retryAfter, Date.now()) }
              : {}),
            ...(target === url ? {} : { redirectedTo: target.href })
          }
        }
      } catch (e) {
        const error = describeError(controller.signal.aborted ? controller.signal.reason : e)
        return { ...error, message: redact(error.message, secrets), status }
      } finally {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onStop)
      }
    },
    close: async () => {
      await Promise.all([direct.destroy(), viaProxy?.destroy()])
    }
  }
}

const withoutCredentials = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !isCredentialName(name)))

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

/**
 * No model list or completion nests deeper than this; a body that does is not parsed, since JSON.parse of a
 * 1 MiB `[[[…]]]` builds half a million arrays (about 150 MB).
 */
const MAX_JSON_DEPTH = 64

/** The body as JSON when it is an object or an array no deeper than MAX_JSON_DEPTH; undefined otherwise. */
export function parseJson(text: string): unknown {
  const first = /\S/.exec(text.slice(0, 4096))?.[0]
  if ((first !== '{' && first !== '[') || nestsDeeperThan(text, MAX_JSON_DEPTH)) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** One pass over the text, strings skipped: whether brackets open deeper than `max`. */
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
