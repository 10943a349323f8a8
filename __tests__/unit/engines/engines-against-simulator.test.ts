import { gate } from '../../../src/wait/gate.js'
import type { InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { type EngineName, SIMULATED_ENGINES } from '../../../src/simulator/engines.js'
import type { SimulatedServer, SimulatorOptions } from '../../../src/simulator/options.js'
import { freePort, simulate } from '../../../src/simulator/server.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { answerWords } from '../../../src/report/answer-report.js'
import type { GateOutcome } from '../../../src/facts/outcome.js'

/**
 * Gates on `inputs` against a simulated engine that starts as the gate's first probe finds it: one whose port opens
 * late starts only once that probe was refused, so "connection refused" comes first however late a busy machine let
 * the probe go; one that serves from the start, at once. With `loadingAnswers` it stays loading until it has
 * answered that many requests, as well as for its load: each phase is seen, bound by the probes, not by a window of
 * time (the gate and the simulator share one process, which a busy machine stalls for a second and more).
 */
async function gateOnStartup(
  engine: Omit<SimulatorOptions, 'port'>,
  inputs: (base: string) => Partial<Record<InputName, string>>
): Promise<{ outcome: GateOutcome; lines: string[]; readyAt: number }> {
  const port = await freePort()
  let server: Promise<SimulatedServer> | undefined
  const start = (): Promise<SimulatedServer> => (server ??= simulate({ ...engine, port }))
  if (SIMULATED_ENGINES[engine.engine].opensAt === 0) await start()
  const given = inputs(`http://127.0.0.1:${port}`)
  const lines: string[] = []
  try {
    const outcome = await gate(
      parseSettings((name) => given[name] ?? ''),
      {
        clock: systemClock,
        log: (line) => {
          lines.push(line)
          if (/: connection refused$/.test(line)) void start()
        }
      }
    )
    return { outcome, lines, readyAt: (await start()).readyAt }
  } finally {
    await (await server)?.close()
  }
}

/** Each engine's startup, replayed by the simulator on loopback, gated on as users would configure it. */
const cases: Array<{
  engine: EngineName
  model: string
  path: string
  wanted: string
  timeline: RegExp[]
  /** Loading answers the engine gives once its port is open, before it may be ready (see SimulatorOptions). */
  loadingAnswers?: number
}> = [
  {
    engine: 'vllm',
    model: '/shared/kimi-k2.5-int4',
    path: '/v1/models',
    wanted: 'kimi',
    // vLLM's /is_sleeping (404 without dev mode) and /health, asked once listed: the last said is the news
    timeline: [/^connection refused$/, /^HTTP 200, serving \[\/shared\/kimi-k2.5-int4\] — vLLM GET \/health: HTTP 200$/]
  },
  {
    engine: 'sglang',
    model: '/shared/kimi-k2.5-int4',
    path: '/v1/models',
    wanted: 'kimi',
    // SGLang opens its port at 90% of the load: 150 ms of warm-up, which probes 100 ms apart missed on a busy
    // machine (even 1.2 s did, the gate and the simulator sharing one stalled process); so the warm-up lasts until
    // it has answered the gate's first probe, both its requests (the model list, /health), as well as 1.5 s
    loadingAnswers: 2,
    // listed during the warm-up, ready only once its own /health says so
    timeline: [
      /^connection refused$/,
      /^HTTP 200, serving \[\/shared\/kimi-k2.5-int4\] — SGLang GET \/health: HTTP 503$/,
      /^HTTP 200, serving \[\/shared\/kimi-k2.5-int4\] — SGLang GET \/health: HTTP 200$/
    ]
  },
  {
    engine: 'llamacpp',
    model: 'qwen3-8b-q4_k_m.gguf',
    path: '/v1/models',
    wanted: 'qwen3',
    loadingAnswers: 2,
    timeline: [
      /^HTTP 200, serving \[qwen3-8b-q4_k_m.gguf\] — "qwen3-8b-q4_k_m.gguf" is listed but still loading/,
      /^HTTP 200, serving \[qwen3-8b-q4_k_m.gguf\]$/
    ]
  },
  {
    engine: 'tgi',
    model: 'meta-llama/Llama-3.1-8B-Instruct',
    path: '/info',
    wanted: 'llama-3.1',
    timeline: [/^connection refused$/, /^HTTP 200, serving/]
  },
  {
    engine: 'ollama',
    model: 'llama3.2:latest',
    path: '/api/tags',
    wanted: 'llama3.2',
    loadingAnswers: 2,
    timeline: [/^HTTP 200, lists no models — "llama3.2" is not listed yet$/, /^HTTP 200, serving \[llama3.2:latest\]$/]
  },
  {
    engine: 'triton',
    model: 'densenet_onnx',
    path: '/v2/models/densenet_onnx',
    wanted: 'densenet_onnx',
    timeline: [/^connection refused$/, /^HTTP 200, serving \[densenet_onnx\]$/]
  },
  {
    engine: 'openai',
    model: 'kimi-k2',
    path: '/v1/models',
    wanted: 'kimi',
    // its port opens at 40% of the load, then "Loading model" until it has answered the gate (as well as 1.5 s)
    loadingAnswers: 2,
    timeline: [/^connection refused$/, /^HTTP 503 Loading model$/, /^HTTP 200, serving \[kimi-k2\]$/]
  }
]

// Concurrent: each case waits out a load of its own, on its own port, and the waits are what takes the time.
describe('each engine startup', () => {
  it.concurrent.each(cases)(
    '$engine: gates on $path until "$wanted" is ready',
    async ({ engine, model, path, wanted, timeline, loadingAnswers }) => {
      const { outcome, lines, readyAt } = await gateOnStartup(
        { engine, model, loadMs: 1_500, loadingAnswers },
        (base) => ({ url: `${base}${path}`, model: wanted, interval: '100ms', timeout: '20s' })
      )
      expect(outcome).toMatchObject({ ready: true, reason: 'ready', models: [model] })
      expect(outcome.last?.modelId).toBe(model)
      expect(outcome.timeline.map((t) => answerWords(t.answer).summary)).toEqual(
        timeline.map((re) => expect.stringMatching(re))
      )
      // SGLang lists its model from the moment its port opens (for warm-up); the others only once loaded
      expect(Date.now()).toBeGreaterThanOrEqual(readyAt)
      expect(lines[0]).toMatch(/^Waiting up to 20.0s for /)
    }
  )
})

it.concurrent('waits out the SGLang warm-up on /health, which says 503 while /v1/models already lists', async () => {
  // it starts once the gate's first probe was refused, and answers 503 on /health until it has answered one probe
  // so, as well as for 2 s: bound by the probes, not a window
  const { outcome, readyAt } = await gateOnStartup(
    { engine: 'sglang', model: '/shared/kimi-k2.5-int4', loadMs: 2_000, loadingAnswers: 1 },
    (base) => ({ url: `${base}/health`, interval: '100ms', timeout: '20s' })
  )
  expect(outcome.timeline.map((t) => answerWords(t.answer).summary)).toEqual([
    'connection refused',
    'HTTP 503',
    'HTTP 200'
  ])
  expect(Date.now()).toBeGreaterThanOrEqual(readyAt)
})
