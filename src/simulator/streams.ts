/**
 * The simulator's streamed generations, each in its engine's own format, at a chosen pace: token i leaves at
 * `ttft + i / rate` after the request, so that a late timer delays one token and never the ones after it.
 */
import type { ServerResponse } from 'node:http'

export interface Pace {
  tokensPerSecond: number
  /** From the request's arrival to its first token. */
  ttftMs: number
}

export const DEFAULT_PACE: Pace = { tokensPerSecond: 100, ttftMs: 50 }

type Format = 'openai' | 'llamacpp-openai' | 'llamacpp' | 'tgi' | 'ollama'
type Request = Record<string, unknown>

const CREATED = 1767225600
const PROMPT_TOKENS = 12
const DEFAULT_TOKENS = 16
const MAX_TOKENS = 4096

/** The stream a POST asks this engine for; undefined when it asks for none the engine serves. */
export function streamFormat(engine: string, path: string, request: Request): Format | undefined {
  if (engine === 'triton') return undefined
  if (path === '/v1/completions' && request.stream === true) return engine === 'llamacpp' ? 'llamacpp-openai' : 'openai'
  if (engine === 'llamacpp' && path === '/completion' && request.stream === true) return 'llamacpp'
  if (engine === 'tgi' && path === '/generate_stream') return 'tgi'
  // Ollama streams unless told not to; a request without a prompt only loads the model
  if (engine === 'ollama' && path === '/api/generate' && request.prompt !== undefined && request.stream !== false)
    return 'ollama'
  return undefined
}

const asked = (v: unknown): number =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? Math.min(v, MAX_TOKENS) : DEFAULT_TOKENS
const field = (o: unknown, key: string): unknown =>
  typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[key] : undefined

function tokensAsked(format: Format, request: Request): number {
  if (format === 'openai' || format === 'llamacpp-openai') return asked(request.max_tokens)
  if (format === 'llamacpp') return asked(request.n_predict)
  if (format === 'tgi') return asked(field(request.parameters, 'max_new_tokens'))
  return asked(field(request.options, 'num_predict'))
}

const sse = (body: unknown, space = true): string => `data:${space ? ' ' : ''}${JSON.stringify(body)}\n\n`
const text = (i: number): string => ` ${i + 4},`

/**
 * llama.cpp's `timings` (its result_timings) by the server's own clock: the first token comes with the prefill, so
 * predicted_per_second is the tokens after it over predicted_ms.
 */
const llamaTimings = (n: number, decodeMs: number, prefillMs: number) => ({
  cache_n: 0,
  prompt_n: PROMPT_TOKENS,
  prompt_ms: prefillMs,
  prompt_per_token_ms: prefillMs / PROMPT_TOKENS,
  prompt_per_second: prefillMs > 0 ? (PROMPT_TOKENS * 1000) / prefillMs : 0,
  predicted_n: n,
  predicted_ms: decodeMs,
  predicted_per_token_ms: n > 1 ? decodeMs / (n - 1) : 0,
  predicted_per_second: n > 1 && decodeMs > 0 ? ((n - 1) * 1000) / decodeMs : 0
})

/** What each format writes: a token's event, the events after the last token, a generation that fails. */
function events(format: Format, model: string, request: Request, n: number) {
  if (format === 'openai' || format === 'llamacpp-openai') {
    const llama = format === 'llamacpp-openai'
    const chunk = (choiceText: string, finish: string | null): string =>
      sse({
        id: 'cmpl-simulated',
        object: 'text_completion',
        created: CREATED,
        model,
        choices: [{ index: 0, text: choiceText, logprobs: null, finish_reason: finish, stop_reason: null }]
      })
    // llama.cpp's last chunk always carries its usage and timings
    const usage = llama || field(request.stream_options, 'include_usage') === true
    return {
      type: 'text/event-stream; charset=utf-8',
      token: (i: number) => chunk(text(i), i === n - 1 ? 'length' : null),
      end: (decodeMs: number, prefillMs: number) =>
        (usage
          ? sse({
              id: 'cmpl-simulated',
              object: 'text_completion',
              created: CREATED,
              model,
              choices: [],
              usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: n, total_tokens: PROMPT_TOKENS + n },
              ...(llama ? { timings: llamaTimings(n, decodeMs, prefillMs) } : {})
            })
          : '') + 'data: [DONE]\n\n',
      // vLLM's error in the stream, then its end
      failure: () =>
        sse({ error: { message: 'EngineCore encountered an issue.', type: 'InternalServerError', code: 500 } }) +
        'data: [DONE]\n\n'
    }
  }
  if (format === 'llamacpp')
    return {
      type: 'text/event-stream',
      token: (i: number) =>
        sse({
          index: 0,
          content: text(i),
          tokens: [1000 + i],
          stop: false,
          id_slot: 0,
          tokens_predicted: i + 1,
          tokens_evaluated: PROMPT_TOKENS
        }),
      end: (decodeMs: number, prefillMs: number) =>
        sse({
          index: 0,
          content: '',
          tokens: [],
          id_slot: 0,
          stop: true,
          model,
          tokens_predicted: n,
          tokens_evaluated: PROMPT_TOKENS,
          stop_type: 'limit',
          timings: llamaTimings(n, decodeMs, prefillMs)
        }),
      failure: () =>
        sse({ error: { code: 500, message: 'Compute error: failed to decode the batch', type: 'server_error' } })
    }
  if (format === 'tgi') {
    const details = field(request.parameters, 'details') === true
    return {
      type: 'text/event-stream',
      // TGI writes `data:` without a space
      token: (i: number) =>
        sse(
          {
            index: i + 1,
            token: { id: 1000 + i, text: text(i), logprob: -0.01, special: false },
            generated_text: i === n - 1 ? Array.from({ length: n }, (_, j) => text(j)).join('') : null,
            details:
              i === n - 1 && details
                ? { finish_reason: 'length', generated_tokens: n, seed: null, input_length: PROMPT_TOKENS }
                : null
          },
          false
        ),
      end: () => '',
      failure: () =>
        sse(
          { error: 'Request failed during generation: Server error: CUDA out of memory', error_type: 'generation' },
          false
        )
    }
  }
  const at = '2026-01-01T00:00:00.000000000Z'
  return {
    type: 'application/x-ndjson',
    token: (i: number) => `${JSON.stringify({ model, created_at: at, response: text(i), done: false })}\n`,
    // durations in nanoseconds; eval_count / eval_duration is the rate `ollama run --verbose` prints
    end: (decodeMs: number, prefillMs: number) =>
      `${JSON.stringify({
        model,
        created_at: at,
        response: '',
        done: true,
        done_reason: 'length',
        context: [1, 2, 3],
        total_duration: Math.round((decodeMs + prefillMs) * 1e6) + 1_000_000,
        load_duration: 1_000_000,
        prompt_eval_count: PROMPT_TOKENS,
        prompt_eval_duration: Math.round(prefillMs * 1e6),
        eval_count: n,
        eval_duration: Math.round(decodeMs * 1e6)
      })}\n`,
    failure: () => `${JSON.stringify({ error: 'llama runner process has terminated: exit status 2' })}\n`
  }
}

/** `fails`: the engine's own error event in place of the first token. Ends early when the client goes away. */
export async function writeStream(
  res: ServerResponse,
  format: Format,
  model: string,
  request: Request,
  pace: Pace,
  fails: boolean
): Promise<void> {
  const start = performance.now()
  const n = tokensAsked(format, request)
  const e = events(format, model, request, n)
  let gone = false
  let wake = (): void => undefined
  res.once('close', () => {
    gone = true
    wake()
  })
  const until = (at: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, at - performance.now()))
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  res.writeHead(200, { 'content-type': e.type, 'cache-control': 'no-cache' })
  res.flushHeaders()
  const first = start + pace.ttftMs
  if (fails) {
    await until(first)
    if (!gone) res.end(e.failure())
    return
  }
  for (let i = 0; i < n; i++) {
    await until(first + (i * 1000) / pace.tokensPerSecond)
    if (gone) return
    res.write(e.token(i))
  }
  res.end(e.end(performance.now() - first, pace.ttftMs))
}
