/**
 * The outputs: every one of action.yml's outputs as the action sets it (a string: GitHub has no other kind), and as
 * `--json` prints them: a script reading JSON should get `"attempts": 3`, `"ready": true` and
 * `"models": ["a", "b"]`, not strings to parse again. The keys stay the output names.
 */
import { seconds } from '../runtime/clock.js'
import type { GateOutcome, TargetOutcome } from '../facts/outcome.js'

/** action.yml's outputs, in its order; a test holds the two together. */
export const OUTPUT_NAMES = [
  'ready',
  'elapsed-seconds',
  'attempts',
  'status-code',
  'models',
  'model-id',
  'model-match',
  'first-response-seconds',
  'reason',
  'pid',
  'log-file',
  'startup-seconds',
  'gpu-memory-mib',
  'generation-seconds',
  'results',
  'phases',
  'expected-seconds',
  'regression-percent',
  'ttft-ms',
  'decode-tokens-per-second'
] as const

type OutputName = (typeof OUTPUT_NAMES)[number]

/** Every output, as the action sets it. */
export type Outputs = Readonly<Record<OutputName, string>>

export function outputs(outcome: GateOutcome): Outputs {
  const server = outcome.server
  const profile = outcome.profile
  return {
    ready: String(outcome.ready),
    'elapsed-seconds': seconds(outcome.elapsedMs),
    attempts: String(outcome.attempts),
    'status-code': outcome.last?.status === undefined ? '' : String(outcome.last.status),
    models: JSON.stringify(outcome.models),
    'model-id': outcome.last?.modelId ?? '',
    'model-match': outcome.ready ? (outcome.last?.modelMatch ?? '') : '',
    'first-response-seconds': outcome.firstResponseMs === undefined ? '' : seconds(outcome.firstResponseMs),
    reason: outcome.reason,
    pid: server?.pid === undefined ? '' : String(server.pid),
    'log-file': server?.logFile ?? '',
    'startup-seconds': server?.startupMs === undefined ? '' : seconds(server.startupMs),
    'gpu-memory-mib': server?.gpuMemoryMiB === undefined ? '' : String(server.gpuMemoryMiB),
    'generation-seconds': outcome.generationMs === undefined ? '' : seconds(outcome.generationMs),
    results: JSON.stringify(outcome.results.map(resultRecord)),
    phases: JSON.stringify((outcome.profile?.phases ?? []).map((p) => ({ name: p.name, seconds: p.seconds }))),
    'expected-seconds': profile?.expectedSeconds === undefined ? '' : profile.expectedSeconds.toFixed(1),
    'regression-percent': profile?.regressionPercent === undefined ? '' : profile.regressionPercent.toFixed(1),
    'ttft-ms': outcome.smoke?.ttftMs === undefined ? '' : String(Math.round(outcome.smoke.ttftMs)),
    'decode-tokens-per-second':
      outcome.smoke?.decodeTokensPerSecond === undefined ? '' : outcome.smoke.decodeTokensPerSecond.toFixed(1)
  }
}

/** One endpoint's entry in the `results` output. */
function resultRecord(r: TargetOutcome): Record<string, JsonValue> {
  return {
    url: r.url.href,
    ready: r.ready,
    'elapsed-seconds': Number(seconds(r.elapsedMs)),
    'status-code': r.last?.status ?? null,
    'model-id': r.last?.modelId ?? null,
    reason: r.reason,
    // a fleet of servers: each endpoint's own (one server for all has them in the outputs beside `results`)
    ...(r.server === undefined
      ? {}
      : {
          pid: r.server.pid ?? null,
          container: r.server.container ?? null,
          'log-file': r.server.logFile ?? null,
          'startup-seconds': r.server.startupMs === undefined ? null : Number(seconds(r.server.startupMs)),
          'gpu-memory-mib': r.server.gpuMemoryMiB ?? null
        }),
    ...(r.profile === undefined ? {} : { phases: r.profile.phases.map((p) => ({ name: p.name, seconds: p.seconds })) }),
    // only with a smoke test: a wait without one keeps the entries it always had
    ...(r.smoke === undefined
      ? {}
      : {
          'ttft-ms': r.smoke.ttftMs === undefined ? null : Math.round(r.smoke.ttftMs),
          'decode-tokens-per-second':
            r.smoke.decodeTokensPerSecond === undefined ? null : Number(r.smoke.decodeTokensPerSecond.toFixed(1))
        })
  }
}

type OutputKind = 'boolean' | 'number' | 'json' | 'string'

/** Every output's JSON kind: a new output must be given one. */
const OUTPUT_KINDS: Readonly<Record<OutputName, OutputKind>> = {
  ready: 'boolean',
  'elapsed-seconds': 'number',
  attempts: 'number',
  'status-code': 'number',
  models: 'json',
  'model-id': 'string',
  'model-match': 'string',
  'first-response-seconds': 'number',
  reason: 'string',
  pid: 'number',
  'log-file': 'string',
  'startup-seconds': 'number',
  'gpu-memory-mib': 'number',
  'generation-seconds': 'number',
  results: 'json',
  phases: 'json',
  'expected-seconds': 'number',
  'regression-percent': 'number',
  'ttft-ms': 'number',
  'decode-tokens-per-second': 'number'
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/**
 * An empty output (nothing to tell: no status code, no pid) is null unless it is text; a value that does not read
 * as its kind (which the outputs never make) stays the string it is rather than being lost.
 */
function typed(kind: OutputKind, text: string): JsonValue {
  if (kind === 'string') return text
  if (text === '') return null
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text
  if (kind === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text
  try {
    return JSON.parse(text) as JsonValue
  } catch {
    return text
  }
}

/** The outputs as `--json` prints them; a name that is no output (none is) stays text. */
export function typedOutputs(outputs: Readonly<Record<string, string>>): Record<string, JsonValue> {
  const kinds: Readonly<Record<string, OutputKind | undefined>> = OUTPUT_KINDS
  return Object.fromEntries(Object.entries(outputs).map(([name, text]) => [name, typed(kinds[name] ?? 'string', text)]))
}
