/**
 * A real llama.cpp server (llama-server v0.5.0, built for CPU by scripts/real-llamacpp.sh) started by the action,
 * a random-weight model (scripts/tiny-gguf.py `small`, loaded in about a second). Correctness against the real
 * engine: ready, the right model, and `startup-seconds` within 0.3 s of the server's own `model loaded` stamp
 * (with the log; without it, no startup is measured); the smoke test reads the server's own `timings`. The lag itself is measured by `npm run bench -- --only
 * llamacpp`, not here. Skipped, saying why, unless WAIT_FOR_MODEL_LLAMA_SERVER and WAIT_FOR_MODEL_GGUF_PY are
 * set: `eval "$(scripts/real-llamacpp.sh)" && npm run test:real`.
 */
import { makeModel, realLlamacpp, realRun } from '../../bench/real-llamacpp.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry } from '../helpers/support.js'

const root = new URL('../..', import.meta.url).pathname
const real = realLlamacpp()
if (typeof real === 'string') {
  it.skip(`the real llama.cpp suite: ${real}`, () => undefined)
  console.warn(`__tests__/real/llamacpp.real.test.ts skipped: ${real}`)
} else {
  const box = sandbox('wait-for-model-real-', 'file')
  const models = box.path('small.gguf')
  beforeAll(() => makeModel(real, models, 'small', root), 120_000)

  const run = (withLog: boolean, serverArgs: string[] = [], inputs: Record<string, string> = {}) =>
    realRun({
      real,
      model: models,
      withLog,
      dir: box.dir(),
      entry,
      serverArgs,
      inputs,
      kill: (pid) => box.pids.push(pid)
    })

  describe('a real llama.cpp server', () => {
    it('started by the action, its log followed: ready, its model, and startup-seconds by its own stamp', async () => {
      for (let i = 0; i < 3; i++) {
        const r = await run(true)
        expect([r.ready, r.reason, r.modelId]).toEqual([true, 'ready', 'wfm-random'])
        expect(r.loadedStampS).toBeGreaterThan(0)
        expect(Math.abs((r.startupSeconds as number) - (r.loadedStampS as number))).toBeLessThanOrEqual(0.3)
      }
    }, 120_000)

    it('started with -ngl below its layer count on a build without a GPU: ready on the CPU, and a warning says so', async () => {
      // this CPU build logs `no usable GPU found, --gpu-layers option will be ignored` and no offload line (which
      // only a GPU backend prints, and only at -lv 4: llama.cpp's partial offload is the simulator's, printing that line)
      const r = await run(true, ['-ngl', '2'])
      expect([r.ready, r.reason, r.placement]).toEqual([true, 'ready', 'cpu'])
      // its log thread and this fprintf share stderr: the line may come after another's time stamp (0.00.000.329 )
      expect(r.stdout).toMatch(
        /::warning title=Model not on the GPU::The model is ready on the CPU, though the server was meant to use GPUs \(its start line asks for 2 GPU layers\): "(?:[\d.]+ )?warning: no usable GPU found, --gpu-layers option will be ignored" \(log line \d+\)/
      )
      const plain = await run(true)
      expect([plain.ready, plain.placement]).toEqual([true, ''])
    }, 120_000)

    it("at -lv 4, the verbosity that shows its offload line: libllama's lines, hidden by default, are there; ready by its stamp", async () => {
      // the offload line is libllama's (LLAMA_LOG_INFO), printed from -lv 4 on, as load_tensors' other lines are
      const verbose = await run(true, ['-lv', '4'])
      expect([verbose.ready, verbose.reason]).toEqual([true, 'ready'])
      expect(verbose.log).toMatch(/ load_tensors: /)
      expect(Math.abs((verbose.startupSeconds as number) - (verbose.loadedStampS as number))).toBeLessThanOrEqual(0.3)
      const plain = await run(true)
      expect(plain.log).not.toMatch(/ load_tensors: /)
    }, 120_000)

    it("the smoke test: the engine's own timings (its `timings`) beside ours, as the real server reports them", async () => {
      const r = await run(true, [], { 'smoke-test': 'true' })
      expect([r.ready, r.reason]).toEqual([true, 'ready'])
      const ours = Number(r.outputs['decode-tokens-per-second'])
      const result = JSON.parse(r.outputs.results)[0]
      expect(result['engine-timings']).toMatchObject({ source: 'timings' })
      const own = result['engine-timings']['decode-tokens-per-second']
      expect(result['engine-timings']['prompt-ms']).toBeGreaterThan(0)
      expect(ours).toBeGreaterThan(0)
      // the same tokens over nearly the same span: the server's clock leaves out the way to us and the streaming
      expect(own).toBeGreaterThan(ours / 3)
      expect(own).toBeLessThan(ours * 3)
      expect(r.stdout).toMatch(
        /^Smoke test: time to first token .*; the engine's own: decode \d+\.\d tokens\/s, prompt \d+ ms \(llama\.cpp's timings: predicted_per_second, prompt_ms\)$/m
      )
    }, 120_000)

    it('started apart, the URL alone: ready, its model', async () => {
      const r = await run(false)
      expect([r.ready, r.reason, r.modelId]).toEqual([true, 'ready', 'wfm-random'])
      expect(r.startupSeconds).toBeUndefined()
    }, 60_000)
  })
}
