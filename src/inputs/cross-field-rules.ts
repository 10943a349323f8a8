/**
 * The rules between inputs, and between an input and the machine: each is checked where the parser has read the
 * inputs it involves, so that the first bad input read is the one an error names.
 */
import { InputError } from './input-error.js'
import type { Server, Target } from './settings.js'
import { GENERATION_ROUTES, generationRoute } from '../engines/model-lists.js'
import { osName, type Platform } from '../runtime/platform.js'

const needsShell = (platform: Platform): string =>
  `needs a POSIX shell (/bin/sh), which this machine (${osName(platform)}) does not have`

/** The server runs under `sh -c`, in its own process group: POSIX only (Windows runners have no /bin/sh). */
export function checkStart(start: string | undefined, platform: Platform): void {
  if (start !== undefined && platform.os === 'win32')
    throw new InputError('start', {
      problem: `${needsShell(platform)}: start the server in an earlier step and give its process id with "pid"`
    })
}

/** A container and a process id name two servers; `stop: always` is for a container only. */
export function checkContainer(container: string | undefined, pid: Server['pid']): void {
  if (container !== undefined && pid !== undefined)
    throw new InputError('container', {
      problem: 'names the server, and so does "pid": give one (a container\'s processes are its own)'
    })
}

export function checkPid(pid: Server['pid'], start: string | undefined): void {
  if (start !== undefined && pid !== undefined)
    throw new InputError('pid', {
      problem: 'cannot be used with "start": the server "start" launches is the one watched'
    })
}

export function checkFailPattern(
  failPattern: RegExp | undefined,
  logFile: string | undefined,
  start: string | undefined
): void {
  if (failPattern !== undefined && logFile === undefined && start === undefined)
    throw new InputError('fail-pattern', {
      problem: 'needs a log to watch: set "log-file", or "start" (which writes one)'
    })
}

export function checkEnvReport(
  envReport: readonly string[],
  { start, pid }: Pick<Server, 'start' | 'pid'>,
  platform: Platform
): void {
  if (envReport.length > 0 && start === undefined && pid === undefined)
    throw new InputError('env-report', { problem: 'needs the server process: set "start", "pid" or "container"' })
  // A process started elsewhere shows its environment only in /proc/<pid>/environ; one that `start` launches
  // is reported with the environment the gate gave it.
  if (envReport.length > 0 && start === undefined && !platform.hasProc) {
    const orStart =
      platform.os === 'win32' ? '' : ', or launch the server with "start" (then its environment is the one given to it)'
    throw new InputError('env-report', {
      problem:
        `with "pid", reads the server's environment from /proc, which this machine (${osName(platform)}) does not ` +
        `have: remove "env-report"${orStart}`
    })
  }
}

/** Each command runs as `timeout … /bin/sh -c command`. */
export function checkDiagnostics(diagnostics: readonly string[], platform: Platform): void {
  if (diagnostics.length > 0 && platform.os === 'win32')
    throw new InputError('diagnostics', {
      problem: `${needsShell(platform)}: run them in a later step with "if: failure()"`
    })
}

/** `probe-generation`: the generation request for `url`, which the URL's model list and `model` decide. */
export function generationFor(url: URL, model: string | undefined): Target['generation'] {
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
