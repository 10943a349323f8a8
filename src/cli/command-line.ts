/**
 * The command-line layer: argv and INPUT_* variables in; progress on stderr, outputs as JSON on stdout, and an
 * exit code out (0 ready, 1 not ready, 2 bad usage). Every flag of the wait comes from the action's inputs.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ParseArgsConfig } from 'node:util'
import pkg from '../../package.json' with { type: 'json' }
import { demo } from './demo.js'
import { historyCommand } from './history-command.js'
import { parseCommandLine, table, UsageError } from './usage.js'
import { gate } from '../wait/gate.js'
import { conclude } from '../wait/conclusion.js'
import { defaultHistoryFile } from '../history/store.js'
import { DURATION_FORM, parseDuration } from '../inputs/parse.js'
import { printable } from '../runtime/text.js'
import { runCommand, runDiagnostics } from '../server/diagnostics.js'
import { summaryMarkdown } from '../report/summary.js'
import { commandSafe } from '../report/command-safe.js'
import { INSECURE_TLS_WARNING } from '../report/annotation-titles.js'
import { redact } from '../inputs/secrets.js'
import { INPUT_DEFAULTS, type InputName } from '../inputs/input-names.js'
import { InputError } from '../inputs/input-error.js'
import { cliInputMessage } from './input-error.js'
import { parseSettings } from '../inputs/parse-settings.js'
import { PID_FORM } from '../inputs/forms.js'
import type { Settings } from '../inputs/settings.js'
import { inputVariable, shellInputVariable } from '../inputs/variables.js'
import { type EngineName, SIMULATED_ENGINES, simulatedEngine } from '../simulator/engines.js'
import { simulate } from '../simulator/server.js'
import { DEFAULT_PACE } from '../simulator/streams.js'
import { formatDuration, systemClock } from '../runtime/clock.js'
import { stopServer } from '../server/stop.js'
import { gpuSnapshot } from '../gpu/nvidia-smi.js'
import { resolvePid } from '../server/process.js'
import { procStat } from '../server/proc.js'
import { stopLines } from '../report/lifecycle-report.js'
import { typedOutputs } from '../report/outputs.js'
import { checkLine } from '../report/check-report.js'

export interface CliIo {
  env: NodeJS.ProcessEnv
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
}

/** `--help` words for each input; an input without one is still a flag, listed with its default. */
const INPUT_HELP: Partial<Record<InputName, [metavar: string, text: string]>> = {
  url: ['URL', 'endpoint to poll, e.g. http://localhost:8000/v1/models (required; repeat the flag for a fleet)'],
  model: ['NAME', 'expected model: a listed id equal to it, else one containing it, case-insensitively'],
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
  start: ['COMMAND', 'shell command that starts the server in the background; it outlives this command'],
  pid: ['PID|FILE', 'process id of a server started elsewhere, or a file holding it'],
  'log-file': [
    'PATH',
    'the server log, appended to (with --start: a new model-server-<pid>.log in $RUNNER_TEMP or the temp dir)'
  ],
  'log-lines': ['N', 'last lines of the log to show when the wait fails'],
  'fail-pattern': ['REGEX', 'a new log line matching it ends the wait at once'],
  'port-check': ['BOOL', 'false: no port-busy check before --start, nor wrong-server (a proxy in front of the server)'],
  'gpu-check': ['MODE', 'with --start: warn, fail or off when other processes hold memory on its GPUs (nvidia-smi)'],
  stop: ['MODE', 'the action stops the server at the job end (job-end) or not (never); the CLI never does: see "stop"'],
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
  engine: [
    'NAME',
    'whose log lines to read for the startup phases: auto, vllm, sglang, tgi, llama.cpp, ollama or triton'
  ],
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

const INPUT_NAMES = Object.keys(INPUT_DEFAULTS) as InputName[]
/** Inputs whose flag may be repeated, the values joined by newlines as the action's multi-line input. */
const MULTI_LINE: ReadonlySet<string> = new Set<string>(['url', 'headers', 'diagnostics'])

const SIMULATE_DEFAULTS = { load: '30s', port: '8000', host: '127.0.0.1' }
/** The simulator's engines as the gate spells them (`llama.cpp`; `llamacpp` is accepted too). */
const ENGINE_WORDS = (Object.keys(SIMULATED_ENGINES) as EngineName[])
  .map((e) => (e === 'llamacpp' ? 'llama.cpp' : e))
  .join(', ')

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const paint = painter(io)
  const say = (line: string): void => void io.stderr.write(`${line}\n`)
  try {
    if (argv[0] === 'simulate') return await simulateCommand(argv.slice(1), io, say)
    if (argv[0] === 'stop') return await stopCommand(argv.slice(1), io, say, paint)
    if (argv[0] === 'check') return await checkCommand(argv.slice(1), io)
    if (argv[0] === 'history') return await historyCommand(argv.slice(1), io, say)
    if (argv[0] === 'demo') return await demo(join(dirname(fileURLToPath(import.meta.url)), 'index.js'), io.stdout)
    return await waitCommand(argv, io, say, paint)
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    say(paint.red(`wait-for-model: ${e.message}`))
    say('Run "wait-for-model --help" for usage.')
    return 2
  }
}

async function waitCommand(argv: string[], io: CliIo, say: (line: string) => void, paint: Painter): Promise<number> {
  const options: ParseArgsConfig['options'] = {
    json: { type: 'boolean' },
    'summary-file': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'V' }
  }
  for (const name of INPUT_NAMES) options[name] = { type: 'string', multiple: MULTI_LINE.has(name) }
  const { values } = parseCommandLine(argv, options)
  if (values.help) return (void io.stdout.write(helpText()), 0)
  if (values.version) return (void io.stdout.write(`${pkg.version}\n`), 0)

  const settings = settingsFrom(values, io.env)
  const summaryFile = writableSummaryFile(values['summary-file'])
  const secrets = settings.secrets
  // the runner reads workflow commands from a step's stderr too
  const log = (line: string): void => say(commandSafe(redact(line, secrets)))
  if (settings.insecureTls) log(paint.yellow(`warning: ${INSECURE_TLS_WARNING}`))

  const outcome = await gate(settings, {
    clock: systemClock,
    startedAt: 0,
    log,
    warn: (line) => log(paint.yellow(`warning: ${line}`)),
    env: io.env,
    defaultHistory: defaultHistoryFile(io.env, 'cli')
  })
  const next = conclude(outcome, settings)
  log(next.ready ? paint.green(next.finalLine) : paint.red(next.finalLine))
  if (next.logTail !== undefined) {
    log(`${next.logTail.title}:`)
    for (const line of next.logTail.lines) log(`  ${line}`)
  }
  await runDiagnostics(next.diagnostics, {
    group: async (title, body) => {
      log(`── ${title}`)
      await body()
    },
    exec: (program, args) => runCommand(program, args, io.stderr),
    log
  })
  if (next.smokeWarning !== undefined) log(paint.yellow(`warning: ${next.smokeWarning}`))
  if (next.verdict !== undefined) {
    const { kind, message } = next.verdict
    log(kind === 'warn' ? paint.yellow(`warning: ${message}`) : paint.red(`error: ${message}`))
  }
  // The job summary's Markdown, for a CI system that shows or keeps a file (an artifact, an annotation).
  if (summaryFile !== undefined)
    writeFileSync(summaryFile, redact(summaryMarkdown(next.outcome, next.context), secrets))
  if (values.json) io.stdout.write(`${JSON.stringify(typedOutputs(next.outputs))}\n`)
  if (next.failedRegression !== undefined) log(paint.red(`error: ${next.failedRegression}`))
  if (next.failedThroughput !== undefined) log(paint.red(`error: ${next.failedThroughput}`))
  return next.exitCode
}

/** The settings from the flags, else the INPUT_* variables, else the defaults; a bad value is bad usage. */
function settingsFrom(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  only?: ReadonlySet<InputName>
): Settings {
  const flag = (name: InputName): string | undefined => {
    const v = values[name]
    return Array.isArray(v) ? v.join('\n') : typeof v === 'string' ? v : undefined
  }
  try {
    // Like the runner, an input not given takes its default (an empty history-file is history off).
    return parseSettings(
      (name) =>
        only !== undefined && !only.has(name)
          ? INPUT_DEFAULTS[name]
          : (flag(name) ?? envInput(env, name) ?? INPUT_DEFAULTS[name]),
      undefined,
      env
    )
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    // Name the input as the user gave it: a flag, or the INPUT_* variable.
    const given = flag(e.input) === undefined && envInput(env, e.input) !== undefined ? 'variable' : 'flag'
    throw new UsageError(cliInputMessage(e, given))
  }
}

/**
 * The inputs a one-shot check takes: what to ask and what the answer must show. The wait's own (timeout, start,
 * history, …) are refused, so that a health check does not silently ignore them.
 */
const CHECK_INPUTS: ReadonlySet<InputName> = new Set<InputName>([
  'url',
  'model',
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

/**
 * `check`: one probe of each endpoint with the gate's whole judgement, within request-timeout; one line on stdout;
 * exit 0 ready, 1 not ready. For health checks (Docker HEALTHCHECK, compose, Kubernetes exec probes).
 */
async function checkCommand(argv: string[], io: CliIo): Promise<number> {
  const options: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' } }
  for (const name of INPUT_NAMES) options[name] = { type: 'string', multiple: MULTI_LINE.has(name) }
  const { values } = parseCommandLine(argv, options)
  if (values.help) return (void io.stdout.write(checkHelpText()), 0)
  const refused = INPUT_NAMES.find((name) => values[name] !== undefined && !CHECK_INPUTS.has(name))
  if (refused !== undefined) {
    throw new UsageError(`--${refused}: check probes once, within --request-timeout; it takes no --${refused}`)
  }
  const given = settingsFrom(values, io.env, CHECK_INPUTS)
  const settings: Settings = {
    ...given,
    // one probe, due within request-timeout: nothing waits, nothing is kept
    timeoutMs: given.requestTimeoutMs,
    intervalMs: given.requestTimeoutMs,
    successThreshold: 1,
    historyFile: undefined
  }
  const outcome = await gate(settings, {
    clock: systemClock,
    log: () => {},
    env: io.env,
    once: true
  })
  io.stdout.write(`${commandSafe(redact(checkLine(outcome), settings.secrets))}\n`)
  return conclude(outcome, settings).exitCode
}

function checkHelpText(): string {
  return [
    'wait-for-model check: probe once and say whether the model server is ready now (for health checks).',
    '',
    'Usage: wait-for-model check --url URL [--model NAME] [options]',
    '',
    ...table([
      ...[...CHECK_INPUTS].map((name): [string, string] => {
        const [metavar, text] = INPUT_HELP[name] ?? ['VALUE', '']
        const value = INPUT_DEFAULTS[name]
        return [`--${name} ${metavar}`, `${text}${value === '' ? '' : ` (default: ${value})`}`]
      }),
      ['-h, --help', 'show this help']
    ]),
    '',
    'The same judgement as the wait (status, model, match, a generation request), on the first answer; all of it',
    'within --request-timeout. One line on stdout. Exit status: 0 ready, 1 not ready, 2 bad usage.',
    ''
  ].join('\n')
}

/** `--summary-file`: checked before the wait (created, or emptied), so that a path that cannot be written is bad usage. */
function writableSummaryFile(given: unknown): string | undefined {
  if (typeof given !== 'string') return undefined
  if (given.trim() === '') throw new UsageError('--summary-file: give the path of a file to write the summary to')
  try {
    writeFileSync(given, '')
  } catch (e) {
    throw new UsageError(
      `--summary-file: cannot write ${printable(given)} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`
    )
  }
  return given
}

async function simulateCommand(argv: string[], io: CliIo, say: (line: string) => void): Promise<number> {
  const { values } = parseCommandLine(argv, {
    engine: { type: 'string' },
    model: { type: 'string' },
    load: { type: 'string', default: SIMULATE_DEFAULTS.load },
    port: { type: 'string', default: SIMULATE_DEFAULTS.port },
    host: { type: 'string', default: SIMULATE_DEFAULTS.host },
    'crash-after': { type: 'string' },
    'generation-fails': { type: 'boolean' },
    unloaded: { type: 'boolean' },
    'tokens-per-second': { type: 'string', default: String(DEFAULT_PACE.tokensPerSecond) },
    ttft: { type: 'string', default: String(DEFAULT_PACE.ttftMs) },
    help: { type: 'boolean', short: 'h' }
  })
  if (values.help) return (void io.stdout.write(simulateHelpText()), 0)
  const given = String(values.engine ?? '')
  const engine = simulatedEngine(given)
  if (engine === undefined) {
    throw new UsageError(`--engine: give one of ${ENGINE_WORDS}${given ? ` (not "${printable(given)}")` : ''}`)
  }
  const model = String(values.model ?? '').trim()
  if (model === '') throw new UsageError('--model: give the model name the engine lists, e.g. /shared/kimi-k2.5-int4')
  const duration = (name: string, text: string): number => {
    try {
      return parseDuration(text)
    } catch {
      throw new UsageError(`--${name}: "${printable(text)}" is not ${DURATION_FORM}`)
    }
  }
  const loadMs = duration('load', String(values.load))
  const crashAfter = values['crash-after']
  const crashAfterMs = typeof crashAfter === 'string' ? duration('crash-after', crashAfter) : undefined
  const portText = String(values.port)
  if (!/^\d+$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
    throw new UsageError(`--port: "${printable(portText)}" is not a port number from 1 to 65535`)
  }
  const host = String(values.host)
  const number = (name: string, max: number, form: string): number => {
    const text = String(values[name])
    if (!/^\d+(\.\d+)?$/.test(text.trim()) || Number(text) > max)
      throw new UsageError(`--${name}: "${printable(text)}" is not ${form}`)
    return Number(text)
  }
  const tokensPerSecond = number('tokens-per-second', 100_000, 'a number of tokens a second above 0, such as 50')
  if (tokensPerSecond <= 0) throw new UsageError('--tokens-per-second: give a number of tokens a second above 0')
  const ttftMs = number('ttft', 600_000, 'a number of milliseconds, such as 300')
  const prefix = `[simulated ${engine}]`
  let server
  try {
    server = await simulate({
      engine,
      model,
      loadMs,
      port: Number(portText),
      host,
      crashAfterMs,
      generationFails: values['generation-fails'] === true,
      unloaded: values.unloaded === true,
      pace: { tokensPerSecond, ttftMs },
      onEvent: (event, atMs) => say(`${prefix} ${formatDuration(atMs)}: ${SIMULATOR_EVENT_WORDS[event]}`)
    })
  } catch (e) {
    throw new UsageError(
      `--port: cannot open ${host}:${portText} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`
    )
  }
  const opensAt = SIMULATED_ENGINES[engine].opensAt * loadMs
  say(
    `${prefix} serving "${model}" on ${server.baseUrl}: the port ${opensAt > 0 ? `opens at ${formatDuration(opensAt)}` : 'is open now'}, ` +
      `the model is ready at ${formatDuration(loadMs)}` +
      (crashAfterMs === undefined ? '' : `, the engine crashes at ${formatDuration(crashAfterMs)}`) +
      (values['generation-fails'] === true ? ', every generation request fails' : '') +
      '. Stop it with Ctrl-C.'
  )
  try {
    await server.ended
  } catch (e) {
    // the port was free when checked, and taken by the time the engine opened it
    say(`${prefix} cannot open ${host}:${portText}: ${(e as Error).message}`)
  }
  return 1
}

const STOP_DEFAULTS = { timeout: '30s' }

/** `stop --pid N`: SIGTERM to the server's process group, SIGKILL after --timeout, then its GPU memory back. */
async function stopCommand(argv: string[], io: CliIo, say: (line: string) => void, paint: Painter): Promise<number> {
  const { values } = parseCommandLine(argv, {
    pid: { type: 'string' },
    timeout: { type: 'string', default: STOP_DEFAULTS.timeout },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' }
  })
  if (values.help) return (void io.stdout.write(stopHelpText()), 0)
  const pidText = String(values.pid ?? '').trim()
  if (pidText === '') throw new UsageError(`--pid: give ${PID_FORM}`)
  let pid: number
  try {
    pid = resolvePid(/^\d+$/.test(pidText) ? { pid: Number(pidText) } : { file: pidText })
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    throw new UsageError(cliInputMessage(e))
  }
  if (pid < 2 || pid > 4_194_304) throw new UsageError(`--pid: "${pid}" is not ${PID_FORM}`)
  // its own group would take this command down with it, and the shell that runs it
  if (pid === process.pid || pid === procStat(process.pid)?.pgrp)
    throw new UsageError(`--pid: ${pid} is this command's own process or process group`)
  let timeoutMs: number
  try {
    timeoutMs = parseDuration(String(values.timeout))
  } catch {
    throw new UsageError(`--timeout: "${printable(String(values.timeout))}" is not ${DURATION_FORM}`)
  }
  const record = await stopServer(
    { pid, timeoutMs },
    { clock: systemClock, gpu: () => gpuSnapshot({ env: io.env, timeoutMs: 5_000 }) }
  )
  for (const line of stopLines(record)) {
    if (line.level === 'warning') say(paint.yellow(`warning: ${line.text}`))
    else if (line.level === 'info') say(line.text)
  }
  if (values.json) io.stdout.write(`${JSON.stringify(record)}\n`)
  return record.outcome === 'survived' || record.gpu.kind === 'held' ? 1 : 0
}

function stopHelpText(): string {
  return [
    'wait-for-model stop: stop a model server and wait until its processes and their GPU memory are gone.',
    '',
    'Usage: wait-for-model stop --pid N [--timeout 30s] [--json]',
    '',
    ...table([
      [
        '--pid PID|FILE',
        'the server: the leader of its process group (as --start launches it), or a file holding its pid'
      ],
      ['--timeout DURATION', `from SIGTERM until SIGKILL (default: ${STOP_DEFAULTS.timeout})`],
      ['--json', 'print how it went as one JSON object on stdout'],
      ['-h, --help', 'show this help']
    ]),
    '',
    'SIGTERM goes to the whole process group (or, for a process that does not lead one, to it and its descendants).',
    'Where nvidia-smi exists, waits (up to 30s) until none of its processes holds GPU memory.',
    'Exit status: 0 stopped (or not running), 1 still running after SIGKILL or its GPU memory still held, 2 bad usage.',
    ''
  ].join('\n')
}

const SIMULATOR_EVENT_WORDS = {
  listening: 'port open, answering HTTP',
  ready: 'model ready',
  crashed: 'crashed: the port is closed and the process exits'
} as const

/** The runner's form (INPUT_MATCH-REGEX) first, then the one a shell can set (INPUT_MATCH_REGEX). */
function envInput(env: NodeJS.ProcessEnv, name: string): string | undefined {
  return env[inputVariable(name)] ?? env[shellInputVariable(name)]
}

function helpText(): string {
  const rows: Array<[string, string]> = INPUT_NAMES.map((name) => {
    const [metavar, text] = INPUT_HELP[name] ?? ['VALUE', '']
    const value = INPUT_DEFAULTS[name]
    return [`--${name} ${metavar}`, `${text}${value === '' ? '' : ` (default: ${value})`}`]
  })
  const own: Array<[string, string]> = [
    ['--json', 'print the outputs as one JSON object on stdout (numbers, booleans and lists as JSON values)'],
    [
      '--summary-file PATH',
      "write the action's job summary (Markdown) to this file, for GitLab, Buildkite, Jenkins, …"
    ],
    ['-h, --help', 'show this help'],
    ['-V, --version', 'print the version']
  ]
  return [
    `wait-for-model ${pkg.version}: wait until a model server is ready and lists the model you expect.`,
    '',
    'Usage:',
    '  wait-for-model --url URL [options]',
    '  wait-for-model check --url URL [--model NAME] [--request-timeout 5s]   (probe once: exit 0 ready, 1 not)',
    '  wait-for-model simulate --engine ENGINE --model NAME [--load 30s] [--port 8000] [--crash-after 10s] [--generation-fails] [--unloaded]',
    '                          [--tokens-per-second 100] [--ttft 50]',
    '  wait-for-model stop --pid N [--timeout 30s]',
    '  wait-for-model history [--key KEY] [--file PATH] [--format table|json|csv]',
    '  wait-for-model demo',
    '',
    'Options (each also read from INPUT_<NAME>, e.g. INPUT_TIMEOUT=20m or INPUT_MATCH_REGEX=...):',
    ...table(rows),
    '',
    'Of the command line only:',
    ...table(own),
    '',
    `Durations: ${DURATION_FORM.replace(/^a duration such as /, '')}.`,
    'Progress goes to stderr. Exit status: 0 ready, 1 not ready (timeout, unauthorized, tls), 2 bad usage.',
    ''
  ].join('\n')
}

function simulateHelpText(): string {
  return [
    'wait-for-model simulate: serve an imitation of a model server starting up (no GPU needed).',
    '',
    'Usage: wait-for-model simulate --engine ENGINE --model NAME [options]',
    '',
    ...table([
      ['--engine ENGINE', ENGINE_WORDS],
      ['--model NAME', 'the model the engine lists, e.g. /shared/kimi-k2.5-int4'],
      ['--load DURATION', `time until the engine answers with the model ready (default: ${SIMULATE_DEFAULTS.load})`],
      ['--port PORT', `port to serve on (default: ${SIMULATE_DEFAULTS.port})`],
      ['--host HOST', `address to bind (default: ${SIMULATE_DEFAULTS.host})`],
      ['--crash-after DURATION', 'the engine dies this long after the start: the port closes and the process exits 1'],
      ['--generation-fails', "every generation request gets the engine's own error (to try --probe-generation)"],
      ['--unloaded', 'llama.cpp (router mode) and Ollama: listed, loaded only when asked (to try --load true)'],
      [
        '--tokens-per-second N',
        `the pace of streamed generations, for the smoke test (default: ${DEFAULT_PACE.tokensPerSecond})`
      ],
      ['--ttft MS', `milliseconds from a streamed request to its first token (default: ${DEFAULT_PACE.ttftMs})`],
      ['-h, --help', 'show this help']
    ]),
    ''
  ].join('\n')
}

interface Painter {
  red(text: string): string
  green(text: string): string
  yellow(text: string): string
}

/** Colour only on a terminal, and never when NO_COLOR is set to anything (https://no-color.org). */
function painter(io: CliIo): Painter {
  const on = io.stderr.isTTY === true && !io.env.NO_COLOR
  const wrap = (code: number) => (text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text)
  return { red: wrap(31), green: wrap(32), yellow: wrap(33) }
}
