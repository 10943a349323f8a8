/** The GitHub layer: inputs in, outputs, summary and failure out. All logic lives below `gate`. */
import * as core from '@actions/core'
import { gate, reportContext } from './gate.js'
import { failureMessage, finalLine, outputs, redact, summaryMarkdown } from './report.js'
import { InputError, parseSettings } from './settings.js'
import { systemClock } from './time.js'

export async function run(): Promise<void> {
  let secrets: string[] = []
  try {
    const settings = parseSettings((name) => core.getInput(name))
    secrets = settings.secrets
    secrets.forEach((s) => core.setSecret(s))
    const say = (line: string): void => core.info(redact(line, secrets))

    // The clock's zero is the process start, so elapsed-seconds counts from the step's start.
    const outcome = await gate(settings, { clock: systemClock, startedAt: 0, log: say })

    for (const [name, value] of Object.entries(outputs(outcome))) core.setOutput(name, redact(value, secrets))
    say(finalLine(outcome))
    if (process.env.GITHUB_STEP_SUMMARY) {
      await core.summary.addRaw(redact(summaryMarkdown(outcome, reportContext(settings)), secrets)).write()
    }
    if (!outcome.ready) {
      const message = redact(failureMessage(outcome, reportContext(settings)), secrets)
      if (outcome.reason === 'timeout' && !settings.failOnTimeout) core.warning(message)
      else core.setFailed(message)
    }
  } catch (e) {
    core.setFailed(e instanceof InputError ? e.message : redact(`Unexpected error: ${(e as Error).stack ?? String(e)}`, secrets))
  }
}
