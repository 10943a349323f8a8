/** What every part of a wait's report says alike: what readiness means for these settings, how many probes. */
import type { Expectation } from '../facts/answer.js'

/** The report's view of the settings, for `url` (the endpoint the outcome describes). */
export interface ReportContext {
  url: URL
  expect: Expectation
  timeoutMs: number
}

export const probes = (n: number): string => `${n} probe${n === 1 ? '' : 's'}`

/** What readiness means for these settings, in words. */
export function describeExpectation({ expect, url }: ReportContext, subject = url.href): string {
  const parts = [
    `${subject} to answer with an accepted status (${expect.status.map(([lo, hi]) => (lo === hi ? lo : `${lo}-${hi}`)).join(',')})`
  ]
  if (expect.model !== undefined) parts.push(`list model "${expect.model}"`)
  if (expect.match !== undefined) parts.push(`contain "${expect.match}"`)
  if (expect.matchRegex !== undefined) parts.push(`match ${String(expect.matchRegex)}`)
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
}
