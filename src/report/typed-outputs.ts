/**
 * The outputs as `--json` prints them: the action's outputs are strings (GitHub has no other kind), but a script
 * reading JSON should get `"attempts": 3`, `"ready": true` and `"models": ["a", "b"]`, not strings to parse again.
 * The keys stay the output names.
 */
import type { Outputs } from './wait-report.js'

type OutputKind = 'boolean' | 'number' | 'json' | 'string'

/** Every output's JSON kind; a test holds this to action.yml's outputs, so a new output must be given one. */
export const OUTPUT_KINDS: Readonly<Record<string, OutputKind>> = {
  ready: 'boolean',
  'elapsed-seconds': 'number',
  attempts: 'number',
  'status-code': 'number',
  models: 'json',
  'model-id': 'string',
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

export function typedOutputs(outputs: Outputs): Record<string, JsonValue> {
  return Object.fromEntries(
    Object.entries(outputs).map(([name, text]) => [name, typed(OUTPUT_KINDS[name] ?? 'string', text)])
  )
}
