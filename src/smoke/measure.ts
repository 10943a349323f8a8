/**
 * The throughput smoke test: a few streamed generations one after another, each timed to its first token (TTFT) and
 * from there to its last (the decode rate), counted by the engine's own figure, else by the chunks; beside them the
 * engine's own timings where its stream carries them.
 */
import { clip, describeBody } from '../runtime/text.js'
import { createHttpClient, type ProbeResult } from '../http/probe.js'
import { type EngineTimings, readEvent, type StreamRoute, streamRoute, type TokenSource } from '../engines/streams.js'
import type { Engine } from '../engines/index.js'
import { median } from '../history/stats.js'
import type { Clock } from '../runtime/clock.js'
import { FrameReader } from './frames.js'
import type { SmokeSettings } from '../inputs/settings.js'

export interface Measurement {
  ttftMs: number
  tokens: number
  source: TokenSource
  /** Undefined when every token came at once. */
  decodeTokensPerSecond?: number
  /** The engine's own timing of this request, where its stream carries one. */
  engine?: EngineTimings
}

/** Why the smoke test could not run, or stopped before its last request: data, worded in src/report. */
export type SmokeProblem =
  | { kind: 'no-route'; why: 'no-text-generation' | 'unknown-route'; engine?: Engine; path: string }
  | { kind: 'http'; status: number; said?: string }
  | { kind: 'network'; code: string; message: string }
  | { kind: 'timeout'; timeoutMs: number }
  /** The wait's halter ended it: the job was cancelled, the server exited or wrote a fatal line. */
  | { kind: 'stopped' }
  | { kind: 'stream-error'; said: string }
  | { kind: 'too-long'; what: 'line' | 'body' }
  | { kind: 'no-tokens' }
  /** Every token of every request came in one piece: nothing to time the decoding by. */
  | { kind: 'not-streamed' }

export interface SmokeResult {
  /** E.g. `POST /v1/completions`. */
  request?: string
  requests: number
  measurements: Measurement[]
  /** Medians. */
  ttftMs?: number
  decodeTokensPerSecond?: number
  /** The last request's. */
  source?: TokenSource
  /** The medians of the engine's own timings, of the requests whose stream carried them. */
  engine?: EngineTimings & { requests: number }
  problem?: SmokeProblem
}

export interface SmokeTarget {
  url: URL
  engine: Engine | undefined
  /** The listed id the wait matched. */
  model: string | undefined
  headers: Record<string, string>
  caCert?: string
  insecureTls?: boolean
  secrets?: readonly string[]
}

export async function smokeTest(
  target: SmokeTarget,
  settings: SmokeSettings,
  deps: { clock: Clock; signal?: AbortSignal; measured?(index: number, m: Measurement): void }
): Promise<SmokeResult> {
  const found = streamRoute(target.url, target.engine)
  if ('none' in found)
    return {
      requests: settings.requests,
      measurements: [],
      problem: { kind: 'no-route', why: found.none, engine: found.engine, path: target.url.pathname }
    }
  const { route, base } = found
  const client = createHttpClient({ caCert: target.caCert, insecureTls: target.insecureTls, secrets: target.secrets })
  const deadline = deps.clock.now() + settings.timeoutMs
  const measurements: Measurement[] = []
  let problem: SmokeProblem | undefined
  let body = route.body
  try {
    for (let i = 0; i < settings.requests && problem === undefined; i++) {
      const left = deadline - deps.clock.now()
      const one =
        left <= 0
          ? { problem: { kind: 'timeout', timeoutMs: settings.timeoutMs } as const }
          : await measureOne(client, route, body, base, target, settings, left, deps)
      const refused = 'problem' in one && one.problem.kind === 'http' && [400, 422].includes(one.problem.status)
      if (refused && route.plainBody !== undefined && body !== route.plainBody) {
        // asked again, the same request without the fields the server may not know
        body = route.plainBody
        i--
        continue
      }
      if ('problem' in one) {
        problem = one.problem.kind === 'timeout' ? { kind: 'timeout', timeoutMs: settings.timeoutMs } : one.problem
      } else {
        measurements.push(one)
        deps.measured?.(i, one)
      }
    }
  } finally {
    await client.close()
  }
  const rates = measurements.flatMap((m) => (m.decodeTokensPerSecond === undefined ? [] : [m.decodeTokensPerSecond]))
  if (problem === undefined && rates.length === 0) problem = { kind: 'not-streamed' }
  return {
    request: `POST ${route.path}`,
    requests: settings.requests,
    measurements,
    ...(measurements.length === 0 ? {} : { ttftMs: median(measurements.map((m) => m.ttftMs)) }),
    ...(rates.length === 0 ? {} : { decodeTokensPerSecond: median(rates) }),
    ...(measurements.length === 0 ? {} : { source: measurements[measurements.length - 1].source }),
    ...engineMedians(measurements),
    ...(problem === undefined ? {} : { problem })
  }
}

function engineMedians(measurements: readonly Measurement[]): Pick<SmokeResult, 'engine'> {
  const timed = measurements.flatMap((m) => (m.engine === undefined ? [] : [m.engine]))
  if (timed.length === 0) return {}
  const of = (figure: (t: EngineTimings) => number | undefined): number | undefined => {
    const values = timed.flatMap((t) => {
      const v = figure(t)
      return v === undefined ? [] : [v]
    })
    return values.length === 0 ? undefined : median(values)
  }
  const decode = of((t) => t.decodeTokensPerSecond)
  const prompt = of((t) => t.promptMs)
  return {
    engine: {
      source: timed[timed.length - 1].source,
      requests: timed.length,
      ...(decode === undefined ? {} : { decodeTokensPerSecond: decode }),
      ...(prompt === undefined ? {} : { promptMs: prompt })
    }
  }
}

type Client = ReturnType<typeof createHttpClient>

async function measureOne(
  client: Client,
  route: StreamRoute,
  body: StreamRoute['body'],
  base: string,
  target: SmokeTarget,
  settings: SmokeSettings,
  timeoutMs: number,
  deps: { clock: Clock; signal?: AbortSignal }
): Promise<Measurement | { problem: SmokeProblem }> {
  const { clock } = deps
  const frames = new FrameReader(route.framing)
  let firstAt: number | undefined
  let lastAt = 0
  let chunks = 0
  let counted: { count: number; source: TokenSource } | undefined
  let timings: EngineTimings | undefined
  let problem: SmokeProblem | undefined
  /** False once the stream has said all it will. */
  const take = (list: ReturnType<FrameReader['push']>, at: number): boolean => {
    for (const frame of list) {
      if (frame.kind === 'done') return false
      if (frame.kind === 'too-long') {
        problem = { kind: 'too-long', what: frame.what }
        return false
      }
      const event = readEvent(route, frame.json)
      if (event.error !== undefined) {
        // the server's words on one line, as an HTTP error's are: a stream's line may be 64 KiB
        problem = { kind: 'stream-error', said: clip(event.error, 300) }
        return false
      }
      if (event.text !== undefined && event.text !== '') {
        firstAt ??= at
        lastAt = at
        chunks++
      }
      if (event.tokens !== undefined) counted = event.tokens
      // the last one is the whole generation's
      if (event.timings !== undefined) timings = event.timings
      if (event.done) return false
    }
    return true
  }
  const sentAt = clock.now()
  const result: ProbeResult = await client.send(
    {
      url: new URL(`${base}${route.path}`),
      method: 'POST',
      headers: { accept: 'text/event-stream, application/x-ndjson, application/json', ...target.headers },
      json: body(target.model, settings.tokens),
      stream: (chunk) => take(frames.push(chunk), clock.now())
    },
    timeoutMs,
    deps.signal
  )
  if (result.kind === 'error')
    return {
      problem:
        result.code === 'TIMEOUT'
          ? { kind: 'timeout', timeoutMs }
          : result.code === 'STOPPED'
            ? { kind: 'stopped' }
            : { kind: 'network', code: result.code, message: result.message }
    }
  if (result.status < 200 || result.status > 299) {
    const said = describeBody(result.body, result.contentType, result.json)
    return { problem: { kind: 'http', status: result.status, ...(said === '' ? {} : { said }) } }
  }
  if (problem === undefined) take(frames.end(), clock.now())
  if (problem !== undefined) return { problem }
  if (firstAt === undefined) return { problem: { kind: 'no-tokens' } }
  const { tokens, source } = plausibleTokens(counted, chunks, settings.tokens)
  const decodeMs = lastAt - firstAt
  return {
    ttftMs: firstAt - sentAt,
    tokens,
    source,
    // under a millisecond between the first and the last text is no time to divide by: every token came at once
    ...(tokens >= 2 && decodeMs >= MIN_DECODE_MS ? { decodeTokensPerSecond: ((tokens - 1) * 1000) / decodeMs } : {}),
    ...(timings === undefined ? {} : { engine: timings })
  }
}

/** A server may count a token or two more than asked for (an end-of-sequence token), no more. */
const TOKEN_MARGIN = 8
const MIN_DECODE_MS = 1

export function plausibleTokens(
  counted: { count: number; source: TokenSource } | undefined,
  chunks: number,
  requested: number
): { tokens: number; source: TokenSource } {
  const most = requested + TOKEN_MARGIN
  if (counted !== undefined && Number.isSafeInteger(counted.count) && counted.count >= chunks && counted.count <= most)
    return { tokens: counted.count, source: counted.source }
  // each chunk carried at least one token, and the server was asked for `requested`: more are not counted
  return { tokens: Math.min(chunks, most), source: 'chunks' }
}
