/**
 * Turns raw input strings (from the action's inputs or the CLI's flags) into typed, validated settings.
 * Nothing below this module reads inputs; every error names the input and the form it accepts. The inputs are
 * read in action.yml's order, each rule between them where the last input it involves is read; FIXED holds the
 * values no input sets.
 */
import { InputError } from './input-error.js'
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
import { parseBoolean, parsePercent, parseRegex } from './parse.js'
import { hasControlChars, printable } from '../runtime/text.js'
import { isSymlink } from '../runtime/own-files.js'
import {
  FIXED,
  GPU_CHECKS,
  type GpuSettings,
  MODEL_MATCH_MODES,
  HISTORY_AUTO,
  type HistorySettings,
  type ProbeSettings,
  type Server,
  type ServerSettings,
  type Settings,
  SMOKE_SIZES,
  type SmokeTestSettings,
  STOP_MODES
} from './settings.js'
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
  const { urls, ...request } = readRequest(read)
  const intervalMs = read.duration('interval', 100)
  const timeoutMs = read.duration('timeout', 1)
  const { headers, secrets } = readCredentials(read, urls, env)
  const server = readServer(read, platform, urls.length)
  const probeGeneration = read.field('probe-generation', parseBoolean)
  const load = read.field('load', parseBoolean)
  const smoke = readSmoke(read)
  const targets = urls.map((url) => ({
    url,
    generation: probeGeneration ? generationFor(url, request.model) : undefined
  }))
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
    ...FIXED,
    ...request,
    ...server,
    ...history,
    servers,
    intervalMs,
    timeoutMs,
    headers,
    secrets,
    caCert,
    insecureTls,
    probeGeneration,
    load,
    smoke,
    engine
  }
}

/** What to ask (`url`) and what the answer must show. */
function readRequest(
  read: InputReader
): { urls: URL[] } & Pick<ProbeSettings, 'model' | 'modelMatch' | 'match' | 'matchRegex'> {
  const urls = read.field('url', parseUrls)
  const model = read.text('model')
  const modelMatch = read.field('model-match', (t) => oneOf(t, MODEL_MATCH_MODES))
  const match = read.text('match')
  // `/source/flags` is a regular expression; any other text is literal
  if (match !== undefined && /^\/.+\/[dgimsuvy]*$/s.test(match))
    return { urls, model, modelMatch, matchRegex: read.field('match', parseRegex) }
  return { urls, model, modelMatch, match }
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
  const failPatternText = read.input('fail-pattern')
  const failPattern = failPatternText.trim() === '' ? undefined : read.field('fail-pattern', parseRegex)
  checkFailPattern(failPattern, kind.logFile ?? kind.container, kind.start)
  const portCheck = read.field('port-check', parseBoolean)
  const gpuCheck = read.field('gpu-check', (t) => oneOf(t, GPU_CHECKS))
  const stop = read.field('stop', (t) => oneOf(t, STOP_MODES))
  const envReport = read.field('env-report', parseEnvNames)
  // a container's environment is the engine's to tell (Config.Env) where /proc cannot
  checkEnvReport(envReport, { start: kind.start ?? kind.container, pid: kind.pid }, platform)
  const diagnostics = (read.script('diagnostics') ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  checkDiagnostics(diagnostics, platform)
  return { servers, failPattern, portCheck, gpuCheck, stop, envReport, diagnostics }
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

const SMOKE_MODES = ['false', 'true', 'fail-on-error'] as const

/** `smoke-test`: none, or one of the fixed sizes that warns or fails when it cannot measure. */
function readSmoke(read: InputReader): SmokeTestSettings['smoke'] {
  const smokeMode = read.field('smoke-test', (t) => {
    const word = t.trim().toLowerCase()
    return /^(true|yes|on)$/.test(word) ? 'true' : /^(false|no|off)$/.test(word) ? 'false' : oneOf(t, SMOKE_MODES)
  })
  return smokeMode === 'false' ? undefined : { failOnError: smokeMode === 'fail-on-error', ...SMOKE_SIZES }
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
  const failOnRegression = read.field('fail-on-regression', parseBoolean)
  return { historyFile, historyKey, regressionThresholdPercent, failOnRegression }
}
