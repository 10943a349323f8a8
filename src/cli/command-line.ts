/**
 * The command-line layer: argv and INPUT_* variables in; progress on stderr, outputs as JSON on stdout, and an
 * exit code out (0 ready, 1 not ready, 2 bad usage). Every flag of the wait comes from the action's inputs.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import pkg from '../../package.json' with { type: 'json' }
import { demo } from './demo.js'
import { gate } from '../wait/gate.js'
import { conclude } from '../wait/conclusion.js'
import { defaultHistoryFile } from '../history/store.js'
import { DURATION_FORM, parseDuration, printable } from '../inputs/parse.js'
import { runCommand, runDiagnostics } from '../server/diagnostics.js'
import { commandSafe, INSECURE_TLS_WARNING, redact } from '../report/wait-report.js'
import { INPUT_DEFAULTS, InputError, type InputName, parseSettings, PID_FORM } from '../inputs/settings.js'
import { inputVariable, shellInputVariable } from '../inputs/variables.js'
import { type EngineName, SIMULATED_ENGINES, simulate, simulatedEngine } from '../simulator/server.js'
import { formatDuration, systemClock } from '../runtime/clock.js'
import { stopServer } from '../server/stop.js'
import { gpuSnapshot } from '../gpu/nvidia-smi.js'
import { resolvePid } from '../server/process.js'
import { procStat } from '../server/proc.js'
import { stopLines } from '../report/lifecycle-report.js'

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
  'probe-generation': ['BOOL', 'true: ready only once a one-token generation request succeeds'],
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
    if (argv[0] === 'demo') return await demo(join(dirname(fileURLToPath(import.meta.url)), 'index.js'), io.stdout)
    return await waitCommand(argv, io, say, paint)
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    say(paint.red(`wait-for-model: ${e.message}`))
    say('Run "wait-for-model --help" for usage.')
    return 2
  }
}

class UsageError extends Error {}

async function waitCommand(argv: string[], io: CliIo, say: (line: string) => void, paint: Painter): Promise<number> {
  const options: ParseArgsConfig['options'] = {
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'V' }
  }
  for (const name of INPUT_NAMES) options[name] = { type: 'string', multiple: MULTI_LINE.has(name) }
  const { values } = parseCommandLine(argv, options)
  if (values.help) return (void io.stdout.write(helpText()), 0)
  if (values.version) return (void io.stdout.write(`${pkg.version}\n`), 0)

  const flag = (name: InputName): string | undefined => {
    const v = values[name]
    return Array.isArray(v) ? v.join('\n') : typeof v === 'string' ? v : undefined
  }
  let settings
  try {
    // Like the runner, an input not given takes its default (an empty history-file is history off).
    settings = parseSettings((name) => flag(name) ?? envInput(io.env, name) ?? INPUT_DEFAULTS[name])
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    // Name the input as the user gave it: a flag, or the INPUT_* variable.
    const source =
      flag(e.input as InputName) === undefined && envInput(io.env, e.input) !== undefined
        ? shellInputVariable(e.input)
        : `--${e.input}`
    throw new UsageError(e.message.replace(`Input "${e.input}"`, source))
  }
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
  if (next.verdict !== undefined) {
    const { kind, message } = next.verdict
    log(kind === 'warn' ? paint.yellow(`warning: ${message}`) : paint.red(`error: ${message}`))
  }
  if (values.json) io.stdout.write(`${JSON.stringify(next.outputs)}\n`)
  if (next.failedRegression !== undefined) log(paint.red(`error: ${next.failedRegression}`))
  return next.exitCode
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
    throw new UsageError(e.message.replace('Input "pid"', '--pid'))
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

function parseCommandLine(argv: string[], options: ParseArgsConfig['options']): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

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
  rows.push(
    ['--json', 'print the outputs as one JSON object on stdout'],
    ['-h, --help', 'show this help'],
    ['-V, --version', 'print the version']
  )
  return [
    `wait-for-model ${pkg.version}: wait until a model server is ready and lists the model you expect.`,
    '',
    'Usage:',
    '  wait-for-model --url URL [options]',
    '  wait-for-model simulate --engine ENGINE --model NAME [--load 30s] [--port 8000] [--crash-after 10s] [--generation-fails]',
    '  wait-for-model stop --pid N [--timeout 30s]',
    '  wait-for-model demo',
    '',
    'Options (each also read from INPUT_<NAME>, e.g. INPUT_TIMEOUT=20m or INPUT_MATCH_REGEX=...):',
    ...table(rows),
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
      ['-h, --help', 'show this help']
    ]),
    ''
  ].join('\n')
}

const table = (rows: Array<[string, string]>): string[] => {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`.trimEnd())
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
