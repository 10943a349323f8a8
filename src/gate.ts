/** The whole wait, from settings to outcome, shared by every front end (the action, the CLI). */
import { createProber } from './probe.js'
import { describeExpectation, eventLine, type ReportContext } from './report.js'
import type { Settings } from './settings.js'
import { type Clock, formatDuration } from './time.js'
import { type Outcome, waitForModel } from './wait.js'

export interface GateDeps {
  clock: Clock
  startedAt?: number
  /** Receives every progress line, already in words. */
  log(line: string): void
}

export const reportContext = (s: Settings): ReportContext => ({ url: s.url, expect: expectation(s), timeoutMs: s.timeoutMs })

const expectation = (s: Settings): ReportContext['expect'] => ({
  model: s.model,
  match: s.match,
  matchRegex: s.matchRegex,
  status: s.status
})

export async function gate(settings: Settings, deps: GateDeps): Promise<Outcome> {
  deps.log(
    `Waiting up to ${formatDuration(settings.timeoutMs)} for ${describeExpectation(reportContext(settings))}; ` +
      `probing every ${formatDuration(settings.intervalMs)}`
  )
  const prober = createProber({ url: settings.url, headers: settings.headers })
  try {
    return await waitForModel(
      {
        expect: expectation(settings),
        intervalMs: settings.intervalMs,
        timeoutMs: settings.timeoutMs,
        requestTimeoutMs: settings.requestTimeoutMs,
        successThreshold: settings.successThreshold,
        progressIntervalMs: settings.progressIntervalMs
      },
      { probe: prober.probe, clock: deps.clock, startedAt: deps.startedAt, onEvent: (e) => deps.log(eventLine(e)) }
    )
  } finally {
    await prober.close()
  }
}
