/** `probe-generation`: one tiny generation request, proof that a listed model can actually produce a token. */
import { assess } from './assess.js'
import type { Answer, Assessment } from '../facts/answer.js'
import { type GenerationRoute, isCompletion } from '../engines/model-lists.js'
import { createHttpClient } from '../http/probe.js'
import type { BodyCollector } from '../runtime/memory.js'
import { describeBody } from '../runtime/text.js'
import type { Clock } from '../runtime/clock.js'

export interface GenerationCheck {
  /** `ready` when the server generated; otherwise what it said instead (`fatal` on 401/403). */
  assessment: Assessment
  /** What was sent, e.g. `POST /v1/completions`. */
  request: string
  latencyMs: number
}

export interface Generator {
  generate(model: string | undefined, timeoutMs: number, signal?: AbortSignal): Promise<GenerationCheck>
  close(): Promise<void>
}

export interface GeneratorOptions {
  /** The server's base URL (the model-list URL without its model-list path). */
  base: string
  route: GenerationRoute
  headers: Record<string, string>
  clock: Clock
  caCert?: string
  insecureTls?: boolean
  /** Masked in every answer as it arrives (see `ProbeOptions`). */
  secrets?: readonly string[]
  /** Shared by the clients of one wait: a generation's answers count toward its collections too. */
  collector?: BodyCollector
}

const ANY_2XX = { status: [[200, 299]] as const }

export function createGenerator({
  base,
  route,
  headers,
  clock,
  caCert,
  insecureTls,
  secrets,
  collector
}: GeneratorOptions): Generator {
  const client = createHttpClient({ caCert, insecureTls, secrets, collector })
  // Index of the first request worth sending: moves past a route the server turns out not to have.
  let first = 0
  return {
    async generate(model, timeoutMs, signal) {
      const deadline = clock.now() + timeoutMs
      for (let i = first; ; i++) {
        const { path, body } = route.requests[i]
        const sentAt = clock.now()
        const result = await client.send(
          { url: new URL(`${base}${path}`), method: 'POST', headers, json: body(model) },
          deadline - sentAt,
          signal
        )
        const latencyMs = clock.now() - sentAt
        const request = `POST ${path}`
        if (
          result.kind === 'http' &&
          (result.status === 404 || result.status === 405) &&
          i + 1 < route.requests.length
        ) {
          first = i + 1
          continue
        }
        const assessment = assess(result, ANY_2XX)
        // Any 2xx is not enough: an error object, an empty body or a 202 is no token. Only a completion in the
        // engine's own format proves the model generated.
        if (assessment.state === 'ready' && result.kind === 'http' && !isCompletion(route, result.json)) {
          const said = describeBody(result.body, result.contentType, result.json) || undefined
          const answer: Answer = {
            state: 'waiting',
            status: result.status,
            said,
            missing: { what: 'completion', route: route.name }
          }
          return { assessment: { ...assessment, state: 'waiting', answer }, request, latencyMs }
        }
        // A completion body says nothing worth a log line; its arrival is the news.
        if (assessment.state === 'ready')
          return { assessment: { ...assessment, answer: { state: 'ready' }, excerpt: undefined }, request, latencyMs }
        return { assessment, request, latencyMs }
      }
    },
    close: () => client.close()
  }
}
