import { readFileSync, writeFileSync } from 'node:fs'
import { type ActionRun, runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, fakeServer } from '../helpers/support.js'

/**
 * Issue 26 item 5, through dist/: a fake nvidia-smi on PATH that hangs, answers slowly or floods its output.
 * The step ends within its timeout and SLACK_MS, a cancel ends it at once, nothing crashes, and the post step
 * still stops the server.
 */
const fakeDir = new URL('../fixtures/gpu/', import.meta.url).pathname
const post = new URL('../../dist/post.js', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const box = sandbox('wfm-gpu-bounds-')
/** What the step may take past its timeout: the process's start and the outputs, on a loaded 2-core machine. */
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
  onStart?: Parameters<typeof runAction>[0]['onStart']
): Promise<ActionRun> {
  const port = await freePort()
  const run = await runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      start: `exec node ${fakeServer} ${port} loads 100`,
      'log-file': box.path('server.log'),
      interval: '100ms',
      'history-file': '',
      ...inputs
    },
    env,
    onStart
  })
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
    expect(run.wallMs).toBeLessThan(3000 + SLACK_MS)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
  })

  it('one that answers slowly after ready: the step still ends within its timeout, ready', async () => {
    const run = await act({ timeout: '3s', 'gpu-check': 'off' }, gpuEnv({ hangMs: 2000 }))
    expect(run.outputs.ready).toBe('true')
    expect(run.wallMs).toBeLessThan(3000 + SLACK_MS)
  })

  it('a cancel while it hangs ends the step at once', async () => {
    let signalled = 0
    const run = await act({ timeout: '60s', 'gpu-check': 'warn' }, gpuEnv({ hangMs: 600_000 }), (child) => {
      setTimeout(() => {
        signalled = performance.now()
        child.kill('SIGTERM')
      }, 1000)
    })
    const after = performance.now() - signalled
    expect(after).toBeLessThan(SLACK_MS)
    expect(run.outputs.ready).not.toBe('true')
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
