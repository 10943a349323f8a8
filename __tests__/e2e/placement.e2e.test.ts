import { writeFileSync } from 'node:fs'
import { runAction } from '../../src/simulator/runner.js'
import { freePort, simulate } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors } from '../helpers/support.js'

/**
 * Ready on the wrong device, through dist/index.js: Ollama's model partly in GPU memory (/api/ps), llama.cpp's
 * offload line with N < M (its log, the simulator printing the real line), and a server holding 0 MiB on a machine
 * with a GPU (the fake nvidia-smi in the real CSV format). Each: a warning, a summary row, the `placement` output,
 * the history's record. The real llama.cpp's own case is in __tests__/real/llamacpp.real.test.ts.
 */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const fakeDir = new URL('../fixtures/gpu/', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const box = sandbox('wfm-placement-e2e-')

const warnings = (stdout: string): string[] => stdout.split('\n').filter((l) => l.startsWith('::warning '))

describe('placement', () => {
  it('Ollama with 40% of its model in GPU memory: partial, a warning, the summary and the history say so', async () => {
    const server = await simulate({ engine: 'ollama', model: 'qwen3:8b', loadMs: 300, onGpu: 0.4 })
    const history = box.path('history.jsonl')
    try {
      const run = await runAction({
        entry,
        inputs: {
          url: `${server.baseUrl}/api/tags`,
          model: 'qwen3:8b',
          interval: '200ms',
          timeout: '30s',
          'history-file': history
        }
      })
      expect(errors(run.stdout)).toEqual([])
      expect(run.outputs).toMatchObject({ ready: 'true', placement: 'partial' })
      expect(warnings(run.stdout)).toContainEqual(
        expect.stringMatching(
          /^::warning title=Model not on the GPU::The model is ready only partly on the GPU: Ollama \/api\/ps: "qwen3:8b" size_vram 807757276 of size 2019393189 \(40%25 in GPU memory\)/
        )
      )
      expect(run.summary).toMatch(/\| Model placement \| ⚠️ partial: The model is ready only partly on the GPU/)
      const { readFileSync } = await import('node:fs')
      expect(JSON.parse(readFileSync(history, 'utf8').trim().split('\n').at(-1) as string)).toMatchObject({
        ready: true,
        placement: 'partial'
      })
    } finally {
      await server.close()
    }
  })

  it('Ollama wholly in GPU memory: gpu, no warning', async () => {
    const server = await simulate({ engine: 'ollama', model: 'qwen3:8b', loadMs: 300, onGpu: 1 })
    try {
      const run = await runAction({
        entry,
        inputs: {
          url: `${server.baseUrl}/api/tags`,
          model: 'qwen3:8b',
          interval: '200ms',
          timeout: '30s',
          'history-file': ''
        }
      })
      expect(run.outputs).toMatchObject({ ready: 'true', placement: 'gpu' })
      expect(warnings(run.stdout)).toEqual([])
      expect(run.stdout).toMatch(
        /Model placement: gpu \(Ollama \/api\/ps: "qwen3:8b" size_vram 2019393189 of size 2019393189/
      )
    } finally {
      await server.close()
    }
  })

  it("llama.cpp started with -ngl, its log saying offloaded 20/33 layers to GPU: partial, with the line's number", async () => {
    const port = await freePort()
    const run = await runAction({
      entry,
      inputs: {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: 'qwen3-8b.gguf',
        // the simulator stands in for `llama-server -ngl 20`: the flag, in a shell comment, is read from the line
        start: `"${process.execPath}" "${cli}" simulate --engine llamacpp --model qwen3-8b.gguf --port ${port} --load 1s --on-gpu 0.6 # -ngl 20`,
        'log-file': box.path('llamacpp.log'),
        interval: '200ms',
        timeout: '30s',
        'history-file': ''
      }
    })
    if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs).toMatchObject({ ready: 'true', placement: 'partial' })
    expect(warnings(run.stdout)).toContainEqual(
      expect.stringMatching(
        /^::warning title=Model not on the GPU::The model is ready only partly on the GPU, though the server was meant to use GPUs \(its start line asks for 20 GPU layers\): offloaded 20\/33 layers to GPU \(log line \d+\)/
      )
    )
  })

  it('a server holding 0 MiB on a machine with a GPU: cpu, a warning; without nvidia-smi nothing is said', async () => {
    const gpuState = box.path('gpu.json')
    writeFileSync(
      gpuState,
      JSON.stringify({ gpus: [{ index: 0, uuid: GPU, name: 'NVIDIA H200', total: 143771 }], apps: [] })
    )
    for (const withGpu of [true, false]) {
      const port = await freePort()
      const run = await runAction({
        entry,
        inputs: {
          url: `http://127.0.0.1:${port}/v1/models`,
          model: 'kimi',
          start: `"${process.execPath}" "${cli}" simulate --engine vllm --model /shared/kimi-k2.5-int4 --port ${port} --load 500ms`,
          'log-file': box.path(`vllm-${String(withGpu)}.log`),
          'gpu-check': 'off',
          interval: '200ms',
          timeout: '30s',
          'history-file': ''
        },
        env: withGpu ? { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: gpuState } : {}
      })
      if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
      expect(run.outputs.ready).toBe('true')
      if (withGpu) {
        expect(run.outputs).toMatchObject({ placement: 'cpu', 'gpu-memory-mib': '0' })
        expect(warnings(run.stdout)).toContainEqual(
          expect.stringMatching(
            /^::warning title=Model not on the GPU::The model is ready on the CPU, though the server was meant to use GPUs \(1 GPU is present\): the server's processes hold 0 MiB of GPU memory/
          )
        )
        expect(run.summary).toMatch(/\| Model placement \| ⚠️ cpu: /)
      } else {
        expect(run.outputs.placement).toBe('')
        expect(run.stdout).not.toMatch(/Model placement/)
      }
    }
  })
})
