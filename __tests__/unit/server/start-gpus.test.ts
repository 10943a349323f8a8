import { startGpus, withStartGpus } from '../../../src/server/preflight.js'

describe('the GPUs a start command pins its server to', () => {
  it.each([
    ['CUDA_VISIBLE_DEVICES=3 vllm serve kimi --port 8003', '3'],
    ['HF_HOME=/cache CUDA_VISIBLE_DEVICES=0,1 vllm serve kimi', '0,1'],
    ["env -u NCCL_IB_HCA CUDA_VISIBLE_DEVICES='2' python -m sglang.launch_server", '2'],
    ['export CUDA_VISIBLE_DEVICES=5; exec llama-server -m m.gguf', '5'],
    ['cd /srv && CUDA_VISIBLE_DEVICES=GPU-24f17f1b llama-server', 'GPU-24f17f1b'],
    ['docker run --rm --gpus device=4 vllm/vllm-openai', '4'],
    ['docker run --gpus \'"device=1,2"\' vllm/vllm-openai', '1,2'],
    ['docker run --gpus=device=6 img', '6']
  ])('%s: %s', (start, gpus) => {
    expect(startGpus(start)).toBe(gpus)
  })
  it.each([
    'vllm serve kimi',
    'echo CUDA_VISIBLE_DEVICES=3',
    'docker run --gpus all vllm/vllm-openai',
    'vllm serve kimi --tag XCUDA_VISIBLE_DEVICES=1'
  ])('%s: not said', (start) => {
    expect(startGpus(start)).toBeUndefined()
  })
  it("overrides the step's CUDA_VISIBLE_DEVICES only where the command pins its own", () => {
    const env = { CUDA_VISIBLE_DEVICES: '0,1,2,3', PATH: '/bin' }
    expect(withStartGpus(env, 'CUDA_VISIBLE_DEVICES=2 serve')).toEqual({ CUDA_VISIBLE_DEVICES: '2', PATH: '/bin' })
    expect(withStartGpus(env, 'serve')).toBe(env)
    expect(withStartGpus(env, undefined)).toBe(env)
  })
  it('reads a hostile start of 64 KiB that never names the GPUs in one pass, not in exponential time', () => {
    // each of these hung the old pattern: two ways to read each word, tried for each of thousands of words
    expect(startGpus(`${"A='' ".repeat(13_000)}x`)).toBeUndefined()
    expect(startGpus(`env ${'-u -a '.repeat(10_000)}x`)).toBeUndefined()
    expect(startGpus(';A=1 '.repeat(13_000))).toBeUndefined()
    expect(startGpus(`${"A='' ".repeat(13_000)}CUDA_VISIBLE_DEVICES=7 serve`)).toBe('7')
  })
})
