import { gate } from '../../../src/wait/gate.js'
import type { InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import type { EngineName } from '../../../src/simulator/engines.js'
import { simulate } from '../../../src/simulator/server.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { answerWords } from '../../../src/report/answer-report.js'

/** Each engine's startup, replayed by the simulator on loopback, gated on as users would configure it. */
const cases: Array<{ engine: EngineName; model: string; path: string; wanted: string; timeline: RegExp[] }> = [
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
    timeline: [/^connection refused$/, /^HTTP 503 Loading model$/, /^HTTP 200, serving \[kimi-k2\]$/]
  }
]

// Concurrent: each case waits out a load of its own, on its own port, and the waits are what takes the time.
describe('each engine startup', () => {
  it.concurrent.each(cases)(
    '$engine: gates on $path until "$wanted" is ready',
    async ({ engine, model, path, wanted, timeline }) => {
      const loadMs = 1_500
      const server = await simulate({ engine, model, loadMs })
      try {
        const inputs: Partial<Record<InputName, string>> = {
          url: `${server.baseUrl}${path}`,
          model: wanted,
          interval: '100ms',
          timeout: '20s'
        }
        const settings = parseSettings((name) => inputs[name] ?? '')
        const lines: string[] = []
        const outcome = await gate(settings, { clock: systemClock, log: (l) => lines.push(l) })
        expect(outcome).toMatchObject({ ready: true, reason: 'ready', models: [model] })
        expect(outcome.last?.modelId).toBe(model)
        expect(outcome.timeline.map((t) => answerWords(t.answer).summary)).toEqual(
          timeline.map((re) => expect.stringMatching(re))
        )
        // SGLang lists its model from the moment its port opens (for warm-up); the others only once loaded
        expect(Date.now()).toBeGreaterThanOrEqual(server.readyAt)
        expect(lines[0]).toMatch(/^Waiting up to 20.0s for /)
      } finally {
        await server.close()
      }
    }
  )
})

it.concurrent('waits out the SGLang warm-up on /health, which says 503 while /v1/models already lists', async () => {
  const server = await simulate({ engine: 'sglang', model: '/shared/kimi-k2.5-int4', loadMs: 2_000 })
  try {
    const settings = parseSettings(
      (name) => ({ url: `${server.baseUrl}/health`, interval: '100ms', timeout: '20s' })[name as 'url'] ?? ''
    )
    const outcome = await gate(settings, { clock: systemClock, log: () => undefined })
    expect(outcome.timeline.map((t) => answerWords(t.answer).summary)).toEqual([
      'connection refused',
      'HTTP 503',
      'HTTP 200'
    ])
    expect(Date.now()).toBeGreaterThanOrEqual(server.readyAt)
  } finally {
    await server.close()
  }
})
