/**
 * The inputs, in action.yml's order: each one's default (a test holds them to action.yml and the README), its
 * words as a CLI flag in `--help`, whether the flag may be repeated and whether a one-shot `check` takes it.
 */
import { ENGINE_NAMES, engineInputName } from '../engines/index.js'

interface Input {
  default: string
  /** The flag's value in `--help` (URL, DURATION) and what it does, in a line. */
  flag: readonly [metavar: string, help: string]
  /** The flag may be repeated, the values joined by newlines as the action's multi-line input. */
  lines?: true
  /** A one-shot `check` takes it: what to ask and what the answer must show. */
  check?: true
}

/** "vllm, sglang, tgi, llama.cpp, ollama or …": llama.cpp before Ollama, as the README and action.yml list them. */
const engineWords = (): string => {
  const words = ENGINE_NAMES.filter((e) => e !== 'ollama').map(engineInputName)
  if (ENGINE_NAMES.includes('ollama')) words.splice(words.indexOf('llama.cpp') + 1, 0, 'ollama')
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`
}

export const INPUTS = {
  url: {
    default: '',
    flag: ['URL', 'endpoint to poll, e.g. http://localhost:8000/v1/models (required; repeat the flag for a fleet)'],
    lines: true,
    check: true
  },
  model: {
    default: '',
    flag: ['NAME', 'expected model: a listed id equal to it, else one containing it, case-insensitively'],
    check: true
  },
  'model-match': {
    default: 'auto',
    flag: ['MODE', 'auto: take an id that only contains --model (with a warning); exact: refuse such ids'],
    check: true
  },
  match: {
    default: '',
    flag: ['TEXT', 'text the response body must contain; /source/flags: a JavaScript regular expression it must match'],
    check: true
  },
  interval: {
    default: '5s',
    flag: [
      'DURATION',
      'the longest time between costly probes (a generation; a model list or health route is asked every 250ms)'
    ]
  },
  timeout: { default: '15m', flag: ['DURATION', 'give up after this long'], check: true },
  headers: {
    default: '',
    flag: ['"NAME: VALUE"', 'extra request header (repeat the flag for more)'],
    lines: true,
    check: true
  },
  'api-key': { default: '', flag: ['KEY', 'sent as "Authorization: Bearer <key>"; never printed'], check: true },
  start: {
    default: '',
    flag: [
      'COMMAND',
      'shell command that starts the server in the background; it outlives this command (one --start per --url: a server each)'
    ],
    lines: true
  },
  pid: {
    default: '',
    flag: ['PID|FILE', 'process id of a server started elsewhere, or a file holding it (one per --url: a server each)'],
    lines: true
  },
  container: {
    default: '',
    flag: [
      'NAME|ID',
      'the container that is the server (Docker Engine API at $DOCKER_HOST or /var/run/docker.sock): --start runs it, or it runs already (one per --url: a container each)'
    ],
    lines: true
  },
  host: {
    default: '',
    flag: [
      'DESTINATION',
      'the ssh destination the server runs on (user@host): --start, --pid and --log-file are its, read over one OpenSSH connection ($WAIT_FOR_MODEL_SSH_COMMAND: the ssh command)'
    ]
  },
  ranks: {
    default: '',
    flag: [
      'N',
      "ranks that must join before ready, counted in the log: the engine's rank lines, else NCCL's Init COMPLETE (NCCL_DEBUG=INFO)"
    ]
  },
  'log-file': {
    default: '',
    flag: [
      'PATH',
      "the server log, appended to (with --start: a new model-server-<pid>-<random>.log in $RUNNER_TEMP or the temp dir; one per --url: each server's)"
    ],
    lines: true
  },
  'fail-pattern': { default: '', flag: ['REGEX', 'a new log line matching it ends the wait at once'] },
  'port-check': {
    default: 'true',
    flag: ['BOOL', 'false: no port-busy check before --start, nor wrong-server (a proxy in front of the server)']
  },
  'gpu-check': {
    default: 'warn',
    flag: ['MODE', 'with --start: warn, fail or off when other processes hold memory on its GPUs (nvidia-smi)']
  },
  stop: {
    default: 'job-end',
    flag: [
      'MODE',
      'the action stops the server --start ran at the job end (job-end; always: also a --container or --pid it did not start) or not (never); the CLI never does'
    ]
  },
  'probe-generation': {
    default: 'false',
    flag: ['BOOL', 'true: ready only once a one-token generation request succeeds'],
    check: true
  },
  load: {
    default: 'false',
    flag: ['BOOL', 'true: ask llama.cpp (router) or Ollama (--url .../api/ps) to load an unloaded model, then wait']
  },
  'smoke-test': {
    default: 'false',
    flag: [
      'MODE',
      'once ready, time streamed generations (TTFT, decode rate): false, true (warn if it cannot) or fail-on-error'
    ]
  },
  'env-report': {
    default: '',
    flag: ['NAMES', 'variables (NCCL_*,CUDA_VISIBLE_DEVICES) to report from the server environment']
  },
  diagnostics: { default: '', flag: ['COMMAND', 'run when the wait fails (repeat the flag for more)'], lines: true },
  'ca-cert': { default: '', flag: ['FILE', 'PEM file of extra trusted CA certificates'], check: true },
  'insecure-tls': {
    default: 'false',
    flag: ['BOOL', 'true: skip certificate checks (prints a warning)'],
    check: true
  },
  engine: {
    default: 'auto',
    flag: ['NAME', `whose log lines and readiness routes to use: auto, ${engineWords()}`],
    check: true
  },
  'history-file': {
    default: 'auto',
    flag: [
      'PATH',
      'earlier runs, to compare with (auto: $XDG_CACHE_HOME or ~/.cache/wait-for-model/history.jsonl; "" for none)'
    ]
  },
  'history-key': {
    default: '',
    flag: ['KEY', 'which earlier runs compare with this one (by default a hash of the URL, the model and --start)']
  },
  'regression-threshold': {
    default: '25%',
    flag: [
      'PERCENT',
      "warn when startup is slower, or the smoke test's decode rate lower, than the median of earlier runs by more than this"
    ]
  },
  'fail-on-regression': {
    default: 'false',
    flag: ['BOOL|environment', 'true: exit 1 on such a regression; environment: on a changed env-report variable alone']
  }
} as const satisfies Record<string, Input>

export type InputName = keyof typeof INPUTS
export const INPUT_NAMES = Object.keys(INPUTS) as InputName[]
export const INPUT_DEFAULTS = Object.fromEntries(INPUT_NAMES.map((n) => [n, INPUTS[n].default])) as {
  readonly [N in InputName]: (typeof INPUTS)[N]['default']
}
