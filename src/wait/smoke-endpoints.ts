/** The smoke test of every endpoint of a wait once all are ready: each endpoint's requests one after another. */
import type { ProbeSettings, SmokeTestSettings, WaitSettings } from '../inputs/settings.js'
import type { TargetOutcome } from '../facts/outcome.js'
import type { Clock } from '../runtime/clock.js'
import { smokeLines } from '../report/smoke-report.js'
import { smokeTest } from '../smoke/measure.js'
import { streamRoute } from '../engines/streams.js'

/**
 * Each ready endpoint with its smoke test. A fleet's endpoints are measured at the same time (each its own
 * server), every one within its fixed limit and the wait's `timeout`; `signal` (the wait's halter: a cancelled
 * job, the server gone) ends them.
 */
export async function smokeEndpoints(
  results: readonly TargetOutcome[],
  settings: SmokeTestSettings & ProbeSettings & Pick<WaitSettings, 'timeoutMs'>,
  deps: { clock: Clock; signal: AbortSignal; log(line: string): void }
): Promise<TargetOutcome[]> {
  const smoke = settings.smoke
  if (smoke === undefined) return [...results]
  return Promise.all(
    results.map(async (r) => {
      if (!r.ready) return r
      const prefix = results.length > 1 ? `[${r.url.href}] ` : ''
      const found = streamRoute(r.url, r.engine)
      const request = 'route' in found ? `POST ${found.route.path}` : undefined
      deps.log(`${prefix}${smokeLines.start(smoke.requests, smoke.tokens, request)}`)
      const result = await smokeTest(
        {
          url: r.url,
          engine: r.engine,
          // the listed id the wait matched: the `model` input may be a part of it
          model: r.last?.modelId ?? settings.model ?? r.models[0],
          headers: settings.headers,
          caCert: settings.caCert,
          insecureTls: settings.insecureTls,
          secrets: settings.secrets
        },
        // the time the wait has left (its elapsed time counts from the same start as its timeout)
        { ...smoke, timeoutMs: Math.max(1, Math.min(smoke.timeoutMs, settings.timeoutMs - r.elapsedMs)) },
        {
          clock: deps.clock,
          signal: deps.signal,
          measured: (i, m) => deps.log(`${prefix}${smokeLines.measured(i, smoke.requests, m)}`)
        }
      )
      const line = smokeLines.result(result)
      if (line !== undefined) deps.log(`${prefix}${line}`)
      return { ...r, smoke: result }
    })
  )
}
