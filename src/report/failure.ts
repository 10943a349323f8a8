/** The failure: the message a wait that was not ready ends with. */
import { answerWords, someOf } from './answer-report.js'
import { describeExpectation, probes, type ReportContext } from './progress.js'
import { formatDuration } from '../runtime/clock.js'
import type { Outcome } from '../facts/wait.js'

export function failureMessage(outcome: Outcome, ctx: ReportContext): string {
  const last = outcome.last
  const words = last && answerWords(last.answer)
  const waited = `${formatDuration(outcome.elapsedMs)} and ${probes(outcome.attempts)}`
  // generations that kept failing alike end the wait before the timeout, as the answers that stop it do
  const stopped =
    last?.answer.generationsFailing !== undefined || (outcome.reason === 'log-error' && outcome.halt === undefined)
  if (STOPPED_BY_ANSWER.includes(outcome.reason) || stopped) {
    return `Stopped after ${waited}: ${words?.detail ?? outcome.reason}.`
  }
  if (outcome.reason === 'port-busy' || outcome.reason === 'gpu-busy') {
    return sentence(`Did not start the server: ${outcome.halt?.detail ?? outcome.reason}`)
  }
  if (outcome.halt) {
    // a cancel after the wait had found it ready (its smoke test cut short): it was ready, the run is not
    const before = last?.state === 'ready' ? '' : ', before the server was ready'
    const lines = [sentence(`Stopped after ${waited}${before}: ${outcome.halt.detail}`)]
    if (words !== undefined) lines.push(sentence(`Last answer: ${words.summary}`))
    return lines.join('\n')
  }
  const lines = [
    outcome.reason === 'generation-failed'
      ? sentence(
          `Timed out after ${waited} (timeout ${formatDuration(ctx.timeoutMs)}): ${words?.detail ?? 'the generation request failed'}`
        )
      : `Timed out after ${waited} (timeout ${formatDuration(ctx.timeoutMs)}) waiting for ${describeExpectation(ctx)}.`
  ]
  if (last === undefined || words === undefined) return lines[0]
  lines.push(sentence(`Last answer: ${words.summary}`))
  if (last.models !== undefined && ctx.expect.model !== undefined) {
    lines.push(
      last.models.length
        ? `The server lists: ${someOf(last.models, 50, last.modelCount)}.`
        : 'The server lists no models.'
    )
  }
  if (last.excerpt) lines.push(`Body (first 200 characters): ${last.excerpt}`)
  if (outcome.firstResponseMs === undefined) lines.push('The server never answered over HTTP.')
  return lines.join('\n')
}

/** Reasons an answer gives at once: the failure says what to do, not how long it waited for what. */
const STOPPED_BY_ANSWER: readonly Outcome['reason'][] = [
  'unauthorized',
  'tls',
  'ambiguous-model',
  'load-failed',
  'wrong-model',
  'engine-dead'
]

/** Server messages often end a sentence already. */
const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`)
