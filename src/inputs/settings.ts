/**
 * Turns raw input strings (from the action's inputs or the CLI's flags) into typed, validated settings.
 * Nothing below this module reads inputs; every error names the input and the form it accepts.
 */
import { readFileSync, type Stats, statSync } from 'node:fs'
import { SCHEDULE_MODES, type ScheduleMode } from '../wait/schedule.js'
import {
  DURATION_FORM,
  isLatin1,
  LATIN1_FORM,
  parseBoolean,
  parseDuration,
  parseHeaders,
  parsePercent,
  parseRegex,
  parseStatusSet,
  type StatusSet
} from './parse.js'
import { hasControlChars, printable } from '../runtime/text.js'
import { credentialParts, isCredentialName, MIN_SECRET_CHARS, proxySecrets } from './secrets.js'
import { LOG_ENGINE_NAMES, type LogEngine } from '../engines/log-engines.js'
import { GENERATION_ROUTES, type GenerationRoute, generationRoute } from '../engines/model-lists.js'
import { MEDIAN_OF } from '../history/limits.js'
import type { SmokeSettings } from '../smoke/measure.js'
import { currentPlatform, osName, type Platform } from '../runtime/platform.js'

/** One endpoint to wait for; a fleet has several, all of which must be ready. */
export interface Target {
  url: URL
  /** With `probe-generation`: how to ask this server for a token. */
  generation?: { route: GenerationRoute; base: string }
}

export interface Settings {
  /** One per line of the `url` input, in order. */
  targets: Target[]
  model?: string
  match?: string
  matchRegex?: RegExp
  status: StatusSet
  intervalMs: number
  /** How probes are spaced while the server answers but is not ready. */
  schedule: ScheduleMode
  timeoutMs: number
  requestTimeoutMs: number
  successThreshold: number
  /** Lower-cased names; includes `authorization` when `api-key` is set. */
  headers: Record<string, string>
  progressIntervalMs: number
  failOnTimeout: boolean
  /** Extra trusted certificates (PEM text of `ca-cert`), added to the built-in ones. */
  caCert?: string
  /** Skip certificate checks altogether. */
  insecureTls: boolean
  /** Values that must never appear in output (the api-key, credential headers). */
  secrets: string[]
  /** Shell command that launches the server in the background. */
  start?: string
  /** A server started elsewhere: its process id, or a file holding it (read when the wait begins). */
  pid?: { pid: number } | { file: string }
  /** The server's log; with `start` and none given, the gate picks one. */
  logFile?: string
  logLines: number
  failPattern?: RegExp
  /**
   * Before `start`, a port already held ends the wait (`port-busy`); with `start` or `pid`, an answer on a local
   * port from another process ends it (`wrong-server`). false: a proxy in front of the server answers there.
   */
  portCheck: boolean
  /** Before `start`: what other processes holding memory on the server's GPUs do (nvidia-smi). */
  gpuCheck: GpuCheck
  /** `job-end`: the action's post step stops the server `start` launched; `never`: left to the runner. */
  stop: StopMode
  /** At the job's end, from SIGTERM until SIGKILL. */
  stopTimeoutMs: number
  /** Asks a server that lists the model without having loaded it (llama.cpp router, Ollama) to load it. */
  load: boolean
  /** Each target then carries its generation request. */
  probeGeneration: boolean
  /** Once ready: streamed generation requests that measure the time to first token and the decode rate. */
  smoke?: SmokeSettings
  /** Variable names or globs (`NCCL_*`) to report from the server's environment. */
  envReport: string[]
  /** Commands run when the wait fails, one per entry. */
  diagnostics: string[]
  /** The engine whose log lines to read; undefined: recognised from the log or the model list. */
  engine?: LogEngine
  /** Where earlier runs are kept: HISTORY_AUTO for the default place, a path, or undefined (history off). */
  historyFile?: string
  /** Which earlier runs compare with this one; undefined: from the URL, the model and `start`. */
  historyKey?: string
  /** Slower than the median of earlier runs by more than this many percent is a regression. */
  regressionThresholdPercent: number
  /** Earlier ready runs with the key needed before a regression is told (or fails the step). */
  regressionMinRuns: number
  /** A smoke test's decode rate below the median of earlier runs by more than this many percent is a regression. */
  throughputRegressionPercent: number
  failOnRegression: boolean
}

/** Input name → default, in the order action.yml declares them. */
export const INPUT_DEFAULTS = {
  url: '',
  model: '',
  match: '',
  'match-regex': '',
  status: '200-299',
  interval: '5s',
  schedule: 'adaptive',
  timeout: '15m',
  'request-timeout': '10s',
  'success-threshold': '1',
  headers: '',
  'api-key': '',
  'progress-interval': '30s',
  'fail-on-timeout': 'true',
  start: '',
  pid: '',
  'log-file': '',
  'log-lines': '50',
  'fail-pattern': '',
  'port-check': 'true',
  'gpu-check': 'warn',
  stop: 'job-end',
  'stop-timeout': '30s',
  'probe-generation': 'false',
  load: 'false',
  'smoke-test': 'false',
  'smoke-requests': '3',
  'smoke-tokens': '64',
  'smoke-timeout': '2m',
  'env-report': '',
  diagnostics: '',
  'ca-cert': '',
  'insecure-tls': 'false',
  engine: 'auto',
  'history-file': 'auto',
  'history-key': '',
  'regression-threshold': '25%',
  'regression-min-runs': '3',
  'throughput-regression-threshold': '15%',
  'fail-on-regression': 'false'
} as const

/** `history-file: auto`: the runner's tool cache for the action, the user's cache directory for the CLI. */
export const HISTORY_AUTO = 'auto'

const GPU_CHECKS = ['warn', 'fail', 'off'] as const
export type GpuCheck = (typeof GPU_CHECKS)[number]
const STOP_MODES = ['job-end', 'never'] as const
const SMOKE_MODES = ['false', 'true', 'fail-on-error'] as const
type StopMode = (typeof STOP_MODES)[number]

export type InputName = keyof typeof INPUT_DEFAULTS

export class InputError extends Error {
  constructor(
    readonly input: string,
    detail: string
  ) {
    super(`Input "${input}": ${detail}`)
    this.name = 'InputError'
  }
}

const MAX_INPUT_LENGTH = 64 * 1024

/**
 * Reads every input through `get` (which returns '' for an unset input) and validates it, also against what
 * `platform` can do. `env` is the environment the probes and the server run in, for the proxy credentials it may
 * hold, masked as the inputs' secrets are: the front ends pass theirs.
 */
export function parseSettings(
  get: (name: InputName) => string,
  platform: Platform = currentPlatform(),
  env: Readonly<Record<string, string | undefined>> = {}
): Settings {
  const input = (name: InputName): string => {
    const raw = get(name) ?? ''
    if (raw.length > MAX_INPUT_LENGTH)
      throw new InputError(name, `is ${raw.length} characters long; the limit is ${MAX_INPUT_LENGTH}`)
    return raw.trim() === '' ? INPUT_DEFAULTS[name] : raw
  }
  const field = <T>(name: InputName, parse: (text: string) => T): T => {
    try {
      return parse(input(name))
    } catch (e) {
      throw e instanceof InputError ? e : new InputError(name, (e as Error).message)
    }
  }
  const text = (name: InputName): string | undefined => {
    const value = input(name).trim()
    // the api-key is never shown, not even in its own error
    if (hasControlChars(value))
      throw new InputError(
        name,
        `${name === 'api-key' ? 'the key' : `"${printable(value)}"`} contains a control character`
      )
    return value === '' ? undefined : value
  }
  const duration = (name: InputName, minMs: number): number =>
    field(name, (t) => {
      const ms = parseDuration(t)
      if (ms < minMs) throw new Error(`"${printable(t)}" is too short: give at least ${minMs}ms, as ${DURATION_FORM}`)
      return ms
    })

  const urls = field('url', parseUrls)
  const model = text('model')
  const match = text('match')
  const regexText = input('match-regex')
  const matchRegex = regexText.trim() === '' ? undefined : field('match-regex', parseRegex)
  const status = field('status', parseStatusSet)
  const intervalMs = duration('interval', 100)
  const schedule = field('schedule', (t) => {
    const mode = SCHEDULE_MODES.find((m) => m === t.trim().toLowerCase())
    if (mode === undefined) throw new Error(`"${printable(t)}" is not one of ${SCHEDULE_MODES.join(', ')}`)
    return mode
  })
  const timeoutMs = duration('timeout', 1)
  const requestTimeoutMs = duration('request-timeout', 1)
  const progressIntervalMs = duration('progress-interval', 1000)
  const successThreshold = field('success-threshold', (t) => {
    if (!/^\s*\d+\s*$/.test(t) || Number(t) < 1 || Number(t) > 1000) {
      throw new Error(`"${printable(t)}" is not a whole number from 1 to 1000`)
    }
    return Number(t)
  })
  const headers = field('headers', parseHeaders)
  // Each credential is registered whole and in the parts a server may echo alone; one too short to mask is refused.
  const secrets: string[] = []
  const secret = (input: InputName, value: string, what: string): void => {
    if (value.length < MIN_SECRET_CHARS)
      throw new InputError(
        input,
        `${what} has fewer than ${MIN_SECRET_CHARS} characters, too short to be kept out of the logs`
      )
    secrets.push(value)
  }
  for (const [name, value] of Object.entries(headers).filter(([n]) => isCredentialName(n))) {
    secret('headers', value, `the ${name} value`)
    for (const part of credentialParts(name, value)) {
      // a cookie that is not a credential (lang=en) may be short; the header's whole value is still masked
      if (/cookie/i.test(name) && part.length < MIN_SECRET_CHARS) continue
      secret('headers', part, `the ${name} credential`)
    }
  }
  const apiKey = text('api-key')
  if (apiKey !== undefined) {
    if (/\s/.test(apiKey)) throw new InputError('api-key', 'contains white space; give the key alone, without "Bearer"')
    // never shown: only where it goes wrong
    if (!isLatin1(apiKey)) throw new InputError('api-key', `contains a character outside Latin-1 (${LATIN1_FORM})`)
    secret('api-key', apiKey, 'the key')
    headers.authorization = `Bearer ${apiKey}`
  }
  // A token in a URL's query string (?api_key=…) is masked everywhere the URL is written (logs, summary, results):
  // as url.href writes it and as decoded.
  for (const url of urls)
    for (const pair of url.search.slice(1).split('&')) {
      const [[name, value] = ['', '']] = new URLSearchParams(pair)
      const raw = pair.slice(pair.indexOf('=') + 1)
      if (!pair.includes('=') || !isCredentialName(name) || value === '') continue
      secret('url', value, `the value of the query parameter "${printable(name)}"`)
      if (raw !== value) secrets.push(raw)
    }
  secrets.push(...proxySecrets(env))
  const failOnTimeout = field('fail-on-timeout', parseBoolean)

  // The server: how it starts or which process it is, its log, and what to report about it.
  const script = (name: InputName): string | undefined => {
    const value = input(name).trim()
    // scripts may span lines; other control characters are refused
    if (hasControlChars(value, '\t\n')) throw new InputError(name, 'contains a control character')
    return value === '' ? undefined : value
  }
  const start = script('start')
  // The server runs under `sh -c`, in its own process group: POSIX only (Windows runners have no /bin/sh).
  if (start !== undefined && platform.os === 'win32')
    throw new InputError(
      'start',
      `${needsShell(platform)}: start the server in an earlier step and give its process id with "pid"`
    )
  const pid = field('pid', (t) => parsePid(t.trim()))
  if (start !== undefined && pid !== undefined) {
    throw new InputError('pid', 'cannot be used with "start": the server "start" launches is the one watched')
  }
  const logFile = text('log-file')
  if (logFile !== undefined) field('log-file', () => checkLogFile(logFile))
  const logLines = field('log-lines', (t) => {
    if (!/^\s*\d+\s*$/.test(t) || Number(t) > 1000)
      throw new Error(`"${printable(t)}" is not a whole number from 0 to 1000`)
    return Number(t)
  })
  const failPatternText = input('fail-pattern')
  const failPattern = failPatternText.trim() === '' ? undefined : field('fail-pattern', parseRegex)
  if (failPattern !== undefined && logFile === undefined && start === undefined) {
    throw new InputError('fail-pattern', 'needs a log to watch: set "log-file", or "start" (which writes one)')
  }
  const portCheck = field('port-check', parseBoolean)
  const gpuCheck = field('gpu-check', (t) => oneOf(t, GPU_CHECKS))
  const stop = field('stop', (t) => oneOf(t, STOP_MODES))
  const stopTimeoutMs = duration('stop-timeout', 1)
  const envReport = field('env-report', parseEnvNames)
  if (envReport.length > 0 && start === undefined && pid === undefined) {
    throw new InputError('env-report', 'needs the server process: set "start" or "pid"')
  }
  // A process started elsewhere shows its environment only in /proc/<pid>/environ; one that `start` launches
  // is reported with the environment the gate gave it.
  if (envReport.length > 0 && start === undefined && !platform.hasProc) {
    const orStart =
      platform.os === 'win32' ? '' : ', or launch the server with "start" (then its environment is the one given to it)'
    throw new InputError(
      'env-report',
      `with "pid", reads the server's environment from /proc, which this machine (${osName(platform)}) does not ` +
        `have: remove "env-report"${orStart}`
    )
  }
  const diagnostics = (script('diagnostics') ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  // each command runs as `timeout … /bin/sh -c command`
  if (diagnostics.length > 0 && platform.os === 'win32')
    throw new InputError('diagnostics', `${needsShell(platform)}: run them in a later step with "if: failure()"`)
  const probeGeneration = field('probe-generation', parseBoolean)
  const load = field('load', parseBoolean)
  const smokeMode = field('smoke-test', (t) => {
    const word = t.trim().toLowerCase()
    return /^(true|yes|on)$/.test(word) ? 'true' : /^(false|no|off)$/.test(word) ? 'false' : oneOf(t, SMOKE_MODES)
  })
  const whole = (name: InputName, min: number, max: number, why = ''): number =>
    field(name, (t) => {
      if (!/^\s*\d+\s*$/.test(t) || Number(t) < min || Number(t) > max)
        throw new Error(`"${printable(t)}" is not a whole number from ${min} to ${max}${why}`)
      return Number(t)
    })
  const smokeRequests = whole('smoke-requests', 1, 100)
  // the decode rate is timed from the first token to the last: it takes two
  const smokeTokens = whole('smoke-tokens', 2, 4096, ' (the decode rate is timed from the first token to the last)')
  const smokeTimeoutMs = duration('smoke-timeout', 100)
  const smoke: SmokeSettings | undefined =
    smokeMode === 'false'
      ? undefined
      : {
          failOnError: smokeMode === 'fail-on-error',
          requests: smokeRequests,
          tokens: smokeTokens,
          timeoutMs: smokeTimeoutMs
        }
  const targets = urls.map((url) => ({ url, generation: probeGeneration ? generationFor(url, model) : undefined }))
  const caPath = text('ca-cert')
  const caCert = caPath === undefined ? undefined : field('ca-cert', () => readCaCert(caPath))
  const insecureTls = field('insecure-tls', parseBoolean)

  // The startup profile and the history of runs.
  const engineText = input('engine').trim().toLowerCase()
  const engine = engineText === 'auto' ? undefined : field('engine', () => parseEngine(engineText))
  // Read as given: an empty value turns history off (the runner passes the default, "auto", when it is not set).
  const historyRaw = (get('history-file') ?? '').trim()
  if (hasControlChars(historyRaw))
    throw new InputError('history-file', `"${printable(historyRaw)}" contains a control character`)
  const historyFile = historyRaw === '' ? undefined : historyRaw
  const historyKey = text('history-key')
  if (historyKey !== undefined && historyKey.length > 200)
    throw new InputError('history-key', `is ${historyKey.length} characters long; give at most 200`)
  const regressionThresholdPercent = field('regression-threshold', parsePercent)
  const regressionMinRuns = field('regression-min-runs', (t) => {
    if (!/^\s*\d+\s*$/.test(t) || Number(t) < 1 || Number(t) > MEDIAN_OF)
      throw new Error(
        `"${printable(t)}" is not a whole number from 1 to ${MEDIAN_OF} (the median is of the last ${MEDIAN_OF} ready runs)`
      )
    return Number(t)
  })
  const throughputRegressionPercent = field('throughput-regression-threshold', parsePercent)
  const failOnRegression = field('fail-on-regression', parseBoolean)
  return {
    targets,
    model,
    match,
    matchRegex,
    status,
    intervalMs,
    schedule,
    timeoutMs,
    requestTimeoutMs,
    successThreshold,
    headers,
    progressIntervalMs,
    failOnTimeout,
    caCert,
    insecureTls,
    secrets: secrets.filter((s) => s.length > 0),
    start,
    pid,
    logFile,
    logLines,
    failPattern,
    portCheck,
    gpuCheck,
    stop,
    stopTimeoutMs,
    probeGeneration,
    load,
    smoke,
    envReport,
    diagnostics,
    engine,
    historyFile,
    historyKey,
    regressionThresholdPercent,
    regressionMinRuns,
    throughputRegressionPercent,
    failOnRegression
  }
}

const needsShell = (platform: Platform): string =>
  `needs a POSIX shell (/bin/sh), which this machine (${osName(platform)}) does not have`

function oneOf<T extends string>(text: string, words: readonly T[]): T {
  const word = text.trim().toLowerCase()
  if (!(words as readonly string[]).includes(word))
    throw new Error(`"${printable(text)}" is not one of ${words.join(', ')}`)
  return word as T
}

const ENGINE_FORM = `auto or one of ${LOG_ENGINE_NAMES.map((e) => (e === 'llamacpp' ? 'llama.cpp' : e)).join(', ')}`

function parseEngine(text: string): LogEngine {
  const name = text === 'llama.cpp' ? 'llamacpp' : text
  if (!(LOG_ENGINE_NAMES as readonly string[]).includes(name))
    throw new Error(`"${printable(text)}" is not ${ENGINE_FORM}`)
  return name as LogEngine
}

export const PID_FORM = 'a process id (12345) or the path of a file holding one'

function parsePid(text: string): Settings['pid'] {
  if (text === '') return undefined
  if (!/^\d+$/.test(text)) return { file: text }
  const pid = Number(text)
  // Linux caps pid_max at 2^22.
  if (pid < 1 || pid > 4_194_304) throw new Error(`"${printable(text)}" is not ${PID_FORM}`)
  return { pid }
}

const ENV_NAME_FORM = 'comma-separated variable names or globs such as NCCL_*,CUDA_VISIBLE_DEVICES'

function parseEnvNames(text: string): string[] {
  const names = text
    .split(/[,\n]/)
    .map((n) => n.trim())
    .filter((n) => n !== '')
  const bad = names.find((n) => !/^[A-Za-z_*?][A-Za-z0-9_*?]*$/.test(n))
  if (bad !== undefined) throw new Error(`"${printable(bad)}" is not a variable name or glob: give ${ENV_NAME_FORM}`)
  return names
}

function generationFor(url: URL, model: string | undefined): Target['generation'] {
  const found = generationRoute(url)
  if (found === undefined) {
    throw new InputError(
      'probe-generation',
      `no generation request is known for ${url.pathname}: point "url" at the server's model list, ` +
        GENERATION_ROUTES.map((r) => `${r.listPathText} (${r.servers})`).join(', ')
    )
  }
  if (found.route.needsModel && model === undefined) {
    throw new InputError(
      'probe-generation',
      `needs "model": the request to ${found.route.requests[0].path} names the model to generate with`
    )
  }
  return found
}

const CA_FORM = 'the path of a PEM file of CA certificates (-----BEGIN CERTIFICATE-----)'

/** Reads and checks the PEM file now, so that a wrong path fails before any request. */
function readCaCert(path: string): string {
  let pem: string
  try {
    pem = readFileSync(path, 'utf8')
  } catch (e) {
    throw new Error(
      `cannot read "${printable(path)}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): give ${CA_FORM}`,
      { cause: e }
    )
  }
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  if (blocks.length === 0) throw new Error(`"${printable(path)}" holds no certificate: give ${CA_FORM}`)
  for (const block of blocks) {
    try {
      // node:crypto only here, for a ca-cert: loading it costs 5 ms and 3 MB on Node 24
      new (process.getBuiltinModule('node:crypto').X509Certificate)(block)
    } catch {
      throw new Error(`"${printable(path)}" holds a certificate that cannot be read: give ${CA_FORM}`)
    }
  }
  return pem
}

/** What a path is when it is not a regular file, in words; undefined for a regular file. */
export function notRegularFile(stat: Stats): string | undefined {
  if (stat.isFile()) return undefined
  if (stat.isDirectory()) return 'a directory'
  if (stat.isFIFO()) return 'a FIFO'
  if (stat.isCharacterDevice()) return 'a character device'
  if (stat.isBlockDevice()) return 'a block device'
  if (stat.isSocket()) return 'a socket'
  return 'not a regular file'
}

/**
 * A log that exists must be a regular file (followed through symlinks): a FIFO blocks whoever opens it, and a
 * device such as /dev/zero never ends. One not written yet is fine: the server writes it.
 */
function checkLogFile(path: string): void {
  let stat: Stats
  try {
    stat = statSync(path)
  } catch {
    return
  }
  const what = notRegularFile(stat)
  if (what !== undefined)
    throw new Error(`"${printable(path)}" is ${what}: give the path of a regular file (the server's log)`)
}

const URL_FORM = 'an http:// or https:// URL such as http://localhost:8000/v1/models'

/** A fleet larger than this is more likely a mistake than a deployment. */
const MAX_URLS = 1000

/** One URL per line (blank lines skipped); a fleet's lines are named by number in errors. */
function parseUrls(text: string): URL[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  if (lines.length > MAX_URLS) throw new Error(`lists ${lines.length} URLs; the limit is ${MAX_URLS}`)
  if (lines.length <= 1) return [parseUrl(lines[0] ?? '')]
  return lines.map((line, i) => {
    try {
      return parseUrl(line)
    } catch (e) {
      throw new Error(`line ${i + 1}: ${(e as Error).message}`, { cause: e })
    }
  })
}

export function parseUrl(text: string): URL {
  const s = text.trim()
  if (s === '') throw new Error(`is required: give ${URL_FORM}`)
  // Messages show the text without any user:password@ part, even when it is not a valid URL.
  const shown = printable(s.replace(/^([a-z][a-z\d+.-]*:\/\/)?.*@/is, '$1***@'))
  // The URL parser would silently drop tabs and line breaks; a URL with them is a mistake or an injection.
  if (hasControlChars(s) || s.includes('\t'))
    throw new Error(`"${shown}" contains a control character: give ${URL_FORM}`)
  let url: URL
  try {
    url = new URL(s)
  } catch {
    throw new Error(`"${shown}" is not ${URL_FORM}`)
  }
  // Checked first so that a password never reaches a message.
  if (url.username || url.password) {
    throw new Error('must not carry credentials (user:password@); pass them with "api-key" or "headers"')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`"${shown}" is not ${URL_FORM}`)
  return url
}
