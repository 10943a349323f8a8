/**
 * Turns raw input strings (from the action's inputs or the CLI's flags) into typed, validated settings. Nothing
 * below this module reads inputs; every error names the input and the form it accepts. The inputs are read in
 * action.yml's order, each rule between them where the last input it involves is read, so that the first bad input
 * read is the one an error names.
 */
import { readFileSync, type Stats, statSync } from 'node:fs'
import { InputError, ProblemError } from './input-error.js'
import type { InputName } from './input-names.js'
import { type InputReader, inputReader } from './input-reader.js'
import { credentialParts, isCredentialName, MIN_SECRET_CHARS, proxySecrets } from './secrets.js'
import {
  isLatin1,
  LATIN1_FORM,
  oneOf,
  parseBoolean,
  parseContainer,
  parseHost,
  parseEngine,
  parseEnvNames,
  parseHeaders,
  parsePercent,
  parsePid,
  parseRanks,
  parseRegex,
  parseUrls
} from './parse.js'
import { hasControlChars, printable } from '../runtime/text.js'
import { isSymlink, notRegularFile } from '../runtime/own-files.js'
import { GENERATION_ROUTES, generationRoute } from '../engines/model-lists.js'
import { READY_NEEDS_GENERATION } from '../engines/readiness.js'
import {
  FIXED,
  GPU_CHECKS,
  MODEL_MATCH_MODES,
  ACTIONS_CACHE,
  HISTORY_AUTO,
  type HistorySettings,
  type ProbeSettings,
  type Server,
  type Settings,
  SMOKE_SIZES,
  STOP_MODES,
  type Target
} from './settings.js'
import { currentPlatform, osName, type Platform } from '../runtime/platform.js'

const SMOKE_MODES = ['false', 'true', 'fail-on-error'] as const

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
  // `smoke-test`: none, or the fixed sizes, warning or failing when it cannot measure
  const smokeMode = read.field('smoke-test', (t) => {
    const word = t.trim().toLowerCase()
    return /^(true|yes|on)$/.test(word) ? 'true' : /^(false|no|off)$/.test(word) ? 'false' : oneOf(t, SMOKE_MODES)
  })
  const smoke = smokeMode === 'false' ? undefined : { failOnError: smokeMode === 'fail-on-error', ...SMOKE_SIZES }
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
  const engineText = read.input('engine').trim().toLowerCase()
  const engine = engineText === 'auto' ? undefined : read.field('engine', () => parseEngine(engineText))
  // an engine that only a generation proves ready (a router) must be given one it can send, else it would never be
  if (engine !== undefined && READY_NEEDS_GENERATION[engine] && urls.some((u) => !generationRoute(u) || !request.model))
    throw new InputError('engine', {
      problem: `${engine} is ready only once it generates: point "url" at its /v1/models and give "model"`
    })
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

/** `headers` and `api-key` (as an authorization header), and every secret of them, of `urls` and of `env`. */
function readCredentials(
  read: InputReader,
  urls: readonly URL[],
  env: Readonly<Record<string, string | undefined>>
): Pick<ProbeSettings, 'headers' | 'secrets'> {
  const headers = read.field('headers', parseHeaders)
  // One too short to mask is refused.
  const secrets: string[] = []
  const secret = (input: InputName, value: string, what: string): void => {
    if (value.length < MIN_SECRET_CHARS)
      throw new InputError(input, {
        problem: `${what} has fewer than ${MIN_SECRET_CHARS} characters, too short to be kept out of the logs`
      })
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
  const apiKey = read.text('api-key')
  if (apiKey !== undefined) {
    if (/\s/.test(apiKey))
      throw new InputError('api-key', { problem: 'contains white space; give the key alone, without "Bearer"' })
    // never shown: only where it goes wrong
    if (!isLatin1(apiKey))
      throw new InputError('api-key', { problem: `contains a character outside Latin-1 (${LATIN1_FORM})` })
    secret('api-key', apiKey, 'the key')
    headers.authorization = `Bearer ${apiKey}`
  }
  // A token in a URL's query string (?api_key=…) is masked everywhere the URL is written, as url.href writes it
  // and as decoded.
  for (const url of urls)
    for (const pair of url.search.slice(1).split('&')) {
      const [[name, value] = ['', '']] = new URLSearchParams(pair)
      const raw = pair.slice(pair.indexOf('=') + 1)
      if (!pair.includes('=') || !isCredentialName(name) || value === '') continue
      secret('url', value, `the value of the query parameter "${printable(name)}"`)
      if (raw !== value) secrets.push(raw)
    }
  secrets.push(...proxySecrets(env))
  return { headers, secrets: secrets.filter((s) => s.length > 0) }
}

/** The servers: how each starts or which process it is, its log, and what to report about it. */
function readServer(
  read: InputReader,
  platform: Platform,
  endpoints: number
): Pick<Settings, 'failPattern' | 'ranks' | 'portCheck' | 'gpuCheck' | 'stop' | 'envReport' | 'diagnostics'> & {
  servers: Array<Omit<Server, 'targets'>>
} {
  // a fleet of servers, one per url line; else one server (or none) behind every endpoint
  const fleet = readFleet(read, endpoints, platform)
  // a fleet's servers are this runner's: a host for each is not read, and must not be ignored
  if (fleet !== undefined && read.input('host').trim() !== '')
    throw new InputError('host', {
      problem:
        'is the host of one server, and "start", "pid", "container" or "log-file" has one line per "url" line (a fleet of servers here): give one server on that host, or leave "host" out'
    })
  const servers = fleet ?? [readOneServer(read, platform)]
  // what a server needs is the same for each of a fleet's: the first one's kind speaks for all
  const kind = servers[0]
  const failPatternText = read.input('fail-pattern')
  const failPattern = failPatternText.trim() === '' ? undefined : read.field('fail-pattern', parseRegex)
  if (failPattern !== undefined && (kind.logFile ?? kind.container) === undefined && kind.start === undefined)
    throw new InputError('fail-pattern', {
      problem: 'needs a log to watch: set "log-file", or "start" (which writes one)'
    })
  const ranks = read.field('ranks', (t) => parseRanks(t.trim()))
  if (ranks !== undefined && (kind.logFile ?? kind.container ?? kind.start) === undefined)
    throw new InputError('ranks', {
      problem: 'needs the server\'s log to count them in: set "start" (which writes one), "log-file" or "container"'
    })
  const portCheck = read.field('port-check', parseBoolean)
  const gpuCheck = read.field('gpu-check', (t) => oneOf(t, GPU_CHECKS))
  const stop = read.field('stop', (t) => oneOf(t, STOP_MODES))
  const envReport = read.field('env-report', parseEnvNames)
  // a container's environment is the engine's to tell (Config.Env) where /proc cannot
  const started = kind.start ?? kind.container
  if (envReport.length > 0 && started === undefined && kind.pid === undefined)
    throw new InputError('env-report', { problem: 'needs the server process: set "start", "pid" or "container"' })
  // A process started elsewhere shows its environment only in /proc/<pid>/environ; one that `start` launches
  // is reported with the environment the gate gave it.
  if (envReport.length > 0 && started === undefined && !platform.hasProc) {
    const orStart =
      platform.os === 'win32' ? '' : ', or launch the server with "start" (then its environment is the one given to it)'
    throw new InputError('env-report', {
      problem:
        `with "pid", reads the server's environment from /proc, which this machine (${osName(platform)}) does not ` +
        `have: remove "env-report"${orStart}`
    })
  }
  const diagnostics = (read.script('diagnostics') ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  // each command runs as `timeout … /bin/sh -c command`
  if (diagnostics.length > 0 && platform.os === 'win32')
    throw new InputError('diagnostics', {
      problem: `${needsShell(platform)}: run them in a later step with "if: failure()"`
    })
  return { servers, failPattern, ranks, portCheck, gpuCheck, stop, envReport, diagnostics }
}

/** One server (or none) for every endpoint: `start`, `pid`, `container` and `log-file` as one value each. */
function readOneServer(read: InputReader, platform: Platform): Omit<Server, 'targets'> {
  const nodes = readNodes(read)
  if (nodes !== undefined) return nodes
  const start = read.script('start')
  checkStart(start, platform)
  const pid = read.field('pid', (t) => parsePid(t.trim()))
  if (start !== undefined && pid !== undefined)
    throw new InputError('pid', {
      problem: 'cannot be used with "start": the server "start" launches is the one watched'
    })
  const container = read.field('container', (t) => parseContainer(t.trim()))
  if (container !== undefined && pid !== undefined)
    throw new InputError('container', {
      problem: 'names the server, and so does "pid": give one (a container\'s processes are its own)'
    })
  const host = read.field('host', (t) => parseHost(t.trim()))
  if (host !== undefined && container !== undefined)
    throw new InputError('host', {
      problem: 'cannot be used with "container": give the remote server\'s "start" or "pid"'
    })
  if (host !== undefined && start === undefined && pid === undefined)
    throw new InputError('host', {
      problem: 'needs the server on that host: set "start" or "pid" (its process id there)'
    })
  if (host !== undefined && pid !== undefined && !('pid' in pid))
    throw new InputError('pid', { problem: 'with "host", is the process id on that host (a number), not a file' })
  const logFile = read.text('log-file')
  // the container's output, else the started server's, is appended to it: through a link, to wherever it points
  const writer = container !== undefined ? 'container' : start !== undefined ? 'start' : undefined
  // a remote log is checked on its host, as it is opened there
  if (logFile !== undefined && host === undefined) read.field('log-file', () => checkLogFile(logFile, writer))
  return { start, pid, container, host, logFile }
}

/**
 * One server across several nodes: `host` with one line per node (the head first, the one that serves the URL) and
 * `start` with one line per `host` line, run on that line's host; undefined for a host of one line.
 */
function readNodes(read: InputReader): Omit<Server, 'targets'> | undefined {
  const hostText = read.input('host')
  const hosts = entryLines(hostText)
  if (hosts.length < 2) return undefined
  hosts.forEach((line, i) => {
    try {
      parseHost(line)
    } catch (e) {
      const problem = e instanceof ProblemError ? e.problem : { problem: (e as Error).message }
      throw new InputError('host', { ...problem, line: i + 1 })
    }
  })
  const starts = entryLines(read.script('start') ?? '')
  if (starts.length !== hosts.length || read.input('pid').trim() !== '' || read.input('container').trim() !== '')
    throw new InputError('start', {
      problem:
        `has ${starts.length} lines and "host" has ${hosts.length}: with one line per node in "host" (the head first), ` +
        'give one "start" line per "host" line, run on that line\'s host (no "pid" or "container")'
    })
  const logFile = read.text('log-file')
  return {
    host: hosts[0],
    start: starts[0],
    logFile,
    workers: hosts.slice(1).map((host, i) => ({ host, start: starts[i + 1] }))
  }
}

/** The inputs that may name each endpoint's own server, in action.yml's order. */
const PER_ENDPOINT = ['start', 'pid', 'container', 'log-file'] as const

/**
 * A shell statement that starts nothing: a line of a script for one server, not a server of its own (`export A=1`,
 * `cd /srv`, `A=1` alone, a comment).
 */
const STATEMENT = /^(?:(?:export|cd|set|source|unset|ulimit|umask|trap|\.)(?:\s|$)|#|[A-Za-z_][A-Za-z0-9_]*=\S*$)/

/**
 * The entries of an input given one per line: its non-blank lines, trimmed; a line that ends in `\`, `&&`, `||`
 * or `|` goes on to the next one, as in a shell.
 */
export function entryLines(text: string): string[] {
  const lines: string[] = []
  let open = false
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' && !open) continue
    if (open) lines[lines.length - 1] = `${lines[lines.length - 1]}\n${line}`
    else lines.push(line)
    open = /(?:\\|&&|\|\||\|)$/.test(line)
  }
  return lines
}

/**
 * A fleet's servers, where `start`, `pid`, `container` or `log-file` has one line per `url` line; undefined for one
 * server (or none) behind every endpoint. Every line is checked as its input checks one value.
 */
function readFleet(
  read: InputReader,
  endpoints: number,
  platform: Platform
): Array<Omit<Server, 'targets'>> | undefined {
  if (endpoints < 2) return undefined
  const given = new Map<InputName, string[]>()
  for (const name of PER_ENDPOINT) {
    const text = read.script(name)
    const lines = text === undefined ? [] : entryLines(text)
    if (lines.length > 0) given.set(name, lines)
  }
  const per = [...given].filter(([, lines]) => lines.length > 1)
  if (per.length === 0) return undefined
  for (const [name, lines] of per)
    if (lines.length !== endpoints)
      throw new InputError(name, {
        problem:
          `has ${lines.length} lines and "url" has ${endpoints}: give one line per "url" line, in the same order ` +
          `(line n is the server of url line n), or one line for one server behind every url`
      })
  const [first] = per[0]
  for (const [name] of given)
    if (given.get(name)?.length === 1)
      throw new InputError(name, {
        problem:
          `is one value, and "${first}" has one line per "url" line (a server for each endpoint): give "${name}" ` +
          'one line per "url" line too, or leave it out'
      })
  const starts = given.get('start')
  starts?.forEach((line, i) => {
    if (STATEMENT.test(line))
      throw new InputError('start', {
        line: i + 1,
        value: printable(line),
        problem:
          `starts no server: with one line per "url" line, each line of "start" is one endpoint's server ` +
          `(${endpoints} lines, ${endpoints} servers)`,
        form:
          'one command per line (join a script\'s lines with && or ;, or run a script file), or "start" on one ' +
          'line for one server behind every url'
      })
  })
  checkStart(starts?.[0], platform)
  return Array.from({ length: endpoints }, (_, i): Omit<Server, 'targets'> => {
    const entry = <T>(name: InputName, parse: (line: string) => T): T | undefined => {
      const line = given.get(name)?.[i]
      if (line === undefined) return undefined
      try {
        return parse(line)
      } catch (e) {
        const problem = e instanceof ProblemError ? e.problem : { problem: (e as Error).message }
        throw new InputError(name, { ...problem, line: i + 1 })
      }
    }
    const start = starts?.[i]
    const pid = entry('pid', parsePid)
    const container = entry('container', parseContainer)
    const writer = container !== undefined ? 'container' : start !== undefined ? 'start' : undefined
    const logFile = entry('log-file', (line) => {
      checkLogFile(line, writer)
      return line
    })
    return { start, pid, container, logFile }
  })
}

const needsShell = (platform: Platform): string =>
  `needs a POSIX shell (/bin/sh), which this machine (${osName(platform)}) does not have`

/** The server runs under `sh -c`, in its own process group: POSIX only (Windows runners have no /bin/sh). */
function checkStart(start: string | undefined, platform: Platform): void {
  if (start !== undefined && platform.os === 'win32')
    throw new InputError('start', {
      problem: `${needsShell(platform)}: start the server in an earlier step and give its process id with "pid"`
    })
}

/**
 * `log-file`: a log that exists must be a regular file: a FIFO blocks whoever opens it, and /dev/zero never ends.
 * Where the action writes it (`writer`), it must not be a symbolic link either: the output would go wherever the
 * link points. A log only read (`pid`) may be one.
 */
function checkLogFile(path: string, writer?: 'start' | 'container'): void {
  if (writer !== undefined && isSymlink(path))
    throw new ProblemError({
      value: printable(path),
      problem: `is a symbolic link, and ${writer === 'start' ? '"start" writes the server\'s output' : 'the container\'s output (from "container") is written'} to it; a link is never followed`,
      form: 'the path of a regular file (or of one to create), not a link to it'
    })
  let stat: Stats
  try {
    stat = statSync(path)
  } catch {
    // not written yet: the server writes it
    return
  }
  const what = notRegularFile(stat)
  if (what !== undefined)
    throw new ProblemError({
      value: printable(path),
      problem: `is ${what}`,
      form: "the path of a regular file (the server's log)"
    })
}

/** `probe-generation`: the generation request for `url`, which the URL's model list and `model` decide. */
function generationFor(url: URL, model: string | undefined): Target['generation'] {
  const found = generationRoute(url)
  if (found === undefined) {
    throw new InputError('probe-generation', {
      problem:
        `no generation request is known for ${url.pathname}: point "url" at the server's model list, ` +
        GENERATION_ROUTES.map((r) => `${r.listPathText} (${r.servers})`).join(', ')
    })
  }
  if (found.route.needsModel && model === undefined) {
    throw new InputError('probe-generation', {
      problem: `needs "model": the request to ${found.route.requests[0].path} names the model to generate with`
    })
  }
  return found
}

const CA_FORM = 'the path of a PEM file of CA certificates (-----BEGIN CERTIFICATE-----)'

/** `ca-cert`: reads and checks the PEM file now, so that a wrong path fails before any request. */
function readCaCert(path: string): string {
  const value = printable(path)
  let pem: string
  try {
    pem = readFileSync(path, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message
    throw new ProblemError({ problem: `cannot read "${value}" (${code})`, form: CA_FORM }, { cause: e })
  }
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  if (blocks.length === 0) throw new ProblemError({ value, problem: 'holds no certificate', form: CA_FORM })
  for (const block of blocks) {
    try {
      // node:crypto only here, for a ca-cert
      new (process.getBuiltinModule('node:crypto').X509Certificate)(block)
    } catch {
      throw new ProblemError({ value, problem: 'holds a certificate that cannot be read', form: CA_FORM })
    }
  }
  return pem
}

/** Where earlier runs are kept, which compare with this one, and what counts as a regression. */
function readHistory(read: InputReader, get: (name: InputName) => string): HistorySettings {
  // Read as given: an empty value turns history off (the runner passes the default, "auto", when it is not set).
  const historyRaw = (get('history-file') ?? '').trim()
  if (hasControlChars(historyRaw))
    throw new InputError('history-file', { value: printable(historyRaw), problem: 'contains a control character' })
  const historyFile = historyRaw === '' ? undefined : historyRaw
  // written to and renamed over: a link would send the writes, and then the rename, wherever it points
  if (
    historyFile !== undefined &&
    historyFile !== HISTORY_AUTO &&
    historyFile !== ACTIONS_CACHE &&
    isSymlink(historyFile)
  )
    throw new InputError('history-file', {
      value: printable(historyFile),
      problem: 'is a symbolic link, which is never followed',
      form: 'the path of a regular file (or of one to create), not a link to it'
    })
  const historyKey = read.text('history-key')
  if (historyKey !== undefined && historyKey.length > 200)
    throw new InputError('history-key', { problem: `is ${historyKey.length} characters long; give at most 200` })
  const regressionThresholdPercent = read.field('regression-threshold', parsePercent)
  const failOn = read.field('fail-on-regression', (t) =>
    /^\s*environment\s*$/i.test(t) ? 'environment' : parseBoolean(t)
  )
  return {
    historyFile,
    historyKey,
    regressionThresholdPercent,
    failOnRegression: failOn === true,
    failOnEnvironment: failOn === 'environment'
  }
}
