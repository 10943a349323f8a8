import { envReport, workerDifferences } from '../../../src/server/env-report.js'
import { gateLines, procEnvironNote } from '../../../src/report/progress.js'
import type { ServerFacts } from '../../../src/facts/outcome.js'

const names = ['NCCL_*']
const api = envReport(names, { NCCL_PROTO: 'LL', NCCL_ALGO: 'Ring', NCCL_DEBUG: 'INFO' })
const worker = (pid: number, environ: Record<string, string>) => ({ pid, env: envReport(names, environ) })
const eight = (environ: Record<string, string>) =>
  [1301, 1302, 1303, 1304, 1305, 1306, 1307, 1308].map((p) => worker(p, environ))

describe("the GPU workers' environment against the API process's", () => {
  it("the seeds' case: the API process has NCCL_PROTO and NCCL_ALGO, the eight workers neither", () => {
    const facts: ServerFacts = {
      pid: 1199,
      envPid: 1200,
      envPort: 8000,
      env: api,
      gpuWorkers: eight({ NCCL_DEBUG: 'INFO' })
    }
    expect(gateLines.workers(facts)).toEqual([
      "GPU workers (the server's processes that hold GPU memory: pids 1301–1308):",
      '  NCCL_ALGO: Ring in the API process (pid 1200), unset in 8 of 8 GPU workers (pids 1301–1308)',
      '  NCCL_PROTO: LL in the API process (pid 1200), unset in 8 of 8 GPU workers (pids 1301–1308)'
    ])
  })

  it('workers that have the same values: said so; some that differ: grouped by value', () => {
    const same: ServerFacts = {
      envPid: 1200,
      envPort: 8000,
      env: api,
      gpuWorkers: eight({ NCCL_PROTO: 'LL', NCCL_ALGO: 'Ring', NCCL_DEBUG: 'INFO' })
    }
    expect(gateLines.workers(same)).toEqual([
      "GPU workers (the server's processes that hold GPU memory: pids 1301–1308):",
      '  The same values as the API process (pid 1200).'
    ])
    const mixed = [
      worker(1301, { NCCL_PROTO: 'LL', NCCL_ALGO: 'Ring', NCCL_DEBUG: 'INFO' }),
      worker(1302, { NCCL_PROTO: 'Simple', NCCL_ALGO: 'Ring', NCCL_DEBUG: 'INFO' }),
      { pid: 1303 }
    ]
    expect(workerDifferences(api, mixed)).toEqual([
      {
        name: 'NCCL_PROTO',
        server: 'LL',
        groups: [
          { value: 'LL', pids: [1301] },
          { value: 'Simple', pids: [1302] }
        ]
      }
    ])
    expect(gateLines.workers({ envPid: 1200, env: api, gpuWorkers: mixed })).toEqual([
      "GPU workers (the server's processes that hold GPU memory: pids 1301–1303):",
      '  NCCL_PROTO: LL in the server process (pid 1200), LL in 1 of 2 GPU workers (pid 1301), Simple in 1 of 2 GPU workers (pid 1302)',
      '  The environment of pid 1303 could not be read (exited, or not ours).'
    ])
  })

  it('credentials compared on their real values, shown masked', () => {
    const server = envReport(['HF_TOKEN'], { HF_TOKEN: 'hf_a' })
    const workers = [{ pid: 7, env: envReport(['HF_TOKEN'], { HF_TOKEN: 'hf_b' }) }]
    expect(workerDifferences(server, workers)).toEqual([
      { name: 'HF_TOKEN', server: '***', groups: [{ value: '***', pids: [7] }] }
    ])
    expect(JSON.stringify(gateLines.workers({ envPid: 1, env: server, gpuWorkers: workers }))).not.toContain('hf_')
  })

  it('what /proc cannot show is said, pointing to NCCL_DEBUG=INFO', () => {
    expect(procEnvironNote).toContain('at its start')
    expect(procEnvironNote).toContain('NCCL_DEBUG=INFO')
  })
})
