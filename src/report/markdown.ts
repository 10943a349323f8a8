/** Markdown for the job summaries (the wait's, the job-end stop's): cells, literal text, code, fences, titles. */
import type { LogLine } from '../server/log-follower.js'

export const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ')

/**
 * Text a server or a log wrote, as literal Markdown (before `cell`): no HTML (`<img>`), no emphasis, no code span,
 * no link or image, no autolink (`https://…`, `www.…`).
 */
export function mdText(text: string): string {
  return text
    .replace(/[\\`*_~[\]]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/:\/\//g, ':\\/\\/')
    .replace(/\b(www)\./gi, '$1\\.')
}

/** Text as code: a code span when it holds no backtick (nothing renders inside one), else as `mdText`. */
export const code = (text: string): string => (text.includes('`') ? mdText(text) : `\`${text}\``)

/** The title of a server log's last lines (the log, both job summaries). */
export function logTailTitle(tail: readonly LogLine[], file = 'the log'): string {
  return tail.length === 0 ? `${file} is empty` : `Last ${tail.length} line${tail.length === 1 ? '' : 's'} of ${file}`
}

/** A code block whose fence no line of the text can close. */
export function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}\n${text}\n${fence}`
}
