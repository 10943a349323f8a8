/** action.yml's outputs as the action sets them (strings) and as `--json` prints them (typed, not strings to parse). */
import { seconds } from '../runtime/clock.js'
import type { GateOutcome, ServerFacts, TargetOutcome } from '../facts/outcome.js'
import { type EnvEntry, workerDifferences } from '../server/env-report.js'

type OutputKind = 'boolean' | 'number' | 'json' | 'string'

const secondsOr = (ms: number | undefined): string => (ms === undefined ? '' : seconds(ms))
const round1 = (n: number | undefined): number | null => (n === undefined ? null : Number(n.toFixed(1)))
const textOf = (value: number | string | undefined): string => (value === undefined ? '' : String(value))

/** In action.yml's order (a test holds the two together). */
const OUTPUTS = {
  ready: { kind: 'boolean', of: (o) => String(o.ready) },
  'elapsed-seconds': { kind: 'number', of: (o) => seconds(o.elapsedMs) },
  attempts: { kind: 'number', of: (o) => String(o.attempts) },
  'status-code': { kind: 'number', of: (o) => textOf(o.last?.status) },
  models: { kind: 'json', of: (o) => JSON.stringify(o.models) },
  'model-id': { kind: 'string', of: (o) => o.last?.modelId ?? '' },
  'model-match': { kind: 'string', of: (o) => (o.ready ? (o.last?.modelMatch ?? '') : '') },
  'first-response-seconds': { kind: 'number', of: (o) => secondsOr(o.firstResponseMs) },
  reason: { kind: 'string', of: (o) => o.reason },
  pid: { kind: 'number', of: (o) => textOf(o.server?.pid) },
  'log-file': { kind: 'string', of: (o) => o.server?.logFile ?? '' },
  'startup-seconds': { kind: 'number', of: (o) => secondsOr(o.server?.startupMs) },
  'gpu-memory-mib': { kind: 'number', of: (o) => textOf(o.server?.gpuMemoryMiB) },
  placement: { kind: 'string', of: (o) => o.placement?.placement ?? '' },
  'generation-seconds': { kind: 'number', of: (o) => secondsOr(o.generationMs) },
  results: { kind: 'json', of: (o) => JSON.stringify(o.results.map(resultRecord)) },
  phases: { kind: 'json', of: (o) => JSON.stringify((o.profile?.phases ?? []).map(phaseRecord)) },
  'expected-seconds': { kind: 'number', of: (o) => textOf(o.profile?.expectedSeconds?.toFixed(1)) },
  'regression-percent': { kind: 'number', of: (o) => textOf(o.profile?.regressionPercent?.toFixed(1)) },
  'ttft-ms': {
    kind: 'number',
    of: (o) => textOf(o.smoke?.ttftMs === undefined ? undefined : Math.round(o.smoke.ttftMs))
  },
  'decode-tokens-per-second': { kind: 'number', of: (o) => textOf(o.smoke?.decodeTokensPerSecond?.toFixed(1)) },
  verdict: { kind: 'string', of: (o) => (o.ready ? (o.profile?.verdict ?? 'no-baseline') : 'not-ready') },
  'env-changes': { kind: 'json', of: (o) => JSON.stringify(o.profile?.envChanges ?? []) },
  environment: { kind: 'json', of: (o) => (o.server === undefined ? '' : environmentRecord(o.server)) }
} as const satisfies Record<string, { kind: OutputKind; of: (outcome: GateOutcome) => string }>

type OutputName = keyof typeof OUTPUTS
export const OUTPUT_NAMES = Object.keys(OUTPUTS) as OutputName[]

export type Outputs = Readonly<Record<OutputName, string>>

export function outputs(outcome: GateOutcome): Outputs {
  return Object.fromEntries(OUTPUT_NAMES.map((name) => [name, OUTPUTS[name].of(outcome)])) as Outputs
}

const phaseRecord = (p: { name: string; seconds: number }): { name: string; seconds: number } => ({
  name: p.name,
  seconds: p.seconds
})

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
    ...(r.profile === undefined ? {} : { phases: r.profile.phases.map(phaseRecord) }),
    // only with a smoke test: a wait without one keeps the entries it always had
    ...(r.smoke === undefined
      ? {}
      : {
          'ttft-ms': r.smoke.ttftMs === undefined ? null : Math.round(r.smoke.ttftMs),
          'decode-tokens-per-second':
            r.smoke.decodeTokensPerSecond === undefined ? null : Number(r.smoke.decodeTokensPerSecond.toFixed(1)),
          // what the engine timed inside the server (llama.cpp, Ollama); null where its stream carried none
          'engine-timings':
            r.smoke.engine === undefined
              ? null
              : {
                  source: r.smoke.engine.source,
                  'decode-tokens-per-second': round1(r.smoke.engine.decodeTokensPerSecond),
                  'prompt-ms': round1(r.smoke.engine.promptMs)
                }
        })
  }
}

const envObject = (entries: readonly EnvEntry[] | undefined): JsonValue =>
  entries === undefined ? null : Object.fromEntries(entries.map((e) => [e.name, e.value ?? null]))

/** `env-report`'s findings: the served process, the GPU workers, where they differ, NCCL's own word; '' without it. */
function environmentRecord(server: ServerFacts): string {
  if (server.env === undefined && !server.envUnreadable) return ''
  const workers = server.gpuWorkers ?? []
  const nccl = server.nccl
  const record: JsonValue = {
    pid: server.envPid ?? server.pid ?? null,
    env: envObject(server.env),
    'gpu-workers': workers.map((w) => ({ pid: w.pid, env: envObject(w.env) })),
    'workers-differ': workerDifferences(server.env ?? [], workers).map((d) => d.name),
    nccl:
      nccl === undefined
        ? null
        : {
            version: nccl.version ?? null,
            processes: nccl.processes.map((p) => ({
              rank: p.rank ?? null,
              nranks: p.nranks ?? null,
              pid: p.pid,
              host: p.host,
              env: p.env
            })),
            unconfirmed: nccl.unconfirmed,
            'set-inside': (nccl.setInside ?? []).map((s) => ({
              name: s.name,
              value: s.value,
              pids: s.by.map((p) => p.pid)
            }))
          }
  }
  return JSON.stringify(record)
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/** An empty output is null unless it is text; a value that does not read as its kind stays the string it is. */
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

export function typedOutputs(outputs: Readonly<Record<string, string>>): Record<string, JsonValue> {
  const table: Readonly<Record<string, { kind: OutputKind } | undefined>> = OUTPUTS
  return Object.fromEntries(
    Object.entries(outputs).map(([name, text]) => [name, typed(table[name]?.kind ?? 'string', text)])
  )
}
