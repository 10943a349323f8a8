/** Words for the answers that end a wait at once because waiting cannot change them: a failed load, another model, a dead engine. */
import type { Answer } from '../facts/answer.js'
import { formatDuration } from '../runtime/clock.js'
import { clip } from '../runtime/text.js'

interface Words {
  summary: string
  detail: string
}

const quoted = (ids: readonly string[]): string =>
  ids
    .slice(0, 10)
    .map((id) => `"${clip(id, 200)}"`)
    .join(', ')

/** The words of a `load-failed`, `wrong-model` or `engine-dead` answer; undefined for any other answer. */
export function cannotChangeWords(answer: Answer, listed: () => string): Words | undefined {
  if (answer.loadFailed !== undefined) {
    const { request, model, reason } = answer.loadFailed
    const said = clip(reason, 500)
    return {
      summary: `${request}: "${model}" UNAVAILABLE: ${said}`,
      detail: `the engine says "${model}" failed to load (${request}: UNAVAILABLE): ${said}. Waiting will not load it`
    }
  }
  if (answer.wrongModel !== undefined) {
    const { model, serving, nearest, forMs } = answer.wrongModel
    const near = nearest === undefined ? '' : ` (the nearest listed name is "${clip(nearest, 200)}")`
    return {
      summary: `${listed()} — serves another model, not "${model}"`,
      detail:
        `the server serves ${quoted(serving)}, not "${model}"${near}, unchanged for ${formatDuration(forMs)}, ` +
        'and this engine serves only the models it was started with. Fix "model", or the model the server starts with'
    }
  }
  if (answer.engineDead !== undefined) {
    const { request, by, status, count } = answer.engineDead
    const what =
      by === 'health'
        ? `${request} answered ${status ?? 'an error'} after it had said ready`
        : `${request} answered the engine's own dead-engine error ${count ?? 3} times in a row` +
          (status === undefined ? '' : ` (HTTP ${status})`)
    return {
      summary: `${listed()} — the engine died: ${what}`,
      detail: `the engine's core died: ${what}. It will not recover by waiting: see the server's log, and restart it`
    }
  }
  return undefined
}
