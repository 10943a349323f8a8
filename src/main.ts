/** The GitHub layer: inputs in, outputs, summary and failure out. All logic lives below `gate`. */
import { randomUUID } from 'node:crypto'
import * as core from '@actions/core'
import * as exec from '@actions/exec'
import { runDiagnostics } from './diagnostics.js'
import { gate, reportContext } from './gate.js'
import { commandSafe, failureMessage, finalLine, INSECURE_TLS_WARNING, logTailTitle, outputs, redact, summaryMarkdown } from './report.js'
import { InputError, parseSettings } from './settings.js'
import { systemClock } from './time.js'

export async function run(): Promise<void> {
  let secrets: string[] = []
  // The runner sends SIGINT, then SIGTERM, when the job is cancelled: end the wait and still report.
  const cancel = new AbortController()
  const onSignal = (signal: NodeJS.Signals): void => cancel.abort(signal)
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal)
  try {
    const settings = parseSettings((name) => core.getInput(name))
    secrets = settings.secrets
    secrets.forEach((s) => core.setSecret(s))
    const say = (line: string): void => core.info(commandSafe(redact(line, secrets)))
    if (settings.insecureTls) {
      core.warning(INSECURE_TLS_WARNING)
    }

    // Probe lines only when the run has debug logging on (RUNNER_DEBUG=1), as the runner shows them.
    const debug = core.isDebug() ? (line: string): void => core.debug(commandSafe(redact(line, secrets))) : undefined

    // The clock's zero is the process start, so elapsed-seconds counts from the step's start.
    const outcome = await gate(settings, {
      clock: systemClock,
      startedAt: 0,
      log: say,
      debug,
      warn: (line) => core.warning(commandSafe(redact(line, secrets))),
      cancel: cancel.signal
    })

    for (const [name, value] of Object.entries(outputs(outcome))) core.setOutput(name, redact(value, secrets))
    say(finalLine(outcome))
    const tail = outcome.server?.logTail
    if (tail !== undefined) {
      core.startGroup(logTailTitle(tail, outcome.server?.logFile))
      // The server wrote these lines: they must not act as workflow commands.
      const token = randomUUID()
      core.info(`::stop-commands::${token}`)
      for (const line of tail) say(`${line.number}: ${line.text}`)
      core.info(`::${token}::`)
      core.endGroup()
    }
    if (process.env.GITHUB_STEP_SUMMARY) {
      await core.summary.addRaw(redact(summaryMarkdown(outcome, reportContext(settings)), secrets)).write()
    }
    // A cancelled job must end within a second; the diagnostics could take minutes.
    if (!outcome.ready && outcome.reason !== 'cancelled') {
      await runDiagnostics(settings.diagnostics, {
        group: (title, body) => core.group(redact(title, secrets), body),
        exec: (program, args) => exec.exec(program, args, { ignoreReturnCode: true }),
        log: say
      })
    }
    if (!outcome.ready) {
      const message = commandSafe(redact(failureMessage(outcome, reportContext(settings)), secrets))
      if (outcome.reason === 'timeout' && !settings.failOnTimeout) core.warning(message)
      else core.setFailed(message)
    }
  } catch (e) {
    core.setFailed(e instanceof InputError ? e.message : redact(`Unexpected error: ${(e as Error).stack ?? String(e)}`, secrets))
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal)
  }
}
