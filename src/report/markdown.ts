/** Markdown for the job summaries (the wait's, the job-end stop's): cells, literal text, code, fences, titles. */
import type { LogLine } from '../server/log-follower.js'

export const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ')

/** Server or log text as literal Markdown (before `cell`): no HTML, emphasis, code span, link or autolink. */
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

export function logTailTitle(tail: readonly LogLine[], file = 'the log'): string {
  return tail.length === 0 ? `${file} is empty` : `Last ${tail.length} line${tail.length === 1 ? '' : 's'} of ${file}`
}

/** A code block whose fence no line of the text can close. */
export function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}\n${text}\n${fence}`
}
