/** One endpoint's wait: its probes, its engine's readiness route, `load`, and its generation check. */
import { createGenerator, type Generator } from './generation-check.js'
import { generationRoute } from '../engines/model-lists.js'
import {
  ACROSS_NODES_NEEDS_GENERATION,
  listsAsRouter,
  READY_NEEDS_GENERATION,
  SERVES_ONE_MODEL,
  serverBase
} from '../engines/readiness.js'
import { engineReadiness } from './engine-readiness.js'
import { engineOfAnswer, engineOfModelList, exacterOf, ownRoutesBehind } from '../engines/log-markers.js'
import { type Engine, ENGINES } from '../engines/index.js'
import { loadRequest } from '../engines/load.js'
import { loadAskedText, partialMatchText, wakeAskedText } from '../report/lifecycle-report.js'
import { createHttpClient, createProber, type HttpClient, type ProbeResult } from '../http/probe.js'
import { eventLine, probeLine } from '../report/progress.js'
import type { Target } from '../inputs/settings.js'
import { waitForModel } from './loop.js'
import { type Assessment, expectation } from '../facts/answer.js'
import type { TargetOutcome } from '../facts/outcome.js'
import type { EndpointPart, ServerWait } from './deps.js'

/** A router answers its own route from memory, as it answers its list: a route that hangs is given up soon. */
const OWN_ROUTE_MS = 2_000

/** One endpoint's wait, its HTTP clients closed however it ends. */
export async function waitForEndpoint(
  { url, generation }: Target,
  server: ServerWait,
  { halter, prefix, settled }: EndpointPart
): Promise<TargetOutcome> {
  const { settings, deps, log, profile } = server
  const { clock } = deps
  // what every HTTP client of a wait shares: TLS settings, the secrets to mask, the collection of their bodies
  const { caCert, insecureTls, secrets } = settings
  const tls = { caCert, insecureTls, secrets, collector: server.collector }
  // the deadline counts from the wait's start (the action's: its process start); what is left of it bounds the
  // wake-up and the load requests, which may take it all (the weights go back to the GPU meanwhile)
  const waitStart = deps.startedAt ?? clock.now()
  const leftMs = (): number => waitStart + settings.timeoutMs - clock.now()
  const prober = createProber({ url, headers: settings.headers, ...tls })
  const generatorFor = (g: NonNullable<Target['generation']>): Generator =>
    createGenerator({ ...g, headers: settings.headers, clock, ...tls })
  const generator = generation && generatorFor(generation)
  // an engine that only a generation proves ready (a router) is asked for one without `probe-generation`
  let implied: Generator | undefined
  const generatorNow = (): Generator | undefined => {
    const engine = engineOf()
    if (generator !== undefined || engine === undefined) return generator
    // across nodes, an engine whose health misses a dead worker is asked for one too
    const across = (server.ranks?.nodes ?? 1) > 1 && ACROSS_NODES_NEEDS_GENERATION[engine]
    if (!READY_NEEDS_GENERATION[engine] && !across) return generator
    const found = generationRoute(url)
    return found === undefined ? undefined : (implied ??= generatorFor(found))
  }
  // The engine this endpoint's own answers name (`owned_by`, its words, its header). A fleet may mix engines: what
  // one endpoint lists must not choose another's readiness route (SGLang's /health asked of an Ollama server never
  // answers).
  let listed: Engine | undefined
  // for an engine that lists as the one named (the production-stack router as vLLM), its own route
  let asker: HttpClient | undefined
  // llama.cpp's router mode loads other models when asked: its list may change (see SERVES_ONE_MODEL)
  let router = false
  // `engine`, else this endpoint's answers, else the server's log (one server: its log speaks for its endpoints);
  // the log's where it names what the answers list as (KTransformers' answers are SGLang's)
  const engineOf = (): Engine | undefined =>
    settings.engine ?? exacterOf(listed, log !== undefined ? profile.engine : undefined)
  // the first answer to name it names it for the startup phases too, when the log has not
  const named = (engine: Engine, json: unknown): void => {
    if (profile.engine !== undefined) return
    const lines = engineOfModelList(json) === engine ? profile.models(json) : profile.answered(engine)
    if (log !== undefined) server.sayStartup(lines)
  }
  // Asked once, within what is left of the time of the probe that named `answered` and at most OWN_ROUTE_MS: no
  // answer costs that, once (the engine is then what the answers say). Not asked where the log has named it.
  const ownRouteEngine = async (answered: Engine, timeoutMs: number, signal?: AbortSignal): Promise<Engine> => {
    if (settings.engine !== undefined || (log !== undefined && profile.engine !== undefined)) return answered
    for (const route of ownRoutesBehind(answered)) {
      asker ??= createHttpClient(tls)
      const at = new URL(`${serverBase(url)}${route.path}`)
      const answer = await asker.send({ url: at, method: 'GET', headers: settings.headers }, timeoutMs, signal)
      deps.debug?.(`${prefix}${at.pathname}: ${probeLine(answer)}`)
      if (answer.kind === 'http' && route.answers(answer.json)) return route.engine
    }
    return answered
  }
  const probe = async (timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult> => {
    const sentAt = clock.now()
    const result = await prober.probe(timeoutMs, signal)
    deps.debug?.(`${prefix}${probeLine(result)}`)
    // One look at each answer until its list names the engine (a list that never does is read once a probe)
    if (result.kind === 'http') router ||= listsAsRouter(result.json)
    if (result.kind === 'http' && listed === undefined) {
      const answered = engineOfModelList(result.json) ?? engineOfAnswer(result.body, result.headerNames)
      if (answered !== undefined) {
        const leftMs = Math.min(OWN_ROUTE_MS, timeoutMs - (clock.now() - sentAt))
        listed = await ownRouteEngine(answered, Math.max(1, leftMs), signal)
        named(listed, result.json)
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
    pace: server.pace,
    probeGapMs: settings.probeGapMs,
    load: settings.load,
    label: (engine) => profile.label ?? (engine === undefined ? 'the engine' : ENGINES[engine].label),
    debug: deps.debug && ((line) => deps.debug?.(`${prefix}${line}`)),
    leftMs,
    wokeUp: (label, wakeUrl) => deps.log(`${prefix}${wakeAskedText(label, wakeUrl)}`),
    serverVariable: (name) => serverVariable(server.start, deps.env, name)
  })
  // `load`: the first answer that shows the model waiting to be asked for sends the load request, once
  let loading: Promise<void> | undefined
  const loader = settings.load ? createHttpClient(tls) : undefined
  const askToLoad = (answer: Assessment): void => {
    const request = loader && loading === undefined ? loadRequest(url, answer, settings.model) : undefined
    if (request === undefined || loader === undefined) return
    deps.log(`${prefix}${loadAskedText(request.url, request.body.model)}`)
    // within what is left of the wait, and cut short by its halt like every request of it
    loading = loader
      .send(
        { url: request.url, method: 'POST', headers: settings.headers, json: request.body },
        Math.max(1, leftMs()),
        halter.signal
      )
      .then((result) => deps.debug?.(`${prefix}${request.url.pathname}: ${probeLine(result)}`))
  }
  try {
    const outcome = await waitForModel(
      { ...settings, expect: expectation(settings), once: deps.once },
      {
        probe,
        generate: (modelId, timeoutMs, signal) =>
          generatorNow()?.generate(modelId, timeoutMs, signal) ?? Promise.resolve(undefined),
        engineReady: (modelId, timeoutMs, signal) =>
          readiness.check(engineOf(), modelId ?? settings.model, timeoutMs, signal),
        ranksMissing: server.ranks && (() => server.ranks?.missing(engineOf(), profile.readyLineSeen)),
        servesOneModel: () => {
          const engine = engineOf()
          return engine !== undefined && SERVES_ONE_MODEL[engine] && !(engine === 'llamacpp' && router)
        },
        loadFailure: (timeoutMs, signal) => readiness.loadFailure(engineOf(), settings.model, timeoutMs, signal),
        deadGeneration: (answer) => readiness.deadAnswer(engineOf(), answer),
        halter,
        portWatch: deps.once ? undefined : (server.portWatch?.(url) ?? server.ports.watchFor(url)),
        readyLine: server.readyLine,
        logLines: server.logLines,
        clock,
        startedAt: deps.startedAt,
        onEvent: (e) => {
          askToLoad(e.assessment)
          const startup = e.type === 'progress' ? server.progressAt(clock.now()) : undefined
          if (e.type === 'lost') deps.warn(`${prefix}${eventLine(e, startup)}`, 'server-lost')
          else deps.log(`${prefix}${eventLine(e, startup)}`)
        }
      }
    )
    settled({ ...outcome, url })
    // ready on a listed id that only contains `model` (`model-match: partial`): said, as it may be another version
    const matched = outcome.ready ? outcome.last : undefined
    if (matched?.modelMatch === 'partial' && settings.model !== undefined && matched.modelId !== undefined)
      deps.warn(`${prefix}${partialMatchText(settings.model, matched.modelId)}`, 'model-match')
    return { ...outcome, url, engine: engineOf() }
  } finally {
    await Promise.all([
      prober.close(),
      generator?.close(),
      implied?.close(),
      readiness.close(),
      loader?.close(),
      asker?.close()
    ])
  }
}

/**
 * `name` as the server started by `start` sees it: set on its line (`NAME=v cmd`, `docker run -e NAME=v`, `export`),
 * else the step's environment it inherits; undefined for a server this step did not start.
 */
export function serverVariable(start: string | undefined, env: NodeJS.ProcessEnv, name: string): string | undefined {
  if (start === undefined) return undefined
  const set = new RegExp(`(?:^|[\\s;&|'"])${name}=(['"]?)([^\\s'";&|]*)\\1`).exec(start)
  return set !== null ? set[2] : env[name]
}
