/**
 * The first probe, sent as soon as the settings are read and before the rest of the wait is loaded. A server that
 * is already up waits only for this request: compiling the wait loop, the port watch, the reports and the history
 * first (most of the action's own code) held it back by as long. The action sends it, loads the gate once it is on
 * its way, and the gate takes its answer as the wait's first attempt.
 */
import { createProber, type Prober, type ProbeOptions, type ProbeResult } from '../http/probe.js'
import { setUpUndici } from '../http/undici-parts.js'
import type { Settings } from '../inputs/settings.js'
import type { Clock } from '../runtime/clock.js'
import { type BodyCollector, createBodyCollector } from '../runtime/memory.js'

/**
 * Undici compiles and runs its request path for a few milliseconds before the first request leaves; what is
 * loaded in that time delays it. Once the answer is in, or after this long (a server far away, or one that never
 * answers), the probe is on its way.
 */
const ON_ITS_WAY_MS = 100

export interface FirstProbe {
  /**
   * The target it was sent for (the settings' own URL object): the gate gives its answer to that target alone,
   * never to another endpoint.
   */
  url: URL
  /** The client the wait goes on probing with. */
  prober: Prober
  /**
   * The first answer, handed over once: an answer (up to 1 MiB, and its JSON) must not stay reachable after the
   * wait has judged it.
   */
  takeAnswer(): Promise<ProbeResult> | undefined
  /** Shared by every HTTP client of the wait. */
  collector: BodyCollector
  /** Cuts the probe short while it is still in flight (the wait has been halted). */
  abort(): void
}

/**
 * What every HTTP client of a wait shares: its TLS settings, the secrets to mask in answers as they arrive, and
 * the collection of what their bodies leave.
 */
export const clientSettings = (
  { caCert, insecureTls, secrets }: Settings,
  collector: BodyCollector
): Pick<ProbeOptions, 'caCert' | 'insecureTls' | 'secrets' | 'collector'> => ({
  caCert,
  insecureTls,
  secrets,
  collector
})

/** A server to start or follow, or a log to read: the wait needs the server side, and starts with it. */
export const usesServerSide = (s: Settings): boolean =>
  s.start !== undefined || s.pid !== undefined || s.logFile !== undefined || s.container !== undefined

/**
 * Sends the first probe, with the budget the wait loop would give it (the request timeout, within the overall
 * deadline counted from `startedAt`), and resolves once it is on its way (`ON_ITS_WAY_MS`). Undefined where the
 * wait starts otherwise:
 * - with the server side (a server to launch or follow comes before any probe);
 * - for a fleet, which loads the gate first: its answers, up to 1 MiB each, are then judged one by one as they
 *   come, not held together while the gate loads (a fleet of ten 1 MiB lists peaked at 102-126 MB sent first,
 *   under 100 MB otherwise: hostile-content.e2e.test.ts).
 */
export async function sendFirstProbe(
  settings: Settings,
  clock: Clock,
  startedAt: number
): Promise<FirstProbe | undefined> {
  if (usesServerSide(settings) || settings.targets.length !== 1) return undefined
  setUpUndici()
  const collector = createBodyCollector()
  const cut = new AbortController()
  const budgetMs = Math.max(1, Math.min(settings.requestTimeoutMs, startedAt + settings.timeoutMs - clock.now()))
  const { url } = settings.targets[0]
  const prober = createProber({ url, headers: settings.headers, ...clientSettings(settings, collector) })
  let answer: Promise<ProbeResult> | undefined = prober.probe(budgetMs, cut.signal)
  const stopWaiting = new AbortController()
  await Promise.race([answer, clock.sleep(ON_ITS_WAY_MS, stopWaiting.signal)])
  stopWaiting.abort()
  return {
    url,
    prober,
    takeAnswer: () => {
      const taken = answer
      answer = undefined
      return taken
    },
    collector,
    abort: () => cut.abort()
  }
}
