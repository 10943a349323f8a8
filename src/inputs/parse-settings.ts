/**
 * Turns raw input strings (from the action's inputs or the CLI's flags) into typed, validated settings.
 * Nothing below this module reads inputs; every error names the input and the form it accepts. The inputs are
 * read in action.yml's order, each rule between them where the last input it involves is read.
 */
import { InputError, ProblemError } from './input-error.js'
import type { InputName } from './input-names.js'
import { type InputReader, inputReader } from './input-reader.js'
import { checkLogFile, readCaCert } from './input-files.js'
import { readFleet } from './fleet.js'
import { readCredentials } from './credentials.js'
import {
  checkContainer,
  checkDiagnostics,
  checkEnvReport,
  checkFailPattern,
  checkPid,
  checkStart,
  generationFor
} from './cross-field-rules.js'
import { oneOf, parseContainer, parseEngine, parseEnvNames, parsePid, parseUrls } from './forms.js'
import { parseBoolean, parsePercent, parseRegex, parseStatusSet } from './parse.js'
import { hasControlChars, printable } from '../runtime/text.js'
import { isSymlink } from '../runtime/own-files.js'
import {
  GPU_CHECKS,
  type GpuSettings,
  MODEL_MATCH_MODES,
  HISTORY_AUTO,
  type HistorySettings,
  type ProbeSettings,
  SCHEDULE_MODES,
  type Server,
  type ServerSettings,
  type Settings,
  type SmokeTestSettings,
  STOP_MODES,
  type WaitSettings
} from './settings.js'
import { MEDIAN_OF } from '../history/record.js'
import { currentPlatform, type Platform } from '../runtime/platform.js'

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
  const read = inputReader(get)
  const { urls, model, modelMatch, wrongModelAfterMs, match, matchRegex, status } = readRequest(read)
  const { intervalMs, schedule, timeoutMs, requestTimeoutMs, progressIntervalMs, successThreshold } = readPace(read)
  const { headers, secrets } = readCredentials(read, urls, env)
  const failOnTimeout = read.field('fail-on-timeout', parseBoolean)
  const fleetMinReady = read.field('fleet-min-ready', (t) => parseMinReady(t, urls.length))
  const server = readServer(read, platform, urls.length)
  const probeGeneration = read.field('probe-generation', parseBoolean)
  const load = read.field('load', parseBoolean)
  const { smoke } = readSmoke(read)
  const targets = urls.map((url) => ({ url, generation: probeGeneration ? generationFor(url, model) : undefined }))
  // one server behind every endpoint, or one per endpoint
  const servers = server.servers.map((own, i): Server => ({
    targets: server.servers.length === 1 ? targets : [targets[i]],
    ...own
  }))
  const caPath = read.text('ca-cert')
  const caCert = caPath === undefined ? undefined : read.field('ca-cert', () => readCaCert(caPath))
  const insecureTls = read.field('insecure-tls', parseBoolean)
  // The startup profile and the history of runs.
  const engineText = read.input('engine').trim().toLowerCase()
  const engine = engineText === 'auto' ? undefined : read.field('engine', () => parseEngine(engineText))
  const history = readHistory(read, get)
  return {
    model,
    modelMatch,
    wrongModelAfterMs,
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
    fleetMinReady,
    caCert,
    insecureTls,
    secrets,
    servers,
    logLines: server.logLines,
    failPattern: server.failPattern,
    portCheck: server.portCheck,
    gpuCheck: server.gpuCheck,
    stop: server.stop,
    stopTimeoutMs: server.stopTimeoutMs,
    probeGeneration,
    load,
    smoke,
    envReport: server.envReport,
    diagnostics: server.diagnostics,
    engine,
    ...history
  }
}

/** What to ask (`url`) and what the answer must show. */
function readRequest(
  read: InputReader
): { urls: URL[] } & Pick<
  ProbeSettings,
  'model' | 'modelMatch' | 'wrongModelAfterMs' | 'match' | 'matchRegex' | 'status'
> {
  const urls = read.field('url', parseUrls)
  const model = read.text('model')
  const modelMatch = read.field('model-match', (t) => oneOf(t, MODEL_MATCH_MODES))
  const wrongModelAfterMs = read.duration('wrong-model-after', 0)
  const match = read.text('match')
  const regexText = read.input('match-regex')
  const matchRegex = regexText.trim() === '' ? undefined : read.field('match-regex', parseRegex)
  const status = read.field('status', parseStatusSet)
  return { urls, model, modelMatch, wrongModelAfterMs, match, matchRegex, status }
}

/** How probes are spaced and timed, and how long the wait lasts. */
function readPace(
  read: InputReader
): Omit<WaitSettings, 'failOnTimeout' | 'fleetMinReady'> &
  Pick<ProbeSettings, 'requestTimeoutMs' | 'successThreshold'> {
  const intervalMs = read.duration('interval', 100)
  const schedule = read.field('schedule', (t) => oneOf(t, SCHEDULE_MODES))
  const timeoutMs = read.duration('timeout', 1)
  const requestTimeoutMs = read.duration('request-timeout', 1)
  const progressIntervalMs = read.duration('progress-interval', 1000)
  const successThreshold = read.whole('success-threshold', 1, 1000)
  return { intervalMs, schedule, timeoutMs, requestTimeoutMs, progressIntervalMs, successThreshold }
}

/** The server: how it starts or which process it is, its log, and what to report about it. */
function readServer(
  read: InputReader,
  platform: Platform,
  endpoints: number
): Omit<ServerSettings, 'engine' | 'servers'> & GpuSettings & { servers: Array<Omit<Server, 'targets'>> } {
  // a fleet of servers, one per url line; else one server (or none) behind every endpoint
  const servers = readFleet(read, endpoints, platform) ?? [readOneServer(read, platform)]
  // what a server needs is the same for each of a fleet's: the first one's kind speaks for all
  const kind = servers[0]
  const logLines = read.whole('log-lines', 0, 1000)
  const failPatternText = read.input('fail-pattern')
  const failPattern = failPatternText.trim() === '' ? undefined : read.field('fail-pattern', parseRegex)
  checkFailPattern(failPattern, kind.logFile ?? kind.container, kind.start)
  const portCheck = read.field('port-check', parseBoolean)
  const gpuCheck = read.field('gpu-check', (t) => oneOf(t, GPU_CHECKS))
  const stop = read.field('stop', (t) => oneOf(t, STOP_MODES))
  const stopTimeoutMs = read.duration('stop-timeout', 1)
  const envReport = read.field('env-report', parseEnvNames)
  // a container's environment is the engine's to tell (Config.Env) where /proc cannot
  checkEnvReport(envReport, { start: kind.start ?? kind.container, pid: kind.pid }, platform)
  const diagnostics = (read.script('diagnostics') ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  checkDiagnostics(diagnostics, platform)
  return {
    servers,
    logLines,
    failPattern,
    portCheck,
    gpuCheck,
    stop,
    stopTimeoutMs,
    envReport,
    diagnostics
  }
}

/** One server (or none) for every endpoint: `start`, `pid`, `container` and `log-file` as one value each. */
function readOneServer(read: InputReader, platform: Platform): Omit<Server, 'targets'> {
  const start = read.script('start')
  checkStart(start, platform)
  const pid = read.field('pid', (t) => parsePid(t.trim()))
  checkPid(pid, start)
  const container = read.field('container', (t) => parseContainer(t.trim()))
  checkContainer(container, pid)
  const logFile = read.text('log-file')
  // the container's output, else the started server's, is appended to it: through a link, to wherever it points
  const writer = container !== undefined ? 'container' : start !== undefined ? 'start' : undefined
  if (logFile !== undefined) read.field('log-file', () => checkLogFile(logFile, writer))
  return { start, pid, container, logFile }
}

/** `fleet-min-ready`: `all`, or how many of the `endpoints` must be ready (1 to all of them). */
function parseMinReady(text: string, endpoints: number): number {
  const word = text.trim().toLowerCase()
  if (word === 'all') return endpoints
  if (/^\d+$/.test(word) && Number(word) >= 1 && Number(word) <= endpoints) return Number(word)
  throw new ProblemError({
    value: printable(text.trim()),
    form: `"all" or a whole number from 1 to ${endpoints} (the number of "url" lines)`
  })
}

const SMOKE_MODES = ['false', 'true', 'fail-on-error'] as const

/** `smoke-test` and its figures, read (and checked) whether the smoke test runs or not. */
function readSmoke(read: InputReader): SmokeTestSettings {
  const smokeMode = read.field('smoke-test', (t) => {
    const word = t.trim().toLowerCase()
    return /^(true|yes|on)$/.test(word) ? 'true' : /^(false|no|off)$/.test(word) ? 'false' : oneOf(t, SMOKE_MODES)
  })
  const requests = read.whole('smoke-requests', 1, 100)
  // the decode rate is timed from the first token to the last: it takes two
  const tokens = read.whole('smoke-tokens', 2, 4096, ' (the decode rate is timed from the first token to the last)')
  const timeoutMs = read.duration('smoke-timeout', 100)
  if (smokeMode === 'false') return { smoke: undefined }
  return { smoke: { failOnError: smokeMode === 'fail-on-error', requests, tokens, timeoutMs } }
}

/** Where earlier runs are kept, which compare with this one, and what counts as a regression. */
function readHistory(read: InputReader, get: (name: InputName) => string): HistorySettings {
  // Read as given: an empty value turns history off (the runner passes the default, "auto", when it is not set).
  const historyRaw = (get('history-file') ?? '').trim()
  if (hasControlChars(historyRaw))
    throw new InputError('history-file', { value: printable(historyRaw), problem: 'contains a control character' })
  const historyFile = historyRaw === '' ? undefined : historyRaw
  // written to and renamed over: a link would send the writes, and then the rename, wherever it points
  if (historyFile !== undefined && historyFile !== HISTORY_AUTO && isSymlink(historyFile))
    throw new InputError('history-file', {
      value: printable(historyFile),
      problem: 'is a symbolic link, which is never followed',
      form: 'the path of a regular file (or of one to create), not a link to it'
    })
  const historyKey = read.text('history-key')
  if (historyKey !== undefined && historyKey.length > 200)
    throw new InputError('history-key', { problem: `is ${historyKey.length} characters long; give at most 200` })
  const regressionThresholdPercent = read.field('regression-threshold', parsePercent)
  const regressionMinRuns = read.whole(
    'regression-min-runs',
    1,
    MEDIAN_OF,
    ` (the median is of the last ${MEDIAN_OF} ready runs)`
  )
  const throughputRegressionPercent = read.field('throughput-regression-threshold', parsePercent)
  const failOnRegression = read.field('fail-on-regression', parseBoolean)
  return {
    historyFile,
    historyKey,
    regressionThresholdPercent,
    regressionMinRuns,
    throughputRegressionPercent,
    failOnRegression
  }
}
