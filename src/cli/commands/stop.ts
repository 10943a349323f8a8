/**
 * `wait-for-model stop --pid N` (or `--container NAME`): SIGTERM to the server's process group (a container: its
 * engine's stop), SIGKILL after --timeout, then its GPU memory back. Each flag may be repeated: a fleet of servers
 * is stopped at the same time.
 */
import { statSync } from 'node:fs'
import { PID_FORM } from '../../inputs/input-error.js'
import { CONTAINER_FORM, DURATION_FORM, parseContainer, parseDuration } from '../../inputs/parse.js'
import { printable } from '../../runtime/text.js'
import { systemClock } from '../../runtime/clock.js'
import { cancelOnSignals } from '../../runtime/halter.js'
import { type StopRecord, stopContainerAtJobEnd, stopServer } from '../../server/stop.js'
import { DockerEngine, dockerSocket } from '../../server/docker.js'
import { noEngine } from '../../wait/servers/container.js'
import { gpuSnapshot } from '../../gpu/nvidia-smi.js'
import { processStartedAt, resolvePid } from '../../server/process.js'
import { procStat } from '../../server/proc.js'
import { stopLines } from '../../report/lifecycle-report.js'
import { STOP_DEFAULTS, stopHelpText } from '../help.js'
import { asUsageError, type CliIo, type Painter, parseCommandLine, type Say, UsageError } from '../usage.js'

export async function stopCommand(argv: string[], io: CliIo, say: Say, paint: Painter): Promise<number> {
  const { values } = parseCommandLine(argv, {
    pid: { type: 'string', multiple: true },
    container: { type: 'string', multiple: true },
    timeout: { type: 'string', default: STOP_DEFAULTS.timeout },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' }
  })
  if (values.help) return (void io.stdout.write(stopHelpText()), 0)
  const all = (given: unknown): string[] => (Array.isArray(given) ? given : []).map((text) => String(text).trim())
  const named = all(values.pid).map(serverPid)
  // a pid file older than the process that now has its pid names a server that has exited: nothing to stop
  const stale = named.filter((n) => n.strangerSince !== undefined)
  const pids = named.filter((n) => n.strangerSince === undefined).map((n) => n.pid)
  const containers = all(values.container).map(containerRef)
  if (named.length + containers.length === 0) throw new UsageError(`--pid: give ${PID_FORM} (or --container NAME|ID)`)
  let timeoutMs: number
  try {
    timeoutMs = parseDuration(String(values.timeout))
  } catch {
    throw new UsageError(`--timeout: "${printable(String(values.timeout))}" is not ${DURATION_FORM}`)
  }
  let socket = ''
  try {
    if (containers.length > 0) socket = dockerSocket(io.env)
  } catch (e) {
    throw asUsageError(e)
  }
  // no engine is bad usage, said before anything is signalled
  if (containers.length > 0) {
    const engine = new DockerEngine(socket)
    const why = await engine.ping({ timeoutMs: 5_000 })
    engine.close()
    if (why !== undefined) throw asUsageError(noEngine(socket, why))
  }
  // Ctrl-C or a CI system's SIGTERM mid-stop must not leave the server running (Node's default is to die at once,
  // the server that ignores SIGTERM left behind): the stop goes on without waiting, SIGKILL at once, and says so.
  const { cancel, release } = cancelOnSignals()
  const gpu = () => gpuSnapshot({ env: io.env, timeoutMs: 5_000, signal: cancel.signal })
  for (const n of stale)
    say(
      `Process ${n.pid} started ${((n.strangerSince ?? 0) / 1000).toFixed(1)}s after ${printable(n.file ?? '')} was ` +
        'written: it is not the server the file names, which has exited. Nothing was signalled.'
    )
  let records: StopRecord[]
  try {
    // every one at the same time: one after another, eight stop timeouts would add up
    records = await Promise.all([
      ...pids.map((pid) => stopServer({ pid, timeoutMs }, { clock: systemClock, gpu, cancel: cancel.signal })),
      ...containers.map(async (container) => {
        const end = await stopContainerAtJobEnd(
          { container, socket, timeoutMs, logLines: 0 },
          { clock: systemClock, gpu, cancel: cancel.signal }
        )
        return end.record
      })
    ])
  } finally {
    release()
  }
  for (const record of records)
    for (const line of stopLines(record)) {
      if (line.level === 'warning') say(paint.yellow(`warning: ${line.text}`))
      else if (line.level === 'info') say(line.text)
    }
  // a stale pid file's server is not running (the process that has its pid now was left alone, and said so)
  const told = [
    ...stale.map((n): StopRecord => ({
      pid: n.pid,
      scope: 'tree',
      outcome: 'not-running',
      pids: [],
      gpu: { kind: 'none' }
    })),
    ...records
  ]
  if (values.json) io.stdout.write(`${JSON.stringify(told.length === 1 ? told[0] : told)}\n`)
  // an ancestor of this command, pid 1 or the runner: refused like its own group, and nothing signalled
  if (records.some((r) => r.outcome === 'refused')) return 2
  return records.some((r) => r.outcome === 'survived' || r.gpu.kind === 'held') ? 1 : 0
}

/** A `--pid`, read: the process id, the file it came from, and when that file is older than the process. */
interface NamedPid {
  pid: number
  file?: string
  /** The pid file was written this many ms before the process that now has its pid started. */
  strangerSince?: number
}

/**
 * A pid file is written after its server started (`… & echo $! > vllm.pid`), so a process that started after the
 * file was last written is not the one it names: the server exited and the kernel gave its pid to another. Its
 * stamps are the wall clock's and /proc's 10 ms ticks: a second's margin keeps a server from being taken for a
 * stranger.
 */
const PID_FILE_MARGIN_MS = 1_000

/** A `--pid`: a process id, or a file holding one; never this command's own process or process group. */
function serverPid(text: string): NamedPid {
  if (text === '') throw new UsageError(`--pid: give ${PID_FORM}`)
  const file = /^\d+$/.test(text) ? undefined : text
  let pid: number
  try {
    pid = resolvePid(file === undefined ? { pid: Number(text) } : { file })
  } catch (e) {
    throw asUsageError(e)
  }
  if (pid < 2 || pid > 4_194_304) throw new UsageError(`--pid: "${pid}" is not ${PID_FORM}`)
  // its own group would take this command down with it, and the shell that runs it
  if (pid === process.pid || pid === procStat(process.pid)?.pgrp)
    throw new UsageError(`--pid: ${pid} is this command's own process or process group`)
  if (file === undefined) return { pid }
  const started = processStartedAt(pid)
  let written: number | undefined
  try {
    written = statSync(file).mtimeMs
  } catch {
    written = undefined // read a moment ago: gone since, nothing to compare
  }
  const since = started === undefined || written === undefined ? 0 : started - written
  return since > PID_FILE_MARGIN_MS ? { pid, file, strangerSince: since } : { pid, file }
}

/** A `--container`: a name or an id, as `container` takes it. */
function containerRef(text: string): string {
  try {
    const ref = parseContainer(text)
    if (ref !== undefined) return ref
  } catch {
    // worded below
  }
  throw new UsageError(`--container: "${printable(text)}" is not ${CONTAINER_FORM}`)
}
