/** One endpoint's wait: its probes, its engine's readiness route, `load`, and its generation check. */
import { createGenerator } from './generation-check.js'
import { listsAsRouter, SERVES_ONE_MODEL } from '../engines/readiness.js'
import { engineReadiness } from './engine-readiness.js'
import { engineOfModelList } from '../engines/log-markers.js'
import type { Engine } from '../engines/engine-names.js'
import { loadRequest } from '../engines/load.js'
import { loadAskedText, partialMatchText, wakeAskedText } from '../report/lifecycle-report.js'
import { createHttpClient, createProber, type ProbeResult } from '../http/probe.js'
import { eventLine, probeLine } from '../report/progress.js'
import type { Target } from '../inputs/settings.js'
import { waitForModel } from './loop.js'
import { clientSettings } from './first-probe.js'
import { type Assessment, expectation } from '../facts/answer.js'
import type { TargetOutcome } from '../facts/outcome.js'
import type { Shared } from './deps.js'

/** One endpoint's wait, its HTTP clients closed however it ends. */
export async function waitForTarget({ url, generation }: Target, shared: Shared): Promise<TargetOutcome> {
  const { settings, deps, halter, log, profile } = shared
  const { clock } = deps
  const prefix = shared.prefix ?? ''
  const tls = clientSettings(settings, shared.collector)
  const waitStart = deps.startedAt ?? clock.now()
  // the first probe, sent for this very target before the gate was loaded, is the wait's first attempt
  const first = shared.firstProbe?.url === url ? shared.firstProbe : undefined
  const prober = first?.prober ?? createProber({ url, headers: settings.headers, ...tls })
  let firstAnswer = first?.takeAnswer()
  const generator = generation && createGenerator({ ...generation, headers: settings.headers, clock, ...tls })
  // The engine this endpoint's own model list names (`owned_by`). A fleet may mix engines: what one endpoint
  // lists must not choose another's readiness route (SGLang's /health asked of an Ollama server never answers).
  let listed: Engine | undefined
  // llama.cpp's router mode loads other models when asked: its list may change (see SERVES_ONE_MODEL)
  let router = false
  // `engine`, else this endpoint's list, else the server's log (one server: its log speaks for its endpoints)
  const engineOf = (): Engine | undefined =>
    settings.engine ?? listed ?? (log !== undefined ? profile.engine : undefined)
  const probe = async (timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult> => {
    const answer = firstAnswer ?? prober.probe(timeoutMs, signal)
    firstAnswer = undefined
    const result = await answer
    deps.debug?.(`${prefix}${probeLine(result)}`)
    // One look at each answer until its list names the engine (a list that never does is read once a probe)
    if (result.kind === 'http') router ||= listsAsRouter(result.json)
    if (result.kind === 'http' && listed === undefined) {
      listed = engineOfModelList(result.json)
      // and the first list to name it names it for the startup phases too, when the log has not
      if (listed !== undefined && profile.engine === undefined) {
        const lines = profile.models(result.json)
        if (log !== undefined) shared.sayStartup(lines)
      }
    }
    return result
  }
  // the engine's own readiness answers on the same origin, for an engine that lists its model before it serves
  const readiness = engineReadiness({
    url,
    headers: settings.headers,
    tls,
    clock,
    owner: shared,
    load: settings.load,
    label: (engine) => profile.label ?? engine ?? 'the engine',
    debug: deps.debug && ((line) => deps.debug?.(`${prefix}${line}`)),
    leftMs: () => waitStart + settings.timeoutMs - clock.now(),
    wokeUp: (label, wakeUrl) => deps.log(`${prefix}${wakeAskedText(label, wakeUrl)}`)
  })
  const engineReady = (modelId: string | undefined, timeoutMs: number, signal?: AbortSignal) =>
    readiness.check(engineOf(), modelId ?? settings.model, timeoutMs, signal)
  // `load`: the first answer that shows the model waiting to be asked for sends the load request, once
  let loading: Promise<void> | undefined
  const loader = settings.load ? createHttpClient(tls) : undefined
  const askToLoad = (answer: Assessment): void => {
    const request = loader && loading === undefined ? loadRequest(url, answer, settings.model) : undefined
    if (request === undefined || loader === undefined) return
    deps.log(`${prefix}${loadAskedText(request.url, request.body.model)}`)
    const left = Math.max(1, waitStart + settings.timeoutMs - clock.now())
    loading = loader
      .send({ url: request.url, method: 'POST', headers: settings.headers, json: request.body }, left, halter.signal)
      .then((result) => deps.debug?.(`${prefix}${request.url.pathname}: ${probeLine(result)}`))
  }
  try {
    const outcome = await waitForModel(
      {
        expect: expectation(settings),
        intervalMs: settings.intervalMs,
        timeoutMs: settings.timeoutMs,
        requestTimeoutMs: settings.requestTimeoutMs,
        successThreshold: settings.successThreshold,
        progressIntervalMs: settings.progressIntervalMs,
        schedule: settings.schedule,
        once: deps.once,
        wrongModelAfterMs: settings.wrongModelAfterMs
      },
      {
        probe,
        generate: generator ? generator.generate : undefined,
        engineReady,
        servesOneModel: () => {
          const engine = engineOf()
          return engine !== undefined && SERVES_ONE_MODEL[engine] && !(engine === 'llamacpp' && router)
        },
        loadFailure: (timeoutMs, signal) => readiness.loadFailure(engineOf(), settings.model, timeoutMs, signal),
        deadGeneration: (answer) => readiness.deadAnswer(engineOf(), answer),
        halter,
        portWatch: deps.once ? undefined : shared.ports.watchFor(url),
        readyLine: shared.readyLine,
        readyAt: shared.readyAt,
        usualAnsweringMs: shared.usualAnsweringMs,
        logLines: shared.logLines,
        clock,
        startedAt: deps.startedAt,
        onEvent: (e) => {
          askToLoad(e.assessment)
          const startup = e.type === 'progress' ? shared.progressAt(clock.now()) : undefined
          if (e.type === 'lost') deps.warn(`${prefix}${eventLine(e, startup)}`, 'server-lost')
          else deps.log(`${prefix}${eventLine(e, startup)}`)
        }
      }
    )
    // its own end, not a halt's: the fleet may end the others' waits for it
    if (halter.halted === undefined) shared.settled?.(url, outcome)
    const matched = outcome.ready ? outcome.last : undefined
    if (matched?.modelMatch === 'partial' && settings.model !== undefined && matched.modelId !== undefined)
      deps.warn(`${prefix}${partialMatchText(settings.model, matched.modelId)}`, 'model-match')
    return { ...outcome, url, engine: engineOf() }
  } finally {
    await Promise.all([prober.close(), generator?.close(), readiness.close(), loader?.close()])
  }
}
