/** `wait-for-model stop --pid N`: SIGTERM to the server's process group, SIGKILL after --timeout, then its GPU memory back. */
import { DURATION_FORM, parseDuration } from '../../inputs/parse.js'
import { printable } from '../../runtime/text.js'
import { PID_FORM } from '../../inputs/forms.js'
import { systemClock } from '../../runtime/clock.js'
import { stopServer } from '../../server/stop.js'
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
    throw asUsageError(e)
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
  // an ancestor of this command, pid 1 or the runner: refused like its own group, and nothing signalled
  if (record.outcome === 'refused') return 2
  return record.outcome === 'survived' || record.gpu.kind === 'held' ? 1 : 0
}
