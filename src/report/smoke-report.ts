/** Words for the throughput smoke test: its progress lines, its result, why it could not run, a slower decode rate. */
import type { ThroughputRegression } from '../history/stats.js'
import type { EngineTimings, TokenSource } from '../engines/streams.js'
import { MAX_LINE_BYTES, MAX_STREAM_BYTES } from '../smoke/frames.js'
import type { Measurement, SmokeProblem, SmokeResult } from '../smoke/measure.js'
import type { GateOutcome } from '../facts/outcome.js'
import { formatDuration } from '../runtime/clock.js'
import { driftText } from './profile-report.js'
import { engineLog } from '../engines/log-markers.js'

const ttftText = (ms: number): string => `${Math.round(ms)} ms`
const rateText = (perSecond: number): string => `${perSecond.toFixed(1)} tokens/s`

const SOURCE_WORDS: Readonly<Record<TokenSource, string>> = {
  'usage.completion_tokens': "the engine's usage.completion_tokens",
  'timings.predicted_n': "the engine's timings.predicted_n",
  eval_count: "the engine's eval_count",
  'details.generated_tokens': "the engine's details.generated_tokens",
  chunks: 'the streamed chunks (the engine gave no count)'
}

const ENGINE_WORDS: Readonly<Record<EngineTimings['source'], string>> = {
  timings: "llama.cpp's timings: predicted_per_second, prompt_ms",
  eval_duration: "Ollama's eval_count / eval_duration, prompt_eval_duration"
}

/** `decode 88.1 tokens/s, prompt 12 ms`: what the engine timed inside the server. */
function engineFigures(t: EngineTimings): string {
  return [
    ...(t.decodeTokensPerSecond === undefined ? [] : [`decode ${rateText(t.decodeTokensPerSecond)}`]),
    ...(t.promptMs === undefined ? [] : [`prompt ${ttftText(t.promptMs)}`])
  ].join(', ')
}

export const smokeLines = {
  start: (requests: number, tokens: number, request: string | undefined): string =>
    `Smoke test: ${requests} streamed generation request${requests === 1 ? '' : 's'} of ${tokens} tokens` +
    `${request === undefined ? '' : ` (${request})`}, one after another`,
  measured: (index: number, requests: number, m: Measurement): string =>
    `Smoke test ${index + 1}/${requests}: first token after ${ttftText(m.ttftMs)}; ${m.tokens} token${m.tokens === 1 ? '' : 's'}` +
    (m.decodeTokensPerSecond === undefined ? ', all at once' : ` at ${rateText(m.decodeTokensPerSecond)}`),
  result: (r: SmokeResult): string | undefined =>
    r.ttftMs === undefined || r.decodeTokensPerSecond === undefined
      ? undefined
      : `Smoke test: time to first token ${ttftText(r.ttftMs)}, decode ${rateText(r.decodeTokensPerSecond)} ` +
        `(median${r.measurements.length === 1 ? '' : 's'} of ${r.measurements.length} request${r.measurements.length === 1 ? '' : 's'}; ` +
        `tokens counted from ${SOURCE_WORDS[r.source ?? 'chunks']})` +
        (r.engine === undefined
          ? ''
          : `; the engine's own: ${engineFigures(r.engine)} (${ENGINE_WORDS[r.engine.source]})`)
}

const KIB = (bytes: number): string => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`)

function problemText(p: SmokeProblem, request = 'the generation request'): string {
  switch (p.kind) {
    case 'no-route':
      return p.why === 'no-text-generation'
        ? `${p.engine === undefined ? 'the engine' : engineLog(p.engine).label} serves no streamed text generation ` +
            'this smoke test knows (it runs on vLLM, SGLang, TGI, llama.cpp, Ollama and OpenAI-compatible servers)'
        : `no streamed generation route is known for ${p.path}: point "url" at the server's model list ` +
            '(/v1/models, /api/tags or /info) or name the engine with "engine"'
    case 'http':
      return `${request} answered HTTP ${p.status}${p.said === undefined ? '' : `: ${p.said}`}`
    case 'network':
      return `${request} failed: ${p.code} (${p.message})`
    case 'timeout':
      return `it did not finish within ${formatDuration(p.timeoutMs)}`
    case 'stopped':
      return 'it was stopped: the job was cancelled, or the server exited or wrote a fatal line'
    case 'stream-error':
      return `the engine's stream said: ${p.said}`
    case 'too-long':
      return p.what === 'line'
        ? `the stream sent a line longer than ${KIB(MAX_LINE_BYTES)}`
        : `the stream sent more than ${KIB(MAX_STREAM_BYTES)}`
    case 'no-tokens':
      return `${request} answered without a token in a stream`
    case 'not-streamed':
      return 'every request got its tokens in one piece: the server did not stream them, so there is no decode rate'
  }
}

/** `url` for a fleet's endpoint. */
export function smokeProblemMessage(r: SmokeResult, url?: URL): string {
  const at = url === undefined ? '' : ` of ${url.href}`
  const done = r.measurements.length
  const lead =
    done === 0 || r.problem?.kind === 'not-streamed'
      ? `The smoke test${at} could not measure throughput`
      : `The smoke test${at} stopped after ${done} of ${r.requests} requests`
  const text = `${lead}: ${problemText(r.problem ?? { kind: 'no-tokens' }, r.request)}`
  // the server's words may end a sentence already
  return /[.!?]$/.test(text) ? text : `${text}.`
}

/** `Decode rate 62.9 tokens/s, 29.2% below the median of 88.8 tokens/s of the last 5 runs; …, a likely cause.` */
export function throughputRegressionText(t: ThroughputRegression): string {
  const cause =
    t.drift.length === 0
      ? ''
      : `; the server's environment changed since the previous run, a likely cause: ${t.drift.map(driftText).join('; ')}`
  return (
    `Decode rate ${rateText(t.now)}, ${t.percentBelow.toFixed(1)}% below the median of ${rateText(t.usual)} ` +
    `of the last ${t.runs} run${t.runs === 1 ? '' : 's'} with a smoke test${cause}.`
  )
}

export function smokeRows(outcome: GateOutcome): Array<[string, string]> {
  const r = outcome.smoke
  if (r === undefined) return []
  if (r.ttftMs === undefined || r.decodeTokensPerSecond === undefined)
    return [['Smoke test', `⚠️ ${smokeProblemMessage(r)}`]]
  const n = r.measurements.length
  const usual = outcome.profile?.usualDecodeTokensPerSecond
  return [
    ['Time to first token (smoke test)', `${ttftText(r.ttftMs)} (median of ${n} request${n === 1 ? '' : 's'})`],
    [
      'Decode rate (smoke test)',
      `${rateText(r.decodeTokensPerSecond)} (median of ${n}; tokens counted from ${SOURCE_WORDS[r.source ?? 'chunks']}` +
        `${usual === undefined ? '' : `; usual ${rateText(usual)}`})`
    ],
    ...(r.engine === undefined
      ? []
      : ([
          [
            "Engine's own timing (smoke test)",
            `${engineFigures(r.engine)} (median of ${r.engine.requests}; ${ENGINE_WORDS[r.engine.source]}, timed inside the server)`
          ]
        ] as Array<[string, string]>)),
    ...(r.problem === undefined ? [] : ([['Smoke test', `⚠️ ${smokeProblemMessage(r)}`]] as Array<[string, string]>))
  ]
}
