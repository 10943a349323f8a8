/**
 * `wait-for-model check`: one probe of each endpoint with the gate's whole judgement, within `--timeout`; one line on
 * stdout; exit 0 ready, 1 not ready. For health checks (Docker HEALTHCHECK, compose, Kubernetes exec probes).
 */
import { gate } from '../../wait/gate.js'
import { conclude } from '../../wait/conclusion.js'
import { commandSafe } from '../../report/command-safe.js'
import { checkLine } from '../../report/progress.js'
import { redact } from '../../inputs/secrets.js'
import type { Settings } from '../../inputs/settings.js'
import type { GateOutcome } from '../../facts/outcome.js'
import { systemClock } from '../../runtime/clock.js'
import { cancelOnSignals } from '../../runtime/halter.js'
import { CHECK_DEFAULTS, checkHelpText } from '../help.js'
import { INPUT_NAMES } from '../../inputs/input-names.js'
import { asBadInput, CHECK_INPUTS, inputOptions, settingsFrom } from '../settings-from.js'
import { type CliIo, parseCommandLine, UsageError } from '../usage.js'

export async function checkCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandLine(argv, { help: { type: 'boolean', short: 'h' }, ...inputOptions() })
  if (values.help) return (void io.stdout.write(checkHelpText()), 0)
  const refused = INPUT_NAMES.find((name) => values[name] !== undefined && !CHECK_INPUTS.has(name))
  if (refused !== undefined) {
    throw new UsageError(`--${refused}: check probes once, within --timeout; it takes no --${refused}`)
  }
  const given = settingsFrom({ ...CHECK_DEFAULTS, ...values }, io.env, CHECK_INPUTS)
  const settings: Settings = {
    ...given,
    // one probe, due within the timeout: nothing waits, nothing is kept
    requestTimeoutMs: given.timeoutMs,
    intervalMs: given.timeoutMs,
    historyFile: undefined
  }
  // a health check's runner (Docker, Kubernetes, a CI step) may signal it: the probe ends, and says cancelled
  const { cancel, release } = cancelOnSignals()
  let outcome: GateOutcome
  try {
    outcome = await gate(settings, { clock: systemClock, log: () => {}, env: io.env, once: true, cancel }).catch(
      (e: unknown) => {
        throw asBadInput(e, values, io.env)
      }
    )
  } finally {
    release()
  }
  io.stdout.write(`${commandSafe(redact(checkLine(outcome), settings.secrets))}\n`)
  return conclude(outcome, settings).exitCode
}
