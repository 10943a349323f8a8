import { readFileSync, writeFileSync } from 'node:fs'
import { runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { ranges } from '../../src/server/nccl-log.js'
import { sandbox } from '../helpers/sandbox.js'
import { EIGHT_GPUS, entry, errors, fakeNvidiaSmiDir, fakeServer, gpuWorkersScript } from '../helpers/support.js'

/**
 * `env-report` against the processes that run NCCL, end to end through dist/: a server whose API process listens and
 * whose "GPU workers" are real child processes the fake nvidia-smi (the real CSV format) shows holding GPU memory;
 * the workers print NCCL's NCCL_DEBUG=INFO lines for what they have, and a log made from NCCL's format strings is
 * read as NCCL's own word.
 */
const ncclLog = new URL('../fixtures/nccl/nccl-2.21.5-synthetic-from-source.log', import.meta.url).pathname
const realNcclLog = new URL('../fixtures/nccl/nccl-2.28.9-h100-one-rank.log', import.meta.url).pathname
const box = sandbox('wfm-gpu-workers-e2e-')
/** The step's environment: the seeds' tuning, and NCCL_IB_HCA, which NCCL reads without a line saying so. */
const STEP_ENV = { NCCL_PROTO: 'LL', NCCL_ALGO: 'Ring', NCCL_IB_HCA: 'mlx5_0', NCCL_DEBUG: 'INFO' }

async function serve(start: (port: number, gpuState: string) => string) {
  const port = await freePort()
  const gpuState = box.path('gpu.json')
  writeFileSync(gpuState, JSON.stringify({ gpus: EIGHT_GPUS, apps: [] }))
  const run = await runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      start: start(port, gpuState),
      'log-file': box.path('server.log'),
      interval: '200ms',
      timeout: '30s',
      'env-report': 'NCCL_*',
      'history-file': box.path('history.jsonl'),
      'history-key': 'tp8'
    },
    env: { ...STEP_ENV, PATH: `${fakeNvidiaSmiDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: gpuState }
  })
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  const workers = (JSON.parse(readFileSync(gpuState, 'utf8')) as { apps: { pid: number }[] }).apps.map((a) => a.pid)
  return { ...run, port, workers }
}

/** The API process (the fake server) with eight workers beside it, given the step's NCCL variables or not. */
const tp8 = (mode: 'with' | 'without' | 'inside') => (port: number, gpuState: string) =>
  `node ${gpuWorkersScript} ${gpuState} 8 ${mode} & exec node ${fakeServer} ${port} loads 1500`

const records = () =>
  readFileSync(box.path('history.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)

describe('env-report reads the GPU workers, and NCCL its own word', () => {
  it('workers started without NCCL_PROTO and NCCL_ALGO: named per process; a second run whose workers have them clears it', async () => {
    const run = await serve(tp8('without'))
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    const api = Number(run.outputs.pid)
    const pids = [...run.workers].sort((a, b) => a - b)
    expect(pids).toHaveLength(8)
    const line = (name: string, value: string) =>
      `${name}: ${value} in the API process (pid ${api}), unset in 8 of 8 GPU workers (pids ${ranges(pids)})`
    expect(run.stdout).toContain("GPU workers (the server's processes that hold GPU memory: pids ")
    expect(run.stdout).toContain(line('NCCL_ALGO', 'Ring'))
    expect(run.stdout).toContain(line('NCCL_PROTO', 'LL'))
    // NCCL's own word, from the workers' lines: neither was taken; NCCL_IB_HCA no line confirms either
    expect(run.stdout).toMatch(
      /NCCL's own word \(its NCCL_DEBUG=INFO lines in the server log; ranks 0–7\):\n {2}No NCCL line says/
    )
    expect(run.stdout).toContain('Not confirmed by NCCL: NCCL_ALGO, NCCL_IB_HCA, NCCL_PROTO are set in env-report')
    expect(run.stdout).toContain('at its start (/proc/PID/environ)')
    expect(run.summary).toContain("⚠️ **GPU workers (the server's processes that hold GPU memory: pids")
    expect(run.summary).toContain('NCCL\\_PROTO: LL in the API process')
    expect(run.summary).toContain('environ): a value a process sets later')
    const environment = JSON.parse(run.outputs.environment) as Record<string, unknown>
    expect(environment).toMatchObject({
      pid: api,
      env: { NCCL_PROTO: 'LL', NCCL_ALGO: 'Ring' },
      'workers-differ': ['NCCL_ALGO', 'NCCL_PROTO'],
      nccl: { unconfirmed: ['NCCL_ALGO', 'NCCL_IB_HCA', 'NCCL_PROTO'] }
    })
    expect((environment['gpu-workers'] as { pid: number }[]).map((w) => w.pid)).toEqual(pids)
    // the history keeps the workers' values beside the API process's
    expect(records()[0]).toMatchObject({
      env: { NCCL_PROTO: 'LL', NCCL_ALGO: 'Ring' },
      workersEnv: { NCCL_IB_HCA: 'mlx5_0', NCCL_DEBUG: 'INFO' }
    })
    expect(records()[0].workersEnv).not.toHaveProperty('NCCL_PROTO')

    const again = await serve(tp8('with'))
    expect(again.outputs.ready).toBe('true')
    expect(again.stdout).toMatch(
      /GPU workers \(the server's processes that hold GPU memory: pids [^)]+\):\n {2}The same values as the API process/
    )
    expect(again.stdout).not.toContain('unset in 8 of 8')
    expect(again.stdout).toMatch(/ {2}NCCL_ALGO=Ring in ranks 0–7\n {2}NCCL_PROTO=LL in ranks 0–7\n/)
    expect(again.stdout).toContain('Not confirmed by NCCL: NCCL_IB_HCA is set in env-report')
    expect(JSON.parse(again.outputs.environment)).toMatchObject({ 'workers-differ': [] })
    // workers against workers: the change is told as theirs
    expect(again.stdout).toContain('NCCL_PROTO in the GPU workers was unset in the last run, now "LL"')
  })

  it("a log with NCCL's lines gives NCCL's view per rank, and the variable its lines do not confirm", async () => {
    const run = await serve((port) => `cat ${ncclLog}; exec node ${fakeServer} ${port} loads 300`)
    expect(run.outputs.ready).toBe('true')
    expect(run.stdout).toContain(
      "NCCL's own word (its NCCL_DEBUG=INFO lines in the server log, NCCL 2.21.5+cuda12.4; ranks 0–7):\n" +
        '  NCCL_ALGO=Ring in ranks 0–7\n' +
        '  NCCL_IB_DISABLE=1 in ranks 0–7\n' +
        '  NCCL_PROTO=LL in ranks 0–7\n' +
        '  NCCL_SOCKET_IFNAME=eth0 in ranks 0–7\n' +
        '  Not confirmed by NCCL: NCCL_IB_HCA is set in env-report'
    )
    const { nccl } = JSON.parse(run.outputs.environment) as { nccl: { processes: unknown[] } }
    expect(nccl.processes[7]).toEqual({
      rank: 7,
      nranks: 8,
      pid: 1308,
      host: 'gpu-node-7',
      env: { NCCL_SOCKET_IFNAME: 'eth0', NCCL_IB_DISABLE: '1', NCCL_PROTO: 'LL', NCCL_ALGO: 'Ring' }
    })
    expect(records()[0].ncclEnv).toEqual({
      NCCL_ALGO: 'Ring',
      NCCL_IB_DISABLE: '1',
      NCCL_PROTO: 'LL',
      NCCL_SOCKET_IFNAME: 'eth0'
    })
  })

  it("a real NCCL's lines (2.28.9 on an H100, one rank): its view, and why NCCL_PROTO and NCCL_ALGO go unconfirmed", async () => {
    const run = await serve((port) => `cat ${realNcclLog}; exec node ${fakeServer} ${port} loads 300`)
    expect(run.outputs.ready).toBe('true')
    expect(run.stdout).toContain(
      "NCCL's own word (its NCCL_DEBUG=INFO lines in the server log, NCCL 2.28.9+cuda13.0; rank 0):\n" +
        '  NCCL_IB_DISABLE=1 in rank 0\n' +
        '  NCCL_NVLS_ENABLE=0 in rank 0\n' +
        '  NCCL_SOCKET_IFNAME=lo in rank 0\n' +
        '  Not confirmed by NCCL: NCCL_ALGO, NCCL_IB_HCA, NCCL_PROTO are set in env-report'
    )
    expect(run.stdout).toContain(
      '  Every NCCL group here has one rank: NCCL runs no tuning then, and never reads NCCL_ALGO or NCCL_PROTO.'
    )
    const { nccl } = JSON.parse(run.outputs.environment) as { nccl: { version: string; processes: unknown[] } }
    expect(nccl.version).toBe('2.28.9+cuda13.0')
    expect(nccl.processes).toEqual([
      {
        rank: 0,
        nranks: 1,
        pid: 520,
        host: 'vm',
        env: { NCCL_SOCKET_IFNAME: 'lo', NCCL_IB_DISABLE: '1', NCCL_NVLS_ENABLE: '0' }
      }
    ])
  })

  it("a value a worker set inside itself, which /proc cannot show: NCCL's lines say it was taken", async () => {
    const run = await serve(tp8('inside'))
    expect(run.outputs.ready).toBe('true')
    const pids = ranges(run.workers)
    // /proc: the workers started without it
    expect(run.stdout).toContain(
      `NCCL_PROTO: LL in the API process (pid ${run.outputs.pid}), unset in 8 of 8 GPU workers (pids ${pids})`
    )
    // NCCL: every rank took it
    expect(run.stdout).toContain(
      '  NCCL_PROTO=LL in ranks 0–7\n' +
        '  NCCL_PROTO=LL was taken by ranks 0–7, whose environment at start (/proc) did not hold it: set inside the ' +
        'process after it started.\n'
    )
    const { nccl } = JSON.parse(run.outputs.environment) as { nccl: { 'set-inside': unknown[] } }
    expect(nccl['set-inside']).toEqual([
      { name: 'NCCL_PROTO', value: 'LL', pids: [...run.workers].sort((a, b) => a - b) }
    ])
  })
})
