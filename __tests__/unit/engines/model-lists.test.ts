import { GENERATION_ROUTES, generationRoute, isCompletion, readModelList } from '../../../src/engines/model-lists.js'
import { parseJson } from '../../../src/http/probe.js'

// Bodies as each engine serialises them.
const bodies = {
  vllm: '{"object":"list","data":[{"id":"/shared/kimi-k2.5-int4","object":"model","created":1767225600,"owned_by":"vllm","root":"/shared/kimi-k2.5-int4","parent":null,"max_model_len":262144,"permission":[{"id":"modelperm-1","object":"model_permission"}]}]}',
  sglang:
    '{"object":"list","data":[{"id":"/shared/kimi-k2.5-int4","object":"model","created":1767225600,"owned_by":"sglang","root":"/shared/kimi-k2.5-int4","parent":null,"max_model_len":262144}]}',
  tgi: '{"object":"list","data":[{"id":"meta-llama/Llama-3.1-8B-Instruct","object":"model","created":0,"owned_by":"meta-llama/Llama-3.1-8B-Instruct"}]}',
  tgiInfo:
    '{"model_id":"bigscience/bloom-560m","model_sha":"abc","max_input_tokens":1024,"router":"text-generation-router","version":"3.3.6"}',
  teiInfo:
    '{"model_id":"BAAI/bge-large-en-v1.5","model_sha":null,"model_dtype":"float16","served_model_name":"bge","model_type":{"embedding":{"pooling":"cls"}}}',
  ollamaTags: '{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":2019393189}]}',
  ollamaV1Empty: '{"object":"list","data":null}\n',
  ollamaV1:
    '{"object":"list","data":[{"id":"llama3.2:latest","object":"model","created":1767225600,"owned_by":"library"}]}\n',
  llamacppLoading:
    '{"models":[{"name":"foo.gguf","model":"foo.gguf"}],"object":"list","data":[{"id":"foo.gguf","object":"model","created":1,"owned_by":"llamacpp","meta":null}]}',
  llamacppReady:
    '{"models":[{"name":"foo.gguf","model":"foo.gguf"}],"object":"list","data":[{"id":"foo.gguf","object":"model","created":1,"owned_by":"llamacpp","meta":{"n_vocab":32000}}]}',
  llamacppRouter:
    '{"object":"list","data":[{"id":"a.gguf","status":{"value":"loaded"}},{"id":"b.gguf","status":{"value":"loading"}}]}',
  kserveV1List: '{"models":["sklearn-iris"]}',
  kserveModelLoading: '{"name":"sklearn-iris","ready":false}',
  tritonMetadata: '{"name":"densenet_onnx","versions":["1"],"platform":"onnxruntime_onnx","inputs":[],"outputs":[]}',
  torchserve:
    '{\n  "models": [\n    {\n      "modelName": "resnet-18",\n      "modelUrl": "resnet-18.mar"\n    }\n  ]\n}\n',
  infinity:
    '{"data":[{"id":"BAAI/bge-small-en-v1.5","stats":{},"object":"model","owned_by":"infinity","created":1,"backend":"torch","capabilities":["embed"]}],"object":"list"}',
  lmStudio: '{"object":"list","data":[{"id":"qwen2.5-7b","state":"not-loaded"}]}'
}

describe('readModelList', () => {
  it.each([
    ['vllm', 'openai', ['/shared/kimi-k2.5-int4']],
    ['sglang', 'openai', ['/shared/kimi-k2.5-int4']],
    ['tgi', 'openai', ['meta-llama/Llama-3.1-8B-Instruct']],
    ['tgiInfo', 'tgi-info', ['bigscience/bloom-560m']],
    ['teiInfo', 'tgi-info', ['BAAI/bge-large-en-v1.5', 'bge']],
    ['ollamaTags', 'ollama', ['llama3.2:latest']],
    ['ollamaV1Empty', 'openai', []],
    ['ollamaV1', 'openai', ['llama3.2:latest']],
    ['llamacppReady', 'openai', ['foo.gguf']],
    ['kserveV1List', 'kserve-v1-list', ['sklearn-iris']],
    ['tritonMetadata', 'model-status', ['densenet_onnx']],
    ['torchserve', 'torchserve', ['resnet-18']],
    ['infinity', 'openai', ['BAAI/bge-small-en-v1.5']]
  ] as const)('reads %s as %s', (key, shape, ids) => {
    const list = readModelList(parseJson(bodies[key]))
    expect(list?.shape).toBe(shape)
    expect(list?.models.map((m) => m.id)).toEqual(ids)
    expect(list?.models.every((m) => m.loading === undefined)).toBe(true)
  })

  it('sees the loading signals: llama.cpp meta null, router status, KServe ready false, LM Studio state', () => {
    expect(readModelList(parseJson(bodies.llamacppLoading))?.models[0].loading).toMatch(/meta/)
    expect(readModelList(parseJson(bodies.llamacppRouter))?.models.map((m) => m.loading)).toEqual([
      undefined,
      'status "loading"'
    ])
    expect(readModelList(parseJson(bodies.kserveModelLoading))?.models[0].loading).toMatch(/ready/)
    expect(readModelList(parseJson(bodies.lmStudio))?.models[0].loading).toMatch(/not-loaded/)
  })

  it('tells a model nothing is loading (router "unloaded", LM Studio "not-loaded") from one that loads', () => {
    const router =
      '{"object":"list","data":[{"id":"a","status":{"value":"unloaded"}},{"id":"b","status":{"value":"loading"}}]}'
    expect(readModelList(parseJson(router))?.models).toEqual([
      { id: 'a', loading: 'status "unloaded"', unloaded: true },
      { id: 'b', loading: 'status "loading"' }
    ])
    expect(readModelList(parseJson(bodies.lmStudio))?.models[0].unloaded).toBe(true)
    expect(readModelList(parseJson(bodies.llamacppLoading))?.models[0].unloaded).toBeUndefined()
  })

  it("llama.cpp's router (de3ff81, server-models.cpp): every status but loaded waits; unloaded with exit_code is a failed load", () => {
    const entry = (status: object) => ({ id: 'm.gguf', object: 'model', owned_by: 'llamacpp', status })
    const list = (...statuses: object[]) =>
      readModelList(parseJson(JSON.stringify({ object: 'list', data: statuses.map(entry) })))?.models
    expect(
      list({ value: 'downloading' }, { value: 'downloaded' }, { value: 'loading' }, { value: 'sleeping' })?.map(
        (m) => m.loading
      )
    ).toEqual(['status "downloading"', 'status "downloaded"', 'status "loading"', 'status "sleeping"'])
    expect(list({ value: 'loaded', args: ['--port', '8081'] })).toEqual([{ id: 'm.gguf' }])
    expect(list({ value: 'unloaded', args: [], exit_code: 1, failed: true })).toEqual([
      { id: 'm.gguf', loading: 'status "unloaded"', failed: 'its instance exited with status 1' }
    ])
    // unloaded on purpose (exit code 0, no failed): loaded again when asked
    expect(list({ value: 'unloaded', exit_code: 0 })).toEqual([
      { id: 'm.gguf', loading: 'status "unloaded"', unloaded: true }
    ])
  })

  it.each(['', 'not json', '[1,2]', '"text"', '{"status":"ok"}', '{"data":"x"}', '{"unix":1767225600.1}'])(
    'finds no list in %p',
    (body) => {
      expect(readModelList(parseJson(body))).toBeUndefined()
    }
  )
})

describe('generationRoute', () => {
  it.each([
    ['http://localhost:8000/v1/models', 'openai', 'http://localhost:8000'],
    ['http://gpu-box/proxy/sglang/v1/models/', 'openai', 'http://gpu-box/proxy/sglang'],
    ['http://localhost:11434/api/tags', 'ollama', 'http://localhost:11434'],
    ['http://localhost:11434/api/ps', 'ollama', 'http://localhost:11434'],
    ['http://localhost:8080/info', 'tgi', 'http://localhost:8080']
  ])('%s → %s at %s', (url, name, base) => {
    expect(generationRoute(new URL(url))).toMatchObject({ route: { name }, base })
  })

  it.each([
    'http://localhost:8000/health',
    'http://localhost:8000/v2/models/densenet_onnx',
    'http://localhost:8000/v1/models/extra'
  ])('knows no request for %s', (url) => {
    expect(generationRoute(new URL(url))).toBeUndefined()
  })

  it('asks each engine for one token in its own words', () => {
    const body = (name: string, i = 0) => GENERATION_ROUTES.find((r) => r.name === name)?.requests[i].body('m')
    expect(body('openai')).toEqual({ model: 'm', prompt: 'Hi', max_tokens: 1 })
    expect(body('openai', 1)).toEqual({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 1 })
    expect(body('ollama')).toEqual({ model: 'm', prompt: 'Hi', stream: false, options: { num_predict: 1 } })
    expect(body('tgi')).toEqual({ inputs: 'Hi', parameters: { max_new_tokens: 1 } })
  })
})

describe('never a model list', () => {
  it.each([
    '{"object":"error","message":"CUDA error: out of memory","type":"InternalServerError","code":500}',
    '{"object":"error","name":"kimi","message":"failed"}',
    '{"name":"kimi","error":"CUDA error: out of memory"}',
    '{"name":"kimi","message":"not loaded yet"}',
    '{"error":"model not found","models":[{"name":"kimi"}]}',
    `${'['.repeat(100)}${']'.repeat(100)}`
  ])('%s', (body) => expect(readModelList(parseJson(body))).toBeUndefined())
})

describe('isCompletion', () => {
  const route = (name: string) => GENERATION_ROUTES.find((r) => r.name === name)!
  it.each([
    ['openai', '{"object":"text_completion","choices":[{"index":0,"text":" Hello"}]}'],
    ['openai', '{"object":"chat.completion","choices":[{"message":{"role":"assistant","content":"Hi"}}]}'],
    ['ollama', '{"model":"m","response":"Hi","done":true}'],
    ['tgi', '{"generated_text":" there"}']
  ])('%s: %s is one', (name, body) => expect(isCompletion(route(name), parseJson(body))).toBe(true))
  it.each([
    ['openai', '{"object":"error","message":"CUDA error: out of memory","choices":[{"text":""}]}'],
    ['openai', '{"choices":[]}'],
    ['openai', '{"generated_text":"x"}'],
    ['openai', ''],
    ['ollama', '{"error":"model not loaded"}'],
    ['tgi', '{"error":"Request failed during generation","error_type":"generation"}']
  ])('%s: %s is not', (name, body) => expect(isCompletion(route(name), parseJson(body))).toBe(false))
})
