import { envReport } from '../../../src/server/env-report.js'

describe('envReport', () => {
  const environ = {
    NCCL_DEBUG: 'INFO',
    NCCL_IB_DISABLE: '1',
    CUDA_VISIBLE_DEVICES: '0,1',
    HF_TOKEN: 'hf_x',
    WANDB_API_KEY: 'k',
    DB_PASSWORD: 'p',
    MY_SECRET_X: 's',
    PATH: '/bin'
  }

  it('gives each name, and every variable a glob matches in order, saying which are not set', () => {
    expect(envReport(['NCCL_*', 'CUDA_VISIBLE_DEVICES', 'NCCL_DEBUG', 'SGLANG_*', 'PAT?'], environ)).toEqual([
      { name: 'NCCL_DEBUG', value: 'INFO' },
      { name: 'NCCL_IB_DISABLE', value: '1' },
      { name: 'CUDA_VISIBLE_DEVICES', value: '0,1' },
      { name: 'SGLANG_*' },
      { name: 'PATH', value: '/bin' }
    ])
  })

  it('masks the values of names that hold TOKEN, KEY, SECRET or PASSWORD', () => {
    const report = envReport(['*'], environ)
    expect(Object.fromEntries(report.map((e) => [e.name, e.value]))).toMatchObject({
      HF_TOKEN: '***',
      WANDB_API_KEY: '***',
      DB_PASSWORD: '***',
      MY_SECRET_X: '***',
      PATH: '/bin'
    })
    expect(JSON.stringify(report)).not.toMatch(/hf_x|"k"|"p"|"s"/)
  })
})
