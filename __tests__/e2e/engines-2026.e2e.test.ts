import { runMeasured } from '../helpers/support.js'
import { loopback } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { freePort, simulate } from '../../src/simulator/server.js'
import type { EngineName } from '../../src/simulator/engines.js'

/**
 * The engines of 2026, each against its simulator profile through dist/index.js: listed (or answering) before it can
 * serve, as its source says, and never ready before its own readiness says so; ready within 200 ms of it (stretched
 * by the load measured during the run), plus the engine's own pace where it sets one (SGLang's /health at most once a
 * second, TensorRT-LLM's Retry-After). The simulator stays in its not-ready states until it has answered the gate
 * `loadingAnswers` times as well as for its load, so each false-ready state is seen however busy the machine.
 */
const cases: Array<{
  engine: EngineName
  name: string
  /** The `engine` input; undefined: `auto`, recognised from the engine's own answers. */
  input?: string
  path?: string
  loadingAnswers?: number
  /** What the gate must have said while the engine was not ready yet. */
  notReady: RegExp
  /** The engine's own pace on top of the 200 ms: a paced readiness route, or a Retry-After the gate grants. */
  pacedMs?: number
}> = [
  {
    engine: 'dynamo',
    name: 'Dynamo lists the model before its per-model ready route says true',
    notReady: /serving \[m\] — NVIDIA Dynamo GET \/v1\/models\/m\/ready: HTTP 200/
  },
  {
    engine: 'dynamo-2025',
    name: 'an older Dynamo (no per-model route) says /health 200 "unhealthy" while it lists the model',
    notReady: /serving \[m\] — NVIDIA Dynamo GET \/health: HTTP 200 No endpoints available/
  },
  {
    engine: 'trtllm',
    name: 'trtllm-serve refuses while it builds, then answers 503 x-trtllm-server-state: starting',
    notReady: /connection refused[\s\S]*HTTP 503/,
    // its 503s say `retry-after: 1`, which the gate grants up to 4 intervals (400 ms here)
    pacedMs: 400
  },
  {
    engine: 'lmdeploy',
    name: 'LMDeploy asleep: /health 200 "sleeping" is not servable',
    notReady: /serving \[m\] — LMDeploy GET \/health: HTTP 200/
  },
  {
    engine: 'mistralrs',
    name: 'mistral.rs lists the model "unloaded", then "reloading", beside its default entry',
    notReady: /status "unloaded"/
  },
  {
    engine: 'xinference',
    name: 'Xinference: up before the model, then the replica LOADING',
    notReady: /Xinference GET \/v1\/models\/instances: HTTP 200/
  },
  {
    engine: 'ovms',
    name: 'OpenVINO Model Server lists its model (owned_by "OVMS") before /v2/models/m/ready says 200',
    path: '/v3/v1/models',
    notReady: /OpenVINO Model Server GET \/v2\/models\/m\/ready: HTTP 503/
  },
  {
    engine: 'ray-serve',
    name: "Ray Serve's 503s: no route table, then no replicas; recognised from its proxy's words",
    notReady: /HTTP 503[\s\S]*HTTP 404[\s\S]*Ray Serve LLM GET \/-\/healthz: HTTP 200/
  },
  {
    engine: 'production-stack',
    name: 'production-stack lists the model (as vLLM) and says healthy without a backend: only a generation proves it',
    input: 'production-stack',
    notReady: /serving \[m\] — POST \/v1\/completions: HTTP 503/
  },
  {
    engine: 'production-stack',
    name: "production-stack's list says vLLM; its own /engines route names it, and a generation is asked",
    notReady: /serving \[m\] — POST \/v1\/completions: HTTP 503/
  },
  {
    engine: 'aphrodite',
    name: 'Aphrodite (vLLM readiness) opens only once loaded',
    notReady: /connection refused/
  },
  {
    engine: 'ktransformers',
    name: "KTransformers (SGLang's server) lists during its warm-up while /health says 503",
    input: 'ktransformers',
    notReady: /serving \[m\] — KTransformers GET \/health: HTTP 503/,
    // SGLang's /health is a generation: asked at most once a second
    pacedMs: 1_000
  }
]

describe('the engines of 2026 against their simulated start-ups', () => {
  it.each(cases)('$engine: $name; ready within 200 ms of its own readiness', async (c) => {
    const server = await simulate({
      engine: c.engine,
      model: 'm',
      loadMs: 1_500,
      loadingAnswers: c.loadingAnswers ?? 3
    })
    try {
      const run = await runMeasured({
        url: `${server.baseUrl}${c.path ?? '/v1/models'}`,
        model: 'm',
        engine: c.input ?? 'auto',
        interval: '100ms',
        timeout: '30s',
        'history-file': ''
      })
      expect([run.outputs.ready, run.outputs.reason]).toEqual(['true', 'ready'])
      expect(run.stdout).toMatch(c.notReady)
      // never before its readiness said so, and within 200 ms of it (the step's own clock, its origin in epoch ms)
      const readyAt = run.originMs + Number(run.outputs['elapsed-seconds']) * 1000
      expect(readyAt).toBeGreaterThanOrEqual(server.readyAt - 50)
      expect(readyAt - server.readyAt).toBeLessThanOrEqual(200 * run.stretch + 50 + (c.pacedMs ?? 0))
    } finally {
      await server.close()
    }
  })
})

const box = sandbox('wait-for-model-engines-2026-')
const net = loopback()
const cli = new URL('../../dist/cli.js', import.meta.url).pathname

it('trtllm-serve started by the gate: refused while its process lives is waited on as starting, then ready', async () => {
  const port = await freePort()
  const run = await runMeasured({
    url: `http://127.0.0.1:${port}/v1/models`,
    model: 'm',
    start: `${process.execPath} ${cli} simulate --engine trtllm --model m --load 2s --port ${port}`,
    'log-file': box.path('server.log'),
    interval: '100ms',
    timeout: '30s',
    'history-file': ''
  })
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  expect([run.outputs.ready, run.outputs.reason]).toEqual(['true', 'ready'])
  // refused for the first half of its load while the process lived, then 503 "starting"; recognised from its list
  expect(run.stdout).toMatch(
    /connection refused[\s\S]*HTTP 503[\s\S]*TensorRT-LLM GET \/health(?:_generate)?: HTTP 200/
  )
  // its load counts from its own start, after the step's: never ready before those 2 s
  expect(Number(run.outputs['elapsed-seconds'])).toBeGreaterThanOrEqual(1.95)
})

it("trtllm-serve's `x-trtllm-server-state` header names it while it starts, before any list does", async () => {
  const server = await simulate({ engine: 'trtllm', model: 'm', loadMs: 60_000, opensAfterMs: 0 })
  try {
    const run = await runMeasured({
      url: `${server.baseUrl}/v1/models`,
      model: 'm',
      interval: '100ms',
      timeout: '1500ms',
      'history-file': ''
    })
    expect([run.outputs.ready, run.outputs.reason]).toEqual(['false', 'timeout'])
    // only 503s with the header were seen: the engine is named from them
    expect(run.stdout).toMatch(/HTTP 503/)
    expect(run.summary).toMatch(/\| Engine \| TensorRT-LLM \|/)
  } finally {
    await server.close()
  }
})

it('a server listing as vLLM whose /engines never answers is asked it once, and costs at most 2 s of it', async () => {
  const asked: string[] = []
  const url = await net.http((req, res) => {
    asked.push(req.url ?? '')
    if (req.url === '/engines') return
    if (req.url === '/v1/models')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"object":"list","data":[{"id":"m","object":"model","owned_by":"vllm"}]}')
    res.writeHead(req.url === '/health' ? 200 : 404).end()
  })
  const run = await runMeasured({
    url: `${url}/v1/models`,
    model: 'm',
    interval: '100ms',
    timeout: '30s',
    'history-file': ''
  })
  expect([run.outputs.ready, run.outputs.reason]).toEqual(['true', 'ready'])
  // then judged as its list says: vLLM's own checks
  expect(run.stdout).toMatch(/vLLM GET \/health: HTTP 200/)
  expect(asked.filter((p) => p === '/engines')).toHaveLength(1)
  expect(Number(run.outputs['elapsed-seconds'])).toBeLessThanOrEqual(2 + 0.5 * run.stretch)
})

describe('recognised from their own start-up logs, started by the gate', () => {
  it.each([
    ['dynamo', 'NVIDIA Dynamo', /NVIDIA Dynamo GET \/v1\/models\/m\/ready: HTTP 200 missing worker types: decode/],
    ['lmdeploy', 'LMDeploy', /LMDeploy GET \/health: HTTP 200 sleeping/],
    ['mistralrs', 'mistral.rs', /listed but still loading \(status "(?:unloaded|reloading)"\)/],
    ['xinference', 'Xinference', /Xinference GET \/v1\/models\/instances: HTTP 200 .*"status":"READY"/],
    ['ovms', 'OpenVINO Model Server', /OpenVINO Model Server GET \/v2\/models\/m\/ready: HTTP 200/],
    ['aphrodite', 'Aphrodite', /Aphrodite GET \/health: HTTP 200/],
    // `kt run`'s own lines, though its answers are SGLang's
    ['ktransformers', 'KTransformers', /KTransformers GET \/health: HTTP 503/],
    // its list says vLLM, its log and its /engines route the router: a generation is asked all the same
    ['production-stack', 'vLLM production-stack router', /serving \[m\] — POST \/v1\/completions: HTTP 503/]
  ] as const)('%s: its log names it, and its own readiness is asked', async (engine, label, asked) => {
    const port = await freePort()
    const run = await runMeasured({
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'm',
      start: `${process.execPath} ${cli} simulate --engine ${engine} --model m --load 1500ms --port ${port}`,
      'log-file': box.path(`${engine}.log`),
      interval: '100ms',
      timeout: '30s',
      'history-file': ''
    })
    if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
    expect([run.outputs.ready, run.outputs.reason]).toEqual(['true', 'ready'])
    // named once, by whichever is read first: these open their port as they start, and on a busy machine their
    // model list (which names them too) can be read before the log's first line (the logs alone: engines-2026.test.ts)
    const named = [...run.stdout.matchAll(/engine: (.+) \(from its (log|model list)\)/g)].map((m) => m[1])
    expect(named).toEqual([label])
    expect(run.stdout).toMatch(asked)
  })
})
