import { meantForGpu, ollamaPs, placementLog, placementOf, placementUntold } from '../../../src/wait/placement.js'
import { parseJson, type ProbeResult } from '../../../src/http/probe.js'

const http = (status: number, body: string): ProbeResult => ({
  kind: 'http',
  status,
  body,
  json: parseJson(body),
  contentType: 'application/json',
  truncated: false
})

describe('placementLog', () => {
  it("reads llama.cpp's offload line (both names of its function) and its no-GPU warning; the last offload wins", () => {
    const log = placementLog()
    log.see('llm_load_tensors: offloaded 33/33 layers to GPU', 10)
    log.see('0.00.812.004 I load_tensors: offloaded 20/33 layers to GPU', 41)
    log.see('time=2026-01-01T00:00:00Z level=INFO source=server.go:1 msg="listening"', 42)
    expect(log.found).toEqual({ offload: { n: 20, m: 33, line: 41 } })
    const cpu = placementLog()
    cpu.see('warning: no usable GPU found, --gpu-layers option will be ignored', 2)
    expect(cpu.found.noGpu).toEqual({
      line: 2,
      text: 'warning: no usable GPU found, --gpu-layers option will be ignored'
    })
  })
})

describe('meantForGpu', () => {
  it('from the start line, the step environment, or GPUs present; -ngl 0 and an empty CUDA_VISIBLE_DEVICES ask for the CPU', () => {
    expect(meantForGpu('CUDA_VISIBLE_DEVICES=1 vllm serve m', {}, undefined)).toBe('its start line pins GPUs 1')
    expect(meantForGpu('docker run --gpus all img', {}, undefined)).toBe('its start line passes --gpus')
    expect(meantForGpu('llama-server -m m.gguf -ngl 20', {}, undefined)).toBe('its start line asks for 20 GPU layers')
    expect(meantForGpu('llama-server -m m.gguf --n-gpu-layers=99', {}, undefined)).toBe(
      'its start line asks for 99 GPU layers'
    )
    expect(meantForGpu('llama-server -m m.gguf -ngl 0', {}, 8)).toBeUndefined()
    expect(meantForGpu('vllm serve m', { CUDA_VISIBLE_DEVICES: '0,1' }, undefined)).toBe('CUDA_VISIBLE_DEVICES is 0,1')
    expect(meantForGpu('vllm serve m', { CUDA_VISIBLE_DEVICES: '' }, 8)).toBeUndefined()
    expect(meantForGpu('vllm serve m', {}, 2)).toBe('2 GPUs are present')
    expect(meantForGpu(undefined, {}, 0)).toBeUndefined()
    expect(meantForGpu(undefined, {}, undefined)).toBeUndefined()
  })
})

describe('placementOf', () => {
  it('Ollama: size_vram against size; partial is always worth a warning, cpu only where GPUs were meant', () => {
    const size = 2019393189
    expect(placementOf({ ollama: { model: 'm', size, sizeVram: size } })).toMatchObject({ placement: 'gpu' })
    expect(placementOf({ ollama: { model: 'm', size, sizeVram: 0 } })).toEqual({
      placement: 'cpu',
      evidence: `Ollama /api/ps: "m" size_vram 0 of size ${size} (0% in GPU memory)`
    })
    const partial = placementOf({ ollama: { model: 'm', size, sizeVram: Math.round(size * 0.4) } })
    expect(partial?.placement).toBe('partial')
    expect(partial?.warning).toMatch(
      /^The model is ready only partly on the GPU: Ollama \/api\/ps: "m" size_vram \d+ of size 2019393189 \(40% in GPU memory\)\./
    )
    expect(placementOf({ meant: '1 GPU is present', ollama: { model: 'm', size, sizeVram: 0 } })?.warning).toMatch(
      /^The model is ready on the CPU, though the server was meant to use GPUs \(1 GPU is present\)/
    )
  })

  it("llama.cpp's offload line: N < M partial, 0 cpu, M gpu; no usable GPU: cpu", () => {
    const at = (n: number, m: number) => placementOf({ meant: 'x', log: { offload: { n, m, line: 7 } } })?.placement
    expect([at(33, 33), at(20, 33), at(0, 33)]).toEqual(['gpu', 'partial', 'cpu'])
    expect(
      placementOf({
        meant: 'its start line asks for 2 GPU layers',
        log: { noGpu: { line: 2, text: 'warning: no usable GPU found' } }
      })
    ).toMatchObject({
      placement: 'cpu',
      warning: expect.stringContaining('"warning: no usable GPU found" (log line 2)')
    })
  })

  it('GPU memory held tells only where GPUs were meant: 0 MiB is cpu; the worst of several wins', () => {
    expect(placementOf({ heldMiB: 0 })).toBeUndefined()
    expect(placementOf({ meant: '1 GPU is present', heldMiB: 0 })).toMatchObject({
      placement: 'cpu',
      evidence: "the server's processes hold 0 MiB of GPU memory"
    })
    expect(placementOf({ meant: 'x', heldMiB: 21090 })).toEqual({
      placement: 'gpu',
      evidence: "the server's processes hold 21090 MiB of GPU memory"
    })
    expect(placementOf({ meant: 'x', heldMiB: 9000, log: { offload: { n: 10, m: 33, line: 3 } } })?.placement).toBe(
      'partial'
    )
  })
})

describe('GPU memory held by an engine that may keep layers on the CPU (a real llama.cpp, 2026-12: no offload line)', () => {
  it('says no placement, and why, where no line tells how many layers went; the offload line still tells', () => {
    // a real CUDA llama-server with -ngl 2 of 6 layers at its default verbosity: 914 MiB held, no offload line
    const e = { meant: 'its start line asks for 2 GPU layers', heldMiB: 914, splitsLayers: true }
    expect(placementOf(e)).toBeUndefined()
    expect(placementUntold(e, 'llama.cpp')).toBe(
      "Placement not told: the server's processes hold 914 MiB of GPU memory, so some of the model is there, but " +
        'llama.cpp may keep layers on the CPU, and no line says how many went to the GPU (llama.cpp prints it only ' +
        'at -lv 4: add it to the start line)'
    )
    expect(placementUntold(e, undefined)).toMatch(/but an engine not known may keep layers on the CPU/)
    const told = { ...e, log: { offload: { n: 2, m: 6, line: 40 } } }
    expect(placementOf(told)?.placement).toBe('partial')
    expect(placementUntold(told, 'llama.cpp')).toBeUndefined()
    // none held is still the CPU, and an engine that loads every weight to the GPU is told by memory as before
    expect(placementOf({ ...e, heldMiB: 0 })?.placement).toBe('cpu')
    expect(placementOf({ ...e, splitsLayers: false })?.placement).toBe('gpu')
  })
})

describe('ollamaPs', () => {
  it("reads the model's entry by name; anything else says nothing", async () => {
    const asked: string[] = []
    const ps = http(
      200,
      JSON.stringify({ models: [{ name: 'qwen3:8b', model: 'qwen3:8b', size: 100, size_vram: 40 }] })
    )
    const send = async (url: URL) => (asked.push(url.href), ps)
    expect(await ollamaPs(new URL('http://h:11434/v1/models'), 'qwen3:8b', send)).toEqual({
      model: 'qwen3:8b',
      size: 100,
      sizeVram: 40
    })
    expect(asked).toEqual(['http://h:11434/api/ps'])
    expect(await ollamaPs(new URL('http://h/'), 'other', send)).toBeUndefined()
    expect(await ollamaPs(new URL('http://h/'), 'm', async () => http(404, '404 page not found'))).toBeUndefined()
    expect(
      await ollamaPs(new URL('http://h/'), 'm', async () => http(200, '{"models":[{"name":"m"}]}'))
    ).toBeUndefined()
  })
})
