/** One endpoint's wait: its probes, its engine's readiness route, `load`, and its generation check. */
import { createGenerator, type Generator } from './generation-check.js'
import { listsAsRouter, SERVES_ONE_MODEL } from '../engines/readiness.js'
import { type EngineReadiness, engineReadiness } from './engine-readiness.js'
import { engineOfModelList } from '../engines/log-markers.js'
import type { Engine } from '../engines/engine-names.js'
import { loadRequest } from '../engines/load.js'
import { loadAskedText, partialMatchText, wakeAskedText } from '../report/lifecycle-report.js'
import {
  createHttpClient,
  createProber,
  type HttpClient,
  type ProbeOptions,
  type ProbeResult,
  type Prober
} from '../http/probe.js'
import type { BodyCollector } from '../runtime/memory.js'
import { eventLine, probeLine } from '../report/progress.js'
import type { Settings, Target } from '../inputs/settings.js'
import { waitForModel, type WaitDeps, type WaitOptions } from './loop.js'
import { type Assessment, expectation } from '../facts/answer.js'
import type { TargetOutcome } from '../facts/outcome.js'
import type { Outcome } from '../facts/wait.js'
import type { EndpointPart, ServerWait } from './deps.js'

/** One endpoint's wait, its HTTP clients closed however it ends. */
export async function waitForTarget(target: Target, server: ServerWait, own: EndpointPart): Promise<TargetOutcome> {
  const { url } = target
  const endpoint = openEndpoint(target, server, own)
  try {
    const outcome = await waitForModel(loopOptions(server), loopDeps(endpoint, server, own))
    // its own end, not a halt's: the others' waits may end for it
    if (own.halter.halted === undefined) own.settled?.(url, outcome)
    warnOfPartialMatch(outcome, server, own)
    return { ...outcome, url, engine: endpoint.engine.of() }
  } finally {
    await Promise.all([
      endpoint.prober.close(),
      endpoint.generator?.close(),
      endpoint.readiness.close(),
      endpoint.loader.close()
    ])
  }
}

/**
 * What one endpoint's wait holds from its start to its end: its HTTP clients (each keeps its connections between
 * requests, and is closed once, when the wait ends) and what its answers have told of its engine.
 */
interface Endpoint {
  url: URL
  prober: Prober
  generator?: Generator
  readiness: EngineReadiness
  loader: Loader
  engine: EndpointEngine
}

/**
 * The endpoint's clients, all opened at once before the wait, so that the one `finally` of `waitForTarget` closes
 * every one of them, however the wait ends.
 */
function openEndpoint({ url, generation }: Target, server: ServerWait, { prefix, halter }: EndpointPart): Endpoint {
  const { settings, deps, profile } = server
  const { clock } = deps
  const tls = clientSettings(settings, server.collector)
  // the deadline counts from the wait's start (the action's: its process start); what is left of it bounds the
  // wake-up and the load requests, which may take it all (the weights go back to the GPU meanwhile)
  const waitStart = deps.startedAt ?? clock.now()
  const leftMs = (): number => waitStart + settings.timeoutMs - clock.now()
  const prober = createProber({ url, headers: settings.headers, ...tls })
  const generator = generation && createGenerator({ ...generation, headers: settings.headers, clock, ...tls })
  // the engine's own readiness answers on the same origin, for an engine that lists its model before it serves
  const readiness = engineReadiness({
    url,
    headers: settings.headers,
    tls,
    clock,
    pace: server.pace,
    load: settings.load,
    label: (engine) => profile.label ?? engine ?? 'the engine',
    debug: deps.debug && ((line) => deps.debug?.(`${prefix}${line}`)),
    leftMs,
    wokeUp: (label, wakeUrl) => deps.log(`${prefix}${wakeAskedText(label, wakeUrl)}`)
  })
  const client = settings.load ? createHttpClient(tls) : undefined
  const loader = loadAsker(url, client, leftMs, server, { prefix, halter })
  return { url, prober, generator, readiness, loader, engine: endpointEngine(server) }
}

/**
 * Which engine serves this endpoint. A fleet may mix engines: what one endpoint lists must not choose another's
 * readiness route (SGLang's /health asked of an Ollama server never answers), so each endpoint reads its own.
 */
interface EndpointEngine {
  /** `engine`, else this endpoint's model list (`owned_by`), else the server's log (one server: its log speaks for its endpoints). */
  of(): Engine | undefined
  /** Reads one answer for what it tells of the engine. */
  read(result: ProbeResult): void
  /** Whether the engine serves only the models it was started with (see `SERVES_ONE_MODEL`). */
  servesOneModel(): boolean
}

function endpointEngine(server: ServerWait): EndpointEngine {
  const { settings, log, profile } = server
  // the engine this endpoint's own model list names
  let listed: Engine | undefined
  // llama.cpp's router mode loads other models when asked: its list may change (see SERVES_ONE_MODEL)
  let router = false
  const of = (): Engine | undefined => settings.engine ?? listed ?? (log !== undefined ? profile.engine : undefined)
  return {
    of,
    read: (result) => {
      // One look at each answer until its list names the engine (a list that never does is read once a probe)
      if (result.kind === 'http') router ||= listsAsRouter(result.json)
      if (result.kind === 'http' && listed === undefined) {
        listed = engineOfModelList(result.json)
        // and the first list to name it names it for the startup phases too, when the log has not
        if (listed !== undefined && profile.engine === undefined) {
          const lines = profile.models(result.json)
          if (log !== undefined) server.sayStartup(lines)
        }
      }
    },
    servesOneModel: () => {
      const engine = of()
      return engine !== undefined && SERVES_ONE_MODEL[engine] && !(engine === 'llamacpp' && router)
    }
  }
}

/** `load`: the load request, sent once, for the first answer that shows the model waiting to be asked for. */
interface Loader {
  ask(answer: Assessment): void
  close(): Promise<void> | undefined
}

function loadAsker(
  url: URL,
  client: HttpClient | undefined,
  leftMs: () => number,
  { settings, deps }: ServerWait,
  { prefix, halter }: Pick<EndpointPart, 'prefix' | 'halter'>
): Loader {
  let loading: Promise<void> | undefined
  return {
    ask: (answer) => {
      const request = client && loading === undefined ? loadRequest(url, answer, settings.model) : undefined
      if (request === undefined || client === undefined) return
      deps.log(`${prefix}${loadAskedText(request.url, request.body.model)}`)
      // within what is left of the wait, and cut short by its halt like every request of it
      loading = client
        .send(
          { url: request.url, method: 'POST', headers: settings.headers, json: request.body },
          Math.max(1, leftMs()),
          halter.signal
        )
        .then((result) => deps.debug?.(`${prefix}${request.url.pathname}: ${probeLine(result)}`))
    },
    close: () => client?.close()
  }
}

/** The loop's options: the settings' timing and expectation, and `once` for `wait-for-model check`. */
function loopOptions({ settings, deps }: ServerWait): WaitOptions {
  return {
    expect: expectation(settings),
    intervalMs: settings.intervalMs,
    timeoutMs: settings.timeoutMs,
    requestTimeoutMs: settings.requestTimeoutMs,
    successThreshold: settings.successThreshold,
    progressIntervalMs: settings.progressIntervalMs,
    schedule: settings.schedule,
    once: deps.once,
    wrongModelAfterMs: settings.wrongModelAfterMs
  }
}

/** What the loop asks of this endpoint (its probes and checks), and what it is told by the server's log. */
function loopDeps(endpoint: Endpoint, shared: ServerWait, { halter, prefix }: EndpointPart): WaitDeps {
  const { settings, deps } = shared
  const { clock } = deps
  const { engine, readiness, generator, loader } = endpoint
  return {
    probe: async (timeoutMs, signal) => {
      const result = await endpoint.prober.probe(timeoutMs, signal)
      deps.debug?.(`${prefix}${probeLine(result)}`)
      engine.read(result)
      return result
    },
    generate: generator ? generator.generate : undefined,
    engineReady: (modelId, timeoutMs, signal) =>
      readiness.check(engine.of(), modelId ?? settings.model, timeoutMs, signal),
    servesOneModel: engine.servesOneModel,
    loadFailure: (timeoutMs, signal) => readiness.loadFailure(engine.of(), settings.model, timeoutMs, signal),
    deadGeneration: (answer) => readiness.deadAnswer(engine.of(), answer),
    halter,
    portWatch: deps.once ? undefined : shared.ports.watchFor(endpoint.url),
    readyLine: shared.readyLine,
    readyAt: shared.readyAt,
    usualAnsweringMs: shared.usualAnsweringMs,
    logLines: shared.logLines,
    clock,
    startedAt: deps.startedAt,
    onEvent: (e) => {
      loader.ask(e.assessment)
      const startup = e.type === 'progress' ? shared.progressAt(clock.now()) : undefined
      if (e.type === 'lost') deps.warn(`${prefix}${eventLine(e, startup)}`, 'server-lost')
      else deps.log(`${prefix}${eventLine(e, startup)}`)
    }
  }
}

/** Ready on a listed id that only contains `model` (`model-match: partial`): said, as it may be another version. */
function warnOfPartialMatch(outcome: Outcome, { settings, deps }: ServerWait, { prefix }: EndpointPart): void {
  const matched = outcome.ready ? outcome.last : undefined
  if (matched?.modelMatch === 'partial' && settings.model !== undefined && matched.modelId !== undefined)
    deps.warn(`${prefix}${partialMatchText(settings.model, matched.modelId)}`, 'model-match')
}

/**
 * What every HTTP client of a wait shares: its TLS settings, the secrets to mask in answers as they arrive, and
 * the collection of what their bodies leave.
 */
const clientSettings = (
  { caCert, insecureTls, secrets }: Settings,
  collector: BodyCollector
): Pick<ProbeOptions, 'caCert' | 'insecureTls' | 'secrets' | 'collector'> => ({
  caCert,
  insecureTls,
  secrets,
  collector
})
