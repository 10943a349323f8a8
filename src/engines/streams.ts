/**
 * The streamed generations engines serve, as data: route, request body, framing and what each event carries; and
 * the one an endpoint gets. Facts from each engine's source.
 */
import type { StreamName } from './engine-record.js'
import { type Engine, ENGINES } from './index.js'
import { type Entry, generationRoute, isObject } from './model-lists.js'

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined

export type TokenSource =
  'usage.completion_tokens' | 'timings.predicted_n' | 'eval_count' | 'details.generated_tokens' | 'chunks'

/** One generation as the engine timed it inside the server: no network, no streaming between. */
export interface EngineTimings {
  /** llama.cpp's `timings`, or Ollama's `eval_count`, `eval_duration` and `prompt_eval_duration`. */
  source: 'timings' | 'eval_duration'
  /** llama.cpp's `predicted_per_second`; Ollama's `eval_count / eval_duration`, as `ollama run --verbose` prints it. */
  decodeTokensPerSecond?: number
  /** Its prompt processing (prefill): llama.cpp's `prompt_ms`; Ollama's `prompt_eval_duration`. */
  promptMs?: number
}

/** A rate or milliseconds past this is no timing: it would only make the history's record unreadable. */
const MOST = 1e9
const positive = (v: unknown, most = MOST): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= most ? v : undefined
/** Nanoseconds: a year, to stay within what a double holds exactly. */
const nanoseconds = (v: unknown): number | undefined => positive(v, 366 * 24 * 3600 * 1e9)

/** llama.cpp's `timings` object (its last event's, or every event's with `timings_per_token`); 0 is "not known yet". */
function llamaTimings(timings: unknown): EngineTimings | undefined {
  if (!isObject(timings)) return undefined
  const decode = positive(timings.predicted_per_second)
  const prompt = positive(timings.prompt_ms)
  if (decode === undefined && prompt === undefined) return undefined
  return {
    source: 'timings',
    ...(decode === undefined ? {} : { decodeTokensPerSecond: decode }),
    ...(prompt === undefined ? {} : { promptMs: prompt })
  }
}

/** Ollama's last object: counts, and durations in nanoseconds. */
function ollamaTimings(event: Entry): EngineTimings | undefined {
  const evals = positive(event.eval_count)
  const evalNs = nanoseconds(event.eval_duration)
  const decode = evals === undefined || evalNs === undefined ? undefined : positive(evals / (evalNs / 1e9))
  const promptNs = nanoseconds(event.prompt_eval_duration)
  const prompt = promptNs === undefined ? undefined : positive(promptNs / 1e6)
  if (decode === undefined && prompt === undefined) return undefined
  return {
    source: 'eval_duration',
    ...(decode === undefined ? {} : { decodeTokensPerSecond: decode }),
    ...(prompt === undefined ? {} : { promptMs: prompt })
  }
}

interface StreamEvent {
  /** A token, or a few. */
  text?: string
  /** The engine's own count so far (a final event carries the whole count). */
  tokens?: { count: number; source: TokenSource }
  error?: string
  /** The engine's own timing of the generation so far (a final event carries the whole). */
  timings?: EngineTimings
  /** Only `[DONE]` or the end of the body may follow. */
  done?: boolean
}

export interface StreamRoute {
  name: StreamName
  /** After the server's base. */
  path: string
  framing: 'sse' | 'ndjson'
  body(model: string | undefined, tokens: number): Entry
  /** Sent instead when the server refuses `body` (400 or 422): without the fields an older server may not know. */
  plainBody?(model: string | undefined, tokens: number): Entry
  read(event: Entry): StreamEvent
}

/** Greedy decoding of this prompt writes numbers until the token limit: no early end of text. */
const PROMPT = 'Count from 1 to 1000, separated by commas: 1, 2, 3,'

function errorText(event: Entry): string | undefined {
  const e = event.error
  if (e === undefined || e === null) return event.object === 'error' ? String(event.message ?? 'error') : undefined
  if (typeof e === 'string') return e
  if (isObject(e) && typeof e.message === 'string') return e.message
  return JSON.stringify(e).slice(0, 200)
}

export function readEvent(route: StreamRoute, event: Entry): StreamEvent {
  const error = errorText(event)
  return error === undefined ? route.read(event) : { error }
}

const STREAM_ROUTES: Readonly<Record<StreamName, StreamRoute>> = {
  openai: {
    name: 'openai',
    // also LM Studio's, and TGI's and Ollama's /v1
    path: '/v1/completions',
    framing: 'sse',
    body: (model, tokens) => ({
      model,
      prompt: PROMPT,
      max_tokens: tokens,
      temperature: 0,
      stream: true,
      // the last event then carries `usage`, the engine's own count
      stream_options: { include_usage: true }
    }),
    // an OpenAI-compatible server that predates `stream_options` may refuse it: its chunks are counted instead
    plainBody: (model, tokens) => ({ model, prompt: PROMPT, max_tokens: tokens, temperature: 0, stream: true }),
    read(event) {
      const choices = Array.isArray(event.choices) ? event.choices.filter(isObject) : []
      const text = choices.map((c) => (typeof c.text === 'string' ? c.text : '')).join('')
      const completion = isObject(event.usage) ? count(event.usage.completion_tokens) : undefined
      // llama.cpp's /v1/completions carries its `timings` too, on the last chunk
      const timings = llamaTimings(event.timings)
      return {
        text,
        ...(completion === undefined ? {} : { tokens: { count: completion, source: 'usage.completion_tokens' } }),
        ...(timings === undefined ? {} : { timings })
      }
    }
  },
  // llama.cpp's own route: its last event carries `timings` (predicted_n tokens in predicted_ms)
  llamacpp: {
    name: 'llamacpp',
    path: '/completion',
    framing: 'sse',
    // `model` picks the model of a router-mode server; a server of one model ignores it
    body: (model, tokens) => ({
      ...(model === undefined ? {} : { model }),
      prompt: PROMPT,
      n_predict: tokens,
      temperature: 0,
      top_k: 1,
      stream: true,
      cache_prompt: false
    }),
    read(event) {
      const predicted = isObject(event.timings) ? count(event.timings.predicted_n) : undefined
      const timings = llamaTimings(event.timings)
      return {
        text: typeof event.content === 'string' ? event.content : '',
        ...(predicted === undefined ? {} : { tokens: { count: predicted, source: 'timings.predicted_n' } }),
        ...(timings === undefined ? {} : { timings }),
        ...(event.stop === true ? { done: true } : {})
      }
    }
  },
  // TGI's `data:` lines have no space after the colon; the last event carries `details` when asked for
  tgi: {
    name: 'tgi',
    path: '/generate_stream',
    framing: 'sse',
    body: (_model, tokens) => ({
      inputs: PROMPT,
      parameters: { max_new_tokens: tokens, do_sample: false, details: true }
    }),
    read(event) {
      const token = isObject(event.token) ? event.token : undefined
      const generated = isObject(event.details) ? count(event.details.generated_tokens) : undefined
      return {
        text: token !== undefined && token.special !== true && typeof token.text === 'string' ? token.text : '',
        ...(generated === undefined ? {} : { tokens: { count: generated, source: 'details.generated_tokens' } }),
        ...(typeof event.generated_text === 'string' ? { done: true } : {})
      }
    }
  },
  // Ollama streams by default: one JSON object a line, the last with `done: true` and `eval_count`
  ollama: {
    name: 'ollama',
    path: '/api/generate',
    framing: 'ndjson',
    body: (model, tokens) => ({
      model,
      prompt: PROMPT,
      stream: true,
      options: { num_predict: tokens, temperature: 0, top_k: 1 }
    }),
    read(event) {
      const evals = event.done === true ? count(event.eval_count) : undefined
      const timings = event.done === true ? ollamaTimings(event) : undefined
      return {
        text: typeof event.response === 'string' ? event.response : '',
        ...(evals === undefined ? {} : { tokens: { count: evals, source: 'eval_count' } }),
        ...(timings === undefined ? {} : { timings }),
        ...(event.done === true ? { done: true } : {})
      }
    }
  }
}

/**
 * By the endpoint's model-list path, else by the engine's record at the URL's origin; llama.cpp, once known, by
 * its own `/completion`. `none`: why no text generation is known there.
 */
export function streamRoute(
  url: URL,
  engine: Engine | undefined
): { route: StreamRoute; base: string } | { none: 'no-text-generation' | 'unknown-route'; engine?: Engine } {
  const found = generationRoute(url)
  if (found !== undefined) {
    const name = found.route.name === 'openai' && engine === 'llamacpp' ? 'llamacpp' : found.route.name
    return { route: STREAM_ROUTES[name as StreamName], base: found.base }
  }
  const name = engine === undefined ? undefined : ENGINES[engine].stream
  if (name !== undefined) return { route: STREAM_ROUTES[name], base: url.origin }
  return engine === undefined ? { none: 'unknown-route' } : { none: 'no-text-generation', engine }
}
