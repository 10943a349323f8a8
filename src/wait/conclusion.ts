/**
 * What must happen once the wait is over, decided once for every front end (the action, the CLI, and later a
 * job-end step and a one-shot check): the outputs, the final line, the log tail, the diagnostics to run, fail or
 * warn, the exit code. A front end only carries it out in its medium. Pure: no I/O, nothing of GitHub or a shell.
 */
import { expectation, type GateOutcome } from './outcome.js'
import type { Settings } from '../inputs/settings.js'
import {
  failureMessage,
  finalLine,
  logTailTitle,
  type Outputs,
  outputs,
  redact,
  type ReportContext
} from '../report/wait-report.js'

export interface Conclusion {
  ready: boolean
  /** Every output, with the secrets already replaced. */
  outputs: Outputs
  /** The line the progress ends with. */
  finalLine: string
  /** The server log's last lines to show (a failed wait with a log): a title and `number: text` lines. */
  logTail?: { title: string; lines: string[] }
  /** Commands to run to explain a failure, in order (none when ready or cancelled). */
  diagnostics: readonly string[]
  /** A wait that was not ready: `fail` fails the run, `warn` only warns (a timeout with `fail-on-timeout: false`). */
  verdict?: { kind: 'fail' | 'warn'; message: string }
  /** A startup regression that fails the run (`fail-on-regression: true`). */
  failedRegression?: string
  /** 0 unless something above fails the run. */
  exitCode: 0 | 1
  /** For the words a front end adds (the job summary). */
  context: ReportContext
}

/** The report's view of the settings, for `url` (the endpoint the outcome describes). */
const reportContext = (s: Settings, url: URL): ReportContext => ({
  url,
  expect: expectation(s),
  timeoutMs: s.timeoutMs
})

export function conclude(outcome: GateOutcome, settings: Settings): Conclusion {
  const context = reportContext(settings, outcome.url)
  const tail = outcome.ready ? undefined : outcome.server?.logTail
  const verdict: Conclusion['verdict'] = outcome.ready
    ? undefined
    : {
        kind: outcome.reason === 'timeout' && !settings.failOnTimeout ? 'warn' : 'fail',
        message: failureMessage(outcome, context)
      }
  const regression = outcome.profile?.regression
  const failedRegression = settings.failOnRegression ? regression : undefined
  return {
    ready: outcome.ready,
    outputs: Object.fromEntries(
      Object.entries(outputs(outcome)).map(([name, value]) => [name, redact(value, settings.secrets)])
    ),
    finalLine: finalLine(outcome),
    logTail: tail && {
      title: logTailTitle(tail, outcome.server?.logFile),
      lines: tail.map((line) => `${line.number}: ${line.text}`)
    },
    // A cancelled job must end within a second; the diagnostics could take minutes.
    diagnostics: outcome.ready || outcome.reason === 'cancelled' ? [] : settings.diagnostics,
    verdict,
    failedRegression,
    exitCode: verdict?.kind === 'fail' || failedRegression !== undefined ? 1 : 0,
    context
  }
}
