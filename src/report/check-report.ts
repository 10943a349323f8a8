/**
 * The one line `wait-for-model check` prints: what a health check's log (Docker's `docker inspect` health log,
 * a Kubernetes probe's event) shows. One line, whatever the server said, so that a probe's output stays readable.
 */
import { formatDuration } from '../runtime/clock.js'
import type { GateOutcome } from '../facts/outcome.js'
import { answerWords } from './answer-report.js'

const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ')

export function checkLine(outcome: GateOutcome): string {
  const took = formatDuration(outcome.elapsedMs)
  const endpoints = outcome.results.length > 1 ? ` (${outcome.results.length} endpoints)` : ''
  if (outcome.ready) {
    const model = outcome.last?.modelId ? ` model "${outcome.last.modelId}"` : ''
    const said = outcome.last === undefined ? '' : answerWords(outcome.last.answer).summary
    return oneLine(`ready in ${took}${endpoints}:${model} ${said}`.trimEnd())
  }
  // A wait's reason "timeout" means "not ready yet" here: the one answer there was says why.
  const why = outcome.reason === 'timeout' ? 'not ready' : `not ready (${outcome.reason})`
  const last = outcome.last && answerWords(outcome.last.answer)
  const said =
    last === undefined ? 'no answer' : outcome.reason === 'timeout' ? last.summary : last.detail || last.summary
  const where = outcome.results.length > 1 ? `${outcome.url.href}: ` : ''
  return oneLine(`${why} after ${took}${endpoints}: ${where}${said}`)
}
