/** The readiness rules of the engines of 2026, as their sources word their answers (src/engines/<engine>.ts). */
import { ENGINE_READINESS, readinessCheckUrl, saysReady, serverBase } from '../../../src/engines/readiness.js'
import { readModelList } from '../../../src/engines/model-lists.js'
import {
  engineOfAnswer,
  engineOfLine,
  engineOfModelList,
  exacterOf,
  ownRoutesBehind
} from '../../../src/engines/log-markers.js'
import { PhaseTracker } from '../../../src/startup/phases.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { physicalLines, readFixture } from '../../fixtures/log-fixture.mjs'

const [dynamoModel, dynamoHealth] = ENGINE_READINESS.dynamo
const [lmdeployHealth] = ENGINE_READINESS.lmdeploy
const [xinferenceInstances] = ENGINE_READINESS.xinference
const urls = (engine: keyof typeof ENGINE_READINESS, list: string, model?: string): string[] =>
  ENGINE_READINESS[engine].map((c) => readinessCheckUrl(c, new URL(list), model).href)

describe('NVIDIA Dynamo', () => {
  it('its per-model ready route says ready only at "ready": true; a build without it (404) leaves it to /health', () => {
    expect(urls('dynamo', 'http://h:8000/v1/models', 'Qwen/Qwen3-0.6B')).toEqual([
      'http://h:8000/v1/models/Qwen%2FQwen3-0.6B/ready',
      'http://h:8000/health'
    ])
    const readiness = (ready: boolean) => ({ model: 'm', ready, namespaces: {} })
    expect(saysReady(dynamoModel.ready, 200, readiness(false))).toBe(false)
    expect(saysReady(dynamoModel.ready, 503, readiness(false))).toBe(false)
    expect(saysReady(dynamoModel.ready, 200, readiness(true))).toBe(true)
    expect(saysReady(dynamoModel.ready, 404, undefined)).toBe(true)
  })

  it('/health: 503 during the initial discovery; an older build says 200 "unhealthy" until a worker registers', () => {
    const discovering = { status: 'not_ready', message: 'Initial model discovery in progress' }
    expect(saysReady(dynamoHealth.ready, 503, discovering)).toBe(false)
    expect(saysReady(dynamoHealth.ready, 200, { status: 'unhealthy', message: 'No endpoints available' })).toBe(false)
    expect(saysReady(dynamoHealth.ready, 200, { status: 'healthy', endpoints: [], instances: [] })).toBe(true)
  })

  it('its list (object "object", owned_by "nvidia") is read and names it', () => {
    const body = { object: 'list', data: [{ id: 'm', object: 'object', created: 0, owned_by: 'nvidia' }] }
    expect(readModelList(body)?.models).toEqual([{ id: 'm' }])
    expect(engineOfModelList(body)).toBe('dynamo')
  })
})

it('LMDeploy: /health 200 "sleeping" is not ready; "healthy" is; a build without the monitor (no status) is', () => {
  expect(saysReady(lmdeployHealth.ready, 200, { status: 'sleeping' })).toBe(false)
  expect(saysReady(lmdeployHealth.ready, 503, { status: 'initializing' })).toBe(false)
  expect(saysReady(lmdeployHealth.ready, 503, { status: 'unhealthy' })).toBe(false)
  expect(saysReady(lmdeployHealth.ready, 200, { status: 'healthy' })).toBe(true)
  expect(saysReady(lmdeployHealth.ready, 200, undefined)).toBe(true)
})

describe('mistral.rs', () => {
  const list = (status: string) => ({
    object: 'list',
    data: [
      { id: 'default', object: 'model', created: 0, owned_by: 'local', status: null },
      { id: 'm', object: 'model', created: 0, owned_by: 'local', status }
    ]
  })
  it('the synthetic default entry is not a model; "unloaded" and "reloading" are waited on, "loaded" is ready', () => {
    expect(readModelList(list('unloaded'))?.models).toEqual([{ id: 'm', loading: 'status "unloaded"' }])
    expect(readModelList(list('reloading'))?.models).toEqual([{ id: 'm', loading: 'status "reloading"' }])
    expect(readModelList(list('loaded'))?.models).toEqual([{ id: 'm' }])
    expect(engineOfModelList(list('loaded'))).toBe('mistralrs')
  })
  it("another server's entry named default, or its own status words, are left alone", () => {
    expect(readModelList({ object: 'list', data: [{ id: 'default' }] })?.models).toEqual([{ id: 'default' }])
    expect(readModelList({ object: 'list', data: [{ id: 'm', status: 'active' }] })?.models).toEqual([{ id: 'm' }])
  })
})

it("Xinference: the model's replica entry READY, asked by its uid; without a model every entry", () => {
  expect(urls('xinference', 'http://h:9997/v1/models', 'qwen2.5-instruct')).toEqual([
    'http://h:9997/v1/models/instances?model_uid=qwen2.5-instruct'
  ])
  const entry = (uid: string, status: string) => ({ model_name: uid, model_uid: uid, replica: 1, status })
  const ready = xinferenceInstances.ready
  expect(saysReady(ready, 200, [entry('m', 'LOADING')], 'm')).toBe(false)
  expect(saysReady(ready, 200, [entry('other', 'READY')], 'm')).toBe(false)
  expect(saysReady(ready, 200, [entry('other', 'LOADING'), entry('m', 'READY')], 'm')).toBe(true)
  expect(saysReady(ready, 200, [], undefined)).toBe(false)
  expect(saysReady(ready, 200, [entry('a', 'READY'), entry('b', 'CREATING')], undefined)).toBe(false)
  expect(saysReady(ready, 200, [entry('a', 'READY')], undefined)).toBe(true)
})

it("OpenVINO Model Server: its routes on the server's base, whether the list is /v3/v1/models, /v3/models or /v1/models", () => {
  for (const list of ['/v3/v1/models', '/v3/models', '/v1/models'])
    expect(urls('ovms', `http://h:8000${list}`, 'llama')).toEqual(['http://h:8000/v2/models/llama/ready'])
  expect(serverBase(new URL('http://h/proxy/v3/v1/models'))).toBe('http://h/proxy')
})

it('Ray Serve asks /-/healthz; production-stack asks nothing but a generation; TensorRT-LLM its /health_generate', () => {
  expect(urls('ray-serve', 'http://h:8000/v1/models', 'm')).toEqual(['http://h:8000/-/healthz'])
  expect(ENGINE_READINESS['production-stack']).toEqual([])
  expect(urls('trtllm', 'http://h:8000/v1/models', 'm')).toEqual([
    'http://h:8000/health_generate',
    'http://h:8000/health'
  ])
  expect(engineOfModelList({ object: 'list', data: [{ id: 'm', owned_by: 'tensorrt_llm' }] })).toBe('trtllm')
  expect(engineOfModelList({ object: 'list', data: [{ id: 'm', owned_by: 'lmdeploy' }] })).toBe('lmdeploy')
  expect(engineOfModelList({ object: 'list', data: [{ id: 'm', owned_by: 'pygmalionai' }] })).toBe('aphrodite')
  expect(engineOfModelList({ object: 'list', data: [{ id: 'm', owned_by: 'xinference' }] })).toBe('xinference')
})

describe('their start-up logs, each built from its source (fixtures/logs/<engine>-<commit>.log)', () => {
  const dir = new URL('../../fixtures/logs/', import.meta.url).pathname
  it.each([
    'dynamo-0ab2b3f5',
    'lmdeploy-1263d5cd',
    'mistralrs-9e922623',
    'xinference-7ecec16b',
    'ovms-7e4df0c7',
    'aphrodite-b42eeec2',
    'ktransformers-95009ea6'
  ])('%s names its engine and says it is ready, nothing fatal', (name) => {
    const tracker = new PhaseTracker()
    const { engine, writes } = readFixture(`${dir}${name}.log`)
    for (const line of physicalLines(writes)) tracker.feed(line.text, line.at * 1000)
    expect([tracker.engine, tracker.ready, tracker.fatal()]).toEqual([engine, true, undefined])
    expect(engine).toBe(name.split('-')[0])
  })
})

it("the production-stack router's log names it, and no line of it says ready: only a generation does", () => {
  const tracker = new PhaseTracker()
  const { engine, writes } = readFixture(
    `${new URL('../../fixtures/logs/', import.meta.url).pathname}production-stack-a6c01db0.log`
  )
  for (const line of physicalLines(writes)) tracker.feed(line.text, line.at * 1000)
  expect([engine, tracker.engine, tracker.ready, tracker.fatal()]).toEqual([
    'production-stack',
    'production-stack',
    false,
    undefined
  ])
  // its JSON log format names its logger too
  expect(
    engineOfLine(
      '{"timestamp": "2026-07-08 10:12:01,118", "level": "INFO", "logger": "vllm_router.app", "message": "Initializing batch API"}'
    )
  ).toBe('production-stack')
})

it("the production-stack router lists as vLLM; its own /engines route tells it apart, vLLM's 404 does not", () => {
  const behind = ownRoutesBehind('vllm')
  expect(behind.map((r) => [r.engine, r.path])).toEqual([['production-stack', '/engines']])
  const [route] = behind
  expect(route.answers([{ engine_id: 'e1', serving_models: ['m'], created: 1767225600 }])).toBe(true)
  expect(route.answers({ detail: 'Not Found' })).toBe(false)
  expect(route.answers([])).toBe(false)
  expect(route.answers([{ id: 'm' }])).toBe(false)
  expect(ownRoutesBehind('sglang')).toEqual([])
})

it("the log's engine is taken over the answers' where it lists as what they name, else the answers'", () => {
  expect(exacterOf('vllm', 'production-stack')).toBe('production-stack')
  expect(exacterOf('sglang', 'ktransformers')).toBe('ktransformers')
  expect(exacterOf('sglang', 'production-stack')).toBe('sglang')
  expect(exacterOf('ollama', 'llamacpp')).toBe('ollama')
  expect(exacterOf(undefined, 'ktransformers')).toBe('ktransformers')
  expect(exacterOf('vllm', undefined)).toBe('vllm')
})

it("Ray Serve is recognised from its proxy's own refusals; other servers' words name nothing", () => {
  expect(engineOfAnswer('Route table is not populated yet.')).toBe('ray-serve')
  expect(engineOfAnswer('No replicas are available yet.')).toBe('ray-serve')
  expect(engineOfAnswer("Path '/v1/models' not found. Ping http://127.0.0.1:8000/-/routes for available routes.")).toBe(
    'ray-serve'
  )
  expect(engineOfAnswer('{"detail":"Not Found"}')).toBeUndefined()
  expect(engineOfAnswer('Service Unavailable: No replicas are available yet. Retry later')).toBeUndefined()
})

it("TensorRT-LLM's x-trtllm-server-state header names it, whatever the body; OVMS's list its owned_by", () => {
  const starting = '{"error":{"message":"Server is starting","type":"ServiceUnavailable","code":"starting"}}'
  expect(engineOfAnswer(starting, ['content-type', 'x-trtllm-server-state', 'retry-after'])).toBe('trtllm')
  expect(engineOfAnswer(starting, ['content-type', 'retry-after'])).toBeUndefined()
  expect(
    engineOfModelList({ data: [{ id: 'm', object: 'model', created: 0, owned_by: 'OVMS' }], object: 'list' })
  ).toBe('ovms')
})

it('production-stack must be given a model list and a model its generation can name, else the input is refused', () => {
  const settings = (given: Record<string, string>) => () => parseSettings((name) => given[name] ?? '')
  const base = { engine: 'production-stack', url: 'http://h:8001/v1/models', model: 'm' }
  expect(settings(base)).not.toThrow()
  expect(settings({ ...base, model: '' })).toThrow(/production-stack is ready only once it generates/)
  expect(settings({ ...base, url: 'http://h:8001/health' })).toThrow(/point "url" at its \/v1\/models/)
})
