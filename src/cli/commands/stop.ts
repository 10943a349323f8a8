/**
 * `wait-for-model stop --pid N` (or `--container NAME`): SIGTERM to the server's process group (a container: its
 * engine's stop), SIGKILL after --timeout, then its GPU memory back. Each flag may be repeated: a fleet of servers
 * is stopped at the same time.
 */
import { DURATION_FORM, parseDuration } from '../../inputs/parse.js'
import { printable } from '../../runtime/text.js'
import { CONTAINER_FORM, parseContainer, PID_FORM } from '../../inputs/forms.js'
import { systemClock } from '../../runtime/clock.js'
import { cancelOnSignals } from '../../runtime/cancel-signals.js'
import { type StopRecord, stopServer } from '../../server/stop.js'
import { stopContainerAtJobEnd } from '../../server/container-stop.js'
import { dockerSocket } from '../../server/docker.js'
import { gpuSnapshot } from '../../gpu/nvidia-smi.js'
import { resolvePid } from '../../server/process.js'
import { procStat } from '../../server/proc.js'
import { stopLines } from '../../report/lifecycle-report.js'
import { STOP_DEFAULTS, stopHelpText } from '../help.js'
import { asUsageError } from '../input-error.js'
import type { CliIo, Say } from '../io.js'
import type { Painter } from '../paint.js'
import { parseCommandLine, UsageError } from '../usage.js'

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
  const pids = all(values.pid).map(serverPid)
  const containers = all(values.container).map(containerRef)
  if (pids.length + containers.length === 0) throw new UsageError(`--pid: give ${PID_FORM} (or --container NAME|ID)`)
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
  // Ctrl-C or a CI system's SIGTERM mid-stop must not leave the server running (Node's default is to die at once,
  // the server that ignores SIGTERM left behind): the stop goes on without waiting, SIGKILL at once, and says so.
  const { cancel, release } = cancelOnSignals()
  const gpu = () => gpuSnapshot({ env: io.env, timeoutMs: 5_000, signal: cancel.signal })
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
  if (values.json) io.stdout.write(`${JSON.stringify(records.length === 1 ? records[0] : records)}\n`)
  // an ancestor of this command, pid 1 or the runner: refused like its own group, and nothing signalled
  if (records.some((r) => r.outcome === 'refused')) return 2
  return records.some((r) => r.outcome === 'survived' || r.gpu.kind === 'held') ? 1 : 0
}

/** A `--pid`: a process id, or a file holding one; never this command's own process or process group. */
function serverPid(text: string): number {
  if (text === '') throw new UsageError(`--pid: give ${PID_FORM}`)
  let pid: number
  try {
    pid = resolvePid(/^\d+$/.test(text) ? { pid: Number(text) } : { file: text })
  } catch (e) {
    throw asUsageError(e)
  }
  if (pid < 2 || pid > 4_194_304) throw new UsageError(`--pid: "${pid}" is not ${PID_FORM}`)
  // its own group would take this command down with it, and the shell that runs it
  if (pid === process.pid || pid === procStat(process.pid)?.pgrp)
    throw new UsageError(`--pid: ${pid} is this command's own process or process group`)
  return pid
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
