/**
 * Carries a conclusion out in the one order both front ends keep: final line, log tail, diagnostics, then (cancelled
 * if a cancel came meanwhile) outputs and summary, last the verdicts; the medium is the runner's or a shell's.
 */
import type { Settings } from '../inputs/settings.js'
import type { Outputs } from '../report/outputs.js'
import { summaryMarkdown } from '../report/summary.js'
import { redact } from '../inputs/secrets.js'
import { runCommand, runDiagnostics } from '../server/diagnostics.js'
import type { Clock } from '../runtime/clock.js'
import type { Halter } from '../runtime/halter.js'
import type { Conclusion, Verdict } from './conclusion.js'
import { concludedSince } from './cancelled.js'

export interface Medium {
  /** A line of the progress, redacted and defused by the medium. */
  log(line: string): void
  finalLine(line: string, ready: boolean): void
  /** The lines the server wrote: they must not act as commands of the medium. */
  logTail(title: string, lines: readonly string[]): Promise<void>
  /** A diagnostic command's own section of the log. */
  group(title: string, body: () => Promise<void>): Promise<void>
  /** Where a diagnostic command's output goes. */
  commandOutput: NodeJS.WritableStream
  /** The outputs, redacted; `summary()` is the job summary's Markdown, redacted, made only if asked for. */
  outputs(outputs: Outputs, summary: () => string): Promise<void>
  verdict(verdict: Verdict): void
}

/** Resolves with the exit code: 0 unless a verdict fails the run. */
export async function carryOut(
  concluded: Conclusion,
  settings: Settings,
  deps: { cancel: Halter<NodeJS.Signals>; clock: Clock },
  medium: Medium
): Promise<0 | 1> {
  const { cancel } = deps
  medium.finalLine(concluded.finalLine, concluded.ready)
  if (concluded.logTail !== undefined) await medium.logTail(concluded.logTail.title, concluded.logTail.lines)
  await runDiagnostics(concluded.diagnostics, {
    group: medium.group,
    // in a group of their own, killed whole on a cancel (a terminal's Ctrl-C no longer reaches them by itself)
    exec: (program, args) => runCommand(program, args, medium.commandOutput, cancel.signal),
    log: medium.log,
    cancel: cancel.signal
  })
  // Outputs and summary come last, so that a cancel at any moment before them (the diagnostics) is what they say.
  const stage = concluded.diagnostics.length > 0 ? 'diagnostics' : 'after-wait'
  const next = concludedSince(concluded, settings, cancel, stage, deps.clock.now())
  if (next !== concluded) medium.finalLine(next.finalLine, next.ready)
  await medium.outputs(next.outputs, () => redact(summaryMarkdown(next.outcome, next.context), settings.secrets))
  next.verdicts.forEach(medium.verdict)
  return next.exitCode
}
