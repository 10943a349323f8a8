import { writeFileSync } from 'node:fs'
import { runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { EIGHT_GPUS, entry, errors, fakeNvidiaSmiDir, fakeServer, gpuWorkersScript } from '../helpers/support.js'

/**
 * `ranks`, end to end through dist/: a server whose log holds none of its engine's rank lines (the fake server, an
 * API process that answers as vLLM once loaded, and prints no rank line) with GPU workers beside it, real child processes that print NCCL's own
 * `Init COMPLETE` line in NCCL's format (the real capture in __tests__/fixtures/nccl/) when their communicator is
 * up, only with NCCL_DEBUG=INFO, as NCCL does. The fake nvidia-smi (the real CSV format) shows them holding memory.
 */
const box = sandbox('wfm-ranks-e2e-')

/** `workers` GPU workers, each joining `joinMs` after its start, beside an API process ready after `loadMs`. */
async function serve(o: {
  ranks: string
  workers: number
  joinMs: number
  loadMs: number
  timeout?: string
  env?: Record<string, string>
}) {
  const port = await freePort()
  const gpuState = box.path(`gpu-${port}.json`)
  writeFileSync(gpuState, JSON.stringify({ gpus: EIGHT_GPUS, apps: [] }))
  const run = await runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      start: `node ${gpuWorkersScript} ${gpuState} ${o.workers} with ${o.joinMs} & exec node ${fakeServer} ${port} loads ${o.loadMs}`,
      'log-file': box.path(`server-${port}.log`),
      ranks: o.ranks,
      interval: '200ms',
      timeout: o.timeout ?? '30s',
      'history-file': ''
    },
    env: { NCCL_DEBUG: 'INFO', PATH: `${fakeNvidiaSmiDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: gpuState, ...o.env }
  })
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  return run
}

describe('ranks: a count given, counted in the log', () => {
  it("a server whose log has no rank line of its engine's: ready only once NCCL says every GPU worker joined, after the API answered", async () => {
    // the API answers after 0.5 s; the workers' communicators complete after 3 s
    const run = await serve({ ranks: '8', workers: 8, joinMs: 3_000, loadMs: 500 })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    expect(Number(run.outputs['elapsed-seconds'])).toBeGreaterThanOrEqual(3)
    expect(run.stdout).toMatch(/waiting for ranks: 0 of 8 joined \(NCCL's Init COMPLETE lines\)/)
    expect(run.stdout).toMatch(/Node 1 \(this machine\): 8 ranks, joined [\d.]+s after the start/)
    expect(run.summary).toMatch(/\| Ranks joined \| 8 of 8 \(NCCL's Init COMPLETE lines\) \|/)
  })

  it('fewer workers than the count: not ready at the timeout, which says how many joined', async () => {
    const run = await serve({ ranks: '8', workers: 4, joinMs: 0, loadMs: 300, timeout: '4s' })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    // probed at the schedule's pace, though each probe writes the server's access lines into the log it follows
    expect(Number(run.outputs.attempts)).toBeLessThanOrEqual(4_000 / 200 + 2)
    expect(run.stdout).toMatch(
      /::error title=Model server not ready \(timeout\)::Timed out after 4\.0s .*Last answer: HTTP 200, serving \[\/shared\/kimi-k2\.5-int4\] — .*waiting for ranks: 4 of 8 joined \(NCCL's Init COMPLETE lines\)/
    )
  })

  it('no NCCL_DEBUG=INFO: not one line to count, and the failure says what to set', async () => {
    const run = await serve({ ranks: '2', workers: 2, joinMs: 0, loadMs: 300, timeout: '3s', env: { NCCL_DEBUG: '' } })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expect(run.stdout).toContain(
      "waiting for ranks: 0 of 2 joined (NCCL's Init COMPLETE lines); not one rank line read: the engine's own are " +
        "not known, and NCCL prints its lines only with NCCL_DEBUG=INFO in the server's environment"
    )
  })

  it('ranks without a log to count in: one line naming what to set, nothing started', async () => {
    const run = await runAction({
      entry,
      inputs: { url: 'http://127.0.0.1:9/v1/models', ranks: '8', 'history-file': '' }
    })
    expect(errors(run.stdout)).toEqual([
      '::error title=Invalid input::Input "ranks": needs the server\'s log to count them in: set "start" (which writes one), "log-file" or "container"'
    ])
  })
})
