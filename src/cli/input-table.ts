/**
 * The action's inputs as the CLI's flags: each one's `--help` words, which may be repeated, and which a `check`
 * takes. The inputs themselves, with their defaults, are src/inputs/settings.ts's.
 */
import type { ParseArgsConfig } from 'node:util'
import { INPUT_DEFAULTS, type InputName } from '../inputs/input-names.js'
import { LOG_ENGINE_WORDS } from './engine-words.js'

/** `--help` words for each input; an input without one is still a flag, listed with its default. */
export const INPUT_HELP: Partial<Record<InputName, [metavar: string, text: string]>> = {
  url: ['URL', 'endpoint to poll, e.g. http://localhost:8000/v1/models (required; repeat the flag for a fleet)'],
  model: ['NAME', 'expected model: a listed id equal to it, else one containing it, case-insensitively'],
  'model-match': ['MODE', 'auto: take an id that only contains --model (with a warning); exact: refuse such ids'],
  'wrong-model-after': [
    'DURATION',
    'a one-model engine (vLLM, SGLang, TGI, llama.cpp) listing another model this long ends it (0: never)'
  ],
  match: ['TEXT', 'literal text the response body must contain'],
  'match-regex': ['REGEX', 'JavaScript regular expression the body must match (source or /source/flags)'],
  status: ['LIST', 'accepted HTTP statuses: 200, 200,204 or 200-299'],
  interval: ['DURATION', 'the longest time between probes'],
  schedule: ['MODE', 'adaptive: probe densely when readiness is near (the log, history); fixed: every interval'],
  timeout: ['DURATION', 'give up after this long'],
  'request-timeout': ['DURATION', 'limit for one probe'],
  'success-threshold': ['N', 'consecutive ready probes required'],
  headers: ['"NAME: VALUE"', 'extra request header (repeat the flag for more)'],
  'api-key': ['KEY', 'sent as "Authorization: Bearer <key>"; never printed'],
  'progress-interval': ['DURATION', 'how often a still-waiting line is printed'],
  'fail-on-timeout': ['BOOL', 'false: on timeout, print a warning and exit 0 with ready=false'],
  'fleet-min-ready': [
    'N',
    'with several --url: all, or how many must be ready; it ends once that many are, or too many have failed'
  ],
  start: [
    'COMMAND',
    'shell command that starts the server in the background; it outlives this command (one --start per --url: a server each)'
  ],
  pid: ['PID|FILE', 'process id of a server started elsewhere, or a file holding it (one per --url: a server each)'],
  container: [
    'NAME|ID',
    'the container that is the server (Docker Engine API at $DOCKER_HOST or /var/run/docker.sock): --start runs it, or it runs already (one per --url: a container each)'
  ],
  'log-file': [
    'PATH',
    "the server log, appended to (with --start: a new model-server-<pid>-<random>.log in $RUNNER_TEMP or the temp dir; one per --url: each server's)"
  ],
  'log-lines': ['N', 'last lines of the log to show when the wait fails'],
  'fail-pattern': ['REGEX', 'a new log line matching it ends the wait at once'],
  'port-check': ['BOOL', 'false: no port-busy check before --start, nor wrong-server (a proxy in front of the server)'],
  'gpu-check': ['MODE', 'with --start: warn, fail or off when other processes hold memory on its GPUs (nvidia-smi)'],
  stop: [
    'MODE',
    'the action stops the server --start ran at the job end (job-end; always: also a --container it did not start) or not (never); the CLI never does'
  ],
  'stop-timeout': ['DURATION', "the action's job-end stop: from SIGTERM until SIGKILL"],
  'probe-generation': ['BOOL', 'true: ready only once a one-token generation request succeeds'],
  load: ['BOOL', 'true: ask llama.cpp (router) or Ollama (--url .../api/ps) to load an unloaded model, then wait'],
  'smoke-test': [
    'MODE',
    'once ready, time streamed generations (TTFT, decode rate): false, true (warn if it cannot) or fail-on-error'
  ],
  'smoke-requests': ['N', 'streamed generation requests of the smoke test, one after another (1 to 100)'],
  'smoke-tokens': ['N', 'tokens each smoke-test request asks for (2 to 4096)'],
  'smoke-timeout': ['DURATION', 'limit for the whole smoke test'],
  'env-report': ['NAMES', 'variables (NCCL_*,CUDA_VISIBLE_DEVICES) to report from the server environment'],
  diagnostics: ['COMMAND', 'run when the wait fails (repeat the flag for more)'],
  'ca-cert': ['FILE', 'PEM file of extra trusted CA certificates'],
  'insecure-tls': ['BOOL', 'true: skip certificate checks (prints a warning)'],
  engine: ['NAME', `whose log lines and readiness routes to use: auto, ${LOG_ENGINE_WORDS}`],
  'history-file': [
    'PATH',
    'earlier runs, to compare with (auto: $XDG_CACHE_HOME or ~/.cache/wait-for-model/history.jsonl; "" for none)'
  ],
  'history-key': [
    'KEY',
    'which earlier runs compare with this one (by default a hash of the URL, the model and --start)'
  ],
  'regression-threshold': ['PERCENT', 'warn when startup is slower than the median of earlier runs by more than this'],
  'regression-min-runs': ['N', 'earlier ready runs with the key needed before a regression is told (1 to 10)'],
  'throughput-regression-threshold': [
    'PERCENT',
    "warn when the smoke test's decode rate is below the median of earlier runs by more than this"
  ],
  'fail-on-regression': ['BOOL', 'true: exit 1 on such a regression']
}

export const INPUT_NAMES = Object.keys(INPUT_DEFAULTS) as InputName[]
/**
 * Inputs whose flag may be repeated, the values joined by newlines as the action's multi-line input: `--start`,
 * `--pid`, `--container` and `--log-file` once per `--url` are a fleet of servers, in the same order.
 */
const MULTI_LINE: ReadonlySet<string> = new Set<string>([
  'url',
  'headers',
  'diagnostics',
  'start',
  'pid',
  'container',
  'log-file'
])

/** Every input as a flag, for parseArgs. */
export function inputOptions(): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = {}
  for (const name of INPUT_NAMES) options[name] = { type: 'string', multiple: MULTI_LINE.has(name) }
  return options
}

/**
 * The inputs a one-shot check takes: what to ask and what the answer must show. The wait's own (timeout, start,
 * history, …) are refused, so that a health check does not silently ignore them.
 */
export const CHECK_INPUTS: ReadonlySet<InputName> = new Set<InputName>([
  'url',
  'model',
  'model-match',
  'match',
  'match-regex',
  'status',
  'request-timeout',
  'headers',
  'api-key',
  'ca-cert',
  'insecure-tls',
  'probe-generation',
  'engine'
])
