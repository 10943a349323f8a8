/** What must happen once the wait is over, decided once for every front end. Pure: no I/O. */
import { expectation } from '../facts/answer.js'
import type { GateOutcome } from '../facts/outcome.js'
import { smokeProblemMessage } from '../report/smoke-report.js'
import type { Settings } from '../inputs/settings.js'
import { jobEndState, serverEndStates } from '../server/job-end.js'
import type { ReportContext } from '../report/progress.js'
import { failureMessage } from '../report/failure.js'
import { failureTitle, NOTE_TITLES } from '../report/annotation-titles.js'
import { logTailTitle } from '../report/markdown.js'
import { type Outputs, outputs } from '../report/outputs.js'
import { finalLine } from '../report/progress.js'
import { redact } from '../inputs/secrets.js'

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
  /** Said last, in order: a smoke test that could not measure (a warning), not ready, a regression. */
  verdicts: Verdict[]
  /** The outcome as judged: not ready (`smoke-failed`) where `smoke-test: fail-on-error` could not measure. */
  outcome: GateOutcome
  /** 0 unless something above fails the run. */
  exitCode: 0 | 1
  /** For the words a front end adds (the job summary). */
  context: ReportContext
  /** What the action's job-end step needs to stop the server (`stop: job-end`), to save in the runner's state. */
  jobEndState?: Record<string, string>
}

/** A warning, or a failure of the run; `title` heads the action's annotation. */
export interface Verdict {
  kind: 'fail' | 'warn'
  message: string
  title: string
}

/** Each endpoint's smoke test that could not measure throughput, in words. */
function smokeProblems(outcome: GateOutcome): string | undefined {
  const fleet = outcome.results.length > 1
  const messages = outcome.results.flatMap((r) =>
    r.smoke?.problem === undefined ? [] : [smokeProblemMessage(r.smoke, fleet ? r.url : undefined)]
  )
  return messages.length === 0 ? undefined : messages.join('\n')
}

export function conclude(gateOutcome: GateOutcome, settings: Settings): Conclusion {
  const smokeMessage = gateOutcome.ready ? smokeProblems(gateOutcome) : undefined
  const failSmoke = smokeMessage !== undefined && settings.smoke?.failOnError === true
  // Ready means ready: with fail-on-error, a server that cannot generate a measured stream is not.
  const outcome: GateOutcome = failSmoke
    ? {
        ...gateOutcome,
        ready: false,
        reason: 'smoke-failed',
        results: gateOutcome.results.map((r) =>
          r.smoke?.problem !== undefined ? { ...r, ready: false, reason: 'smoke-failed' } : r
        )
      }
    : gateOutcome
  const context: ReportContext = { url: outcome.url, expect: expectation(settings), timeoutMs: settings.timeoutMs }
  const tail = outcome.ready ? undefined : outcome.server?.logTail
  const verdicts: Verdict[] = []
  if (smokeMessage !== undefined && !failSmoke)
    verdicts.push({ kind: 'warn', message: smokeMessage, title: NOTE_TITLES.smoke })
  if (!outcome.ready)
    verdicts.push({
      kind: 'fail',
      // a fleet's failure names its endpoint
      message: failSmoke
        ? smokeMessage
        : `${outcome.results.length > 1 ? `${outcome.url.href}: ` : ''}${failureMessage(outcome, context)}`,
      title: failureTitle(outcome.reason)
    })
  const { regression, throughputRegression } = outcome.profile ?? {}
  if (settings.failOnRegression && regression !== undefined)
    verdicts.push({ kind: 'fail', message: regression, title: NOTE_TITLES.regression })
  if (settings.failOnRegression && throughputRegression !== undefined)
    verdicts.push({ kind: 'fail', message: throughputRegression, title: NOTE_TITLES['throughput-regression'] })
  const drift = outcome.profile?.drift
  if (settings.failOnEnvironment && drift !== undefined)
    verdicts.push({ kind: 'fail', message: drift, title: NOTE_TITLES.drift })
  // a ready server whose step fails (a regression, a changed environment): the summary's headline says so
  const failedBy = outcome.ready ? verdicts.find((v) => v.kind === 'fail')?.title : undefined
  if (failedBy !== undefined) context.failedBy = failedBy
  return {
    outcome,
    ready: outcome.ready,
    // the same names, each value redacted
    outputs: Object.fromEntries(
      Object.entries(outputs(outcome)).map(([name, value]) => [name, redact(value, settings.secrets)])
    ) as Outputs,
    finalLine: finalLine(outcome),
    logTail: tail && {
      title: logTailTitle(tail, outcome.server?.logFile),
      lines: tail.map((line) => `${line.number}: ${line.text}`)
    },
    // A cancelled job must end within a second; the diagnostics could take minutes.
    diagnostics: outcome.ready || outcome.reason === 'cancelled' ? [] : settings.diagnostics,
    verdicts,
    exitCode: verdicts.some((v) => v.kind === 'fail') ? 1 : 0,
    context,
    jobEndState: serversEndState(settings, outcome)
  }
}

/** What the job-end step stops: each server's entry, its facts from its own result (a fleet's) or the outcome's. */
function serversEndState(settings: Settings, outcome: GateOutcome): Record<string, string> | undefined {
  const facts = (i: number): GateOutcome['server'] =>
    settings.servers.length === 1 ? outcome.server : outcome.results[i].server
  return jobEndState(serverEndStates(settings, facts))
}
