import { readFileSync, writeFileSync } from 'node:fs'
import type { ChildProcess } from 'node:child_process'
import { runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { expectEndedByDeadline, measureLoad } from '../helpers/bounds.js'
import { sandbox } from '../helpers/sandbox.js'
import { fakeServer, type MeasuredRun, runMeasured, termOnceRunsNvidiaSmi } from '../helpers/support.js'

/**
 * Issue 26 item 5, through dist/: a fake nvidia-smi on PATH that hangs, answers slowly or floods its output.
 * The step ends within its timeout and a second (on its own clock, helpers/bounds.ts), a cancel ends it at once
 * (within SLACK_MS, stretched by the load measured during the run), nothing crashes, and the post step still stops
 * the server.
 */
const fakeDir = new URL('../fixtures/gpu/', import.meta.url).pathname
const post = new URL('../../dist/post.js', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const box = sandbox('wfm-gpu-bounds-')
/** How soon a cancel ends the step on an idle machine: its outputs and its exit. */
const SLACK_MS = 1500

function gpuEnv(behaviour: { hangMs?: number; floodMb?: number }): Record<string, string> {
  const state = box.path('gpu.json')
  writeFileSync(
    state,
    JSON.stringify({ gpus: [{ index: 0, uuid: GPU, name: 'NVIDIA H200', total: 143771 }], apps: [], ...behaviour })
  )
  return { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: state }
}

async function act(
  inputs: Record<string, string>,
  env: Record<string, string>,
  onStart?: (child: ChildProcess) => void
): Promise<MeasuredRun> {
  const port = await freePort()
  const run = await runMeasured(
    {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      start: `exec node ${fakeServer} ${port} loads 100`,
      'log-file': box.path('server.log'),
      interval: '100ms',
      'history-file': '',
      ...inputs
    },
    env,
    { onStart }
  )
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  return run
}

/** Running: a zombie waiting for its new parent to reap it is gone. */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

describe('a hostile nvidia-smi (issue 26 item 5)', () => {
  it('one that hangs before start: the step ends within its timeout', async () => {
    const run = await act({ timeout: '3s', 'gpu-check': 'warn' }, gpuEnv({ hangMs: 600_000 }))
    expectEndedByDeadline(run, 3_000)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
  })

  it('one that answers slowly after ready: the step still ends within its timeout, ready', async () => {
    // it answers only well past the deadline: however soon the server was ready, the step may not wait for it
    const run = await act({ timeout: '8s', 'gpu-check': 'off' }, gpuEnv({ hangMs: 600_000 }))
    expect(run.outputs.ready).toBe('true')
    expectEndedByDeadline(run, 8_000)
  })

  it('a cancel while it hangs ends the step at once', async () => {
    const term = termOnceRunsNvidiaSmi()
    const run = await act({ timeout: '60s', 'gpu-check': 'warn' }, gpuEnv({ hangMs: 600_000 }), term.onStart)
    expect(term.at()).toBeGreaterThan(0)
    expect(performance.now() - term.at()).toBeLessThan(SLACK_MS * run.stretch)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'cancelled' })
  })

  it('a cancel of the job-end step while it hangs ends the step at once, the server stopped', async () => {
    const run = await act({ timeout: '20s', 'gpu-check': 'off', stop: 'job-end' }, gpuEnv({}))
    expect(run.outputs.ready).toBe('true')
    const pid = Number(run.outputs.pid)
    const env = gpuEnv({ hangMs: 600_000 })
    for (const [name, value] of Object.entries(run.state)) env[`STATE_${name}`] = value
    const term = termOnceRunsNvidiaSmi()
    const stretch = measureLoad()
    const p = await runAction({ entry: post, inputs: {}, env, onStart: term.onStart })
    const load = stretch()
    expect(term.at()).toBeGreaterThan(0)
    // its SIGKILL'd processes may take up to a second to go: waited for
    expect(performance.now() - term.at()).toBeLessThan((SLACK_MS + 1_000) * load)
    expect(p.code).toBe(0)
    // gone on SIGTERM, or SIGKILL'd at once: the cancel waits for no stop-timeout
    expect(p.stdout).toMatch(
      /^Stopped the server's process group \d+ \(1 process\): SIGTERM, (gone|then SIGKILL at once)/m
    )
    expect(p.stdout).toContain('::warning::The job-end step was cancelled (SIGTERM)')
    expect(alive(pid)).toBe(false)
  })

  it('one that floods 300 MB: "unreadable", no crash, and the post step still stops the server', async () => {
    const env = gpuEnv({ floodMb: 300 })
    const run = await act({ timeout: '20s', 'gpu-check': 'warn', stop: 'job-end' }, env)
    expect(run.outputs.ready).toBe('true')
    expect(run.stderr).not.toMatch(/RangeError|Invalid string length/)
    const pid = Number(run.outputs.pid)
    expect(alive(pid)).toBe(true)
    const stateEnv: Record<string, string> = {}
    for (const [name, value] of Object.entries(run.state)) stateEnv[`STATE_${name}`] = value
    const p = await runAction({ entry: post, inputs: {}, env: { ...env, ...stateEnv } })
    expect(p.code).toBe(0)
    expect(p.stderr).not.toMatch(/RangeError|Invalid string length/)
    expect(p.stdout).toMatch(/Stopped the server/)
    expect(alive(pid)).toBe(false)
  })
})
