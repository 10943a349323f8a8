/** What one step's summary may hold: GitHub's 1 MiB shared by its parts, and a log tail's share of it. */

export const MAX_SUMMARY_BYTES = 1024 * 1024 - 16 * 1024
export const MAX_TAIL_CHARS = 64 * 1024

/** The last lines that fit in `max` characters together. */
export function lastChars(lines: readonly string[], max: number): string[] {
  let total = 0
  let i = lines.length
  while (i > 0 && total + lines[i - 1].length + 1 <= max) total += lines[--i].length + 1
  return lines.slice(i)
}

/** The text cut at a line to fit in `max` UTF-8 bytes, saying so. */
export function capBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text
  const cut = Buffer.from(text)
    .subarray(0, max - LEFT_OUT_BYTES)
    .toString('utf8')
  return `${cut.slice(0, cut.lastIndexOf('\n') + 1)}\n*(the rest of this summary is left out: GitHub takes at most 1 MiB)*\n`
}

/** Room kept for the line saying the rest is left out. */
const LEFT_OUT_BYTES = 200

/**
 * The parts of one step's summary, written one after another (the job-end step's, a section per server): each is
 * given what the parts before it left of GitHub's 1 MiB, and once that is spent, nothing.
 */
export function summaryBudget(max = MAX_SUMMARY_BYTES): (part: string) => string {
  let left = max
  return (part) => {
    const bytes = Buffer.byteLength(part)
    if (bytes <= left - LEFT_OUT_BYTES) {
      left -= bytes
      return part
    }
    const capped = left < LEFT_OUT_BYTES ? '' : capBytes(part, left)
    left = 0
    return capped
  }
}

/** A log's last lines, as many as a summary shows of one (each line as `number: text`). */
export function summaryTail<T extends { number: number; text: string }>(lines: readonly T[]): T[] {
  const shown = lastChars(
    lines.map((l) => `${l.number}: ${l.text}`),
    MAX_TAIL_CHARS
  )
  return lines.slice(lines.length - shown.length)
}
