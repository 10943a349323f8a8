import { writeFileSync } from 'node:fs'
import { runAction } from '../../src/simulator/runner.js'
import { procStat } from '../../src/server/proc.js'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors, fakeServer, savedServers, stateOf } from '../helpers/support.js'

/**
 * The job-end stop as a runner runs it: dist/index.js with a GITHUB_STATE file, then dist/post.js with that
 * state as STATE_* variables, against a real process group (a shell, the server and a worker) and the fake
 * nvidia-smi showing the server holding GPU memory.
 */
const post = new URL('../../dist/post.js', import.meta.url).pathname
const fakeDir = new URL('../fixtures/gpu/', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const box = sandbox('wfm-job-end-e2e-')

/** Running: a zombie waiting for its new parent (init, once the main step has exited) to reap it is gone. */
const alive = (pid: number): boolean => {
  const state = procStat(pid)?.state
  return state !== undefined && state !== 'Z'
}

/** The main step: `start` launches a group (a sleeping worker, then the server in the foreground). */
async function mainStep(inputs: Record<string, string>, serverArgs = 'loads 300') {
  const port = await freePort()
  const run = await runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      start: `node -e 'setInterval(() => {}, 1000)' & node ${fakeServer} ${port} ${serverArgs}`,
      'log-file': box.path('server.log'),
      interval: '200ms',
      timeout: '30s',
      'history-file': '',
      ...inputs
    }
  })
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  return { run, state: run.state }
}

/** The post step, given the state as the runner gives it, with the fake nvidia-smi showing `pid` on a GPU. */
function postStep(state: Record<string, string>, gpuPid?: number, extra: Record<string, string> = {}) {
  const gpuState = box.path('gpu.json')
  writeFileSync(
    gpuState,
    JSON.stringify({
      gpus: [{ index: 0, uuid: GPU, name: 'NVIDIA H200', total: 143771 }],
      apps: gpuPid === undefined ? [] : [{ pid: gpuPid, name: 'python3', mib: 21090, gpu: GPU }]
    })
  )
  const env: Record<string, string> = { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: gpuState }
  for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value
  return runAction({ entry: post, inputs: {}, env: { ...env, ...extra } })
}

describe('the job-end stop (post step)', () => {
  it('stops the process group "start" launched, waits for its GPU memory and reports it in the summary', async () => {
    const { run, state } = await mainStep({})
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    const pid = Number(run.outputs.pid)
    expect(savedServers(state)).toMatchObject([{ kind: 'process', pid, timeoutMs: 30000 }])
    expect(alive(pid)).toBe(true)

    const p = await postStep(state, pid)
    expect(p.code).toBe(0)
    expect(p.stdout).toMatch(
      new RegExp(
        `^Stopped the server's process group ${pid} \\(3 processes\\): SIGTERM, gone after \\d+\\.\\ds\\.$`,
        'm'
      )
    )
    expect(p.stdout).toMatch(/^Its GPU memory \(21090 MiB\) was released \d+\.\ds after SIGTERM\.$/m)
    expect(p.stdout).not.toContain('::warning::')
    expect(alive(pid)).toBe(false)
    expect(p.summary).toContain('### wait-for-model: server stopped at the job end')
    expect(p.summary).toContain('| Result | ✅ stopped |')
    expect(p.summary).toContain('| GPU memory released | 21090 MiB |')
  })

  it('a server that ignores SIGTERM: SIGKILL after the stop timeout, its log tail shown; the job does not fail', async () => {
    // "hang" keeps loading, so the wait times out (without failing the step); the shell and a worker ignore SIGTERM
    const { state } = await mainStep(
      { timeout: '1s' },
      `hang 100 & trap '' TERM; node -e 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'`
    )
    const [saved] = savedServers(state)
    const pid = saved.pid as number
    expect(saved.timeoutMs).toBe(30000)
    // the job-end state is the post step's input: this one gives SIGTERM half a second
    const p = await postStep(stateOf({ ...saved, timeoutMs: 500 }))
    expect(p.code).toBe(0)
    expect(p.stdout).toMatch(/it did not exit after SIGTERM, so SIGKILL; gone \d+\.\ds after SIGTERM/)
    expect(p.stdout).toMatch(/^::group::Last \d+ lines of .*server\.log$/m)
    expect(p.stdout).toContain('No available shared memory broadcast block found')
    expect(alive(pid)).toBe(false)
    expect(p.summary).toContain('| Last signal sent | SIGKILL |')
  })

  it('a job summary that cannot be written is said as such, not as a failed stop', async () => {
    const { run, state } = await mainStep({})
    const pid = Number(run.outputs.pid)
    const p = await postStep(state, undefined, { GITHUB_STEP_SUMMARY: box.path('no-such-dir', 'summary') })
    expect(p.code).toBe(0)
    expect(p.stdout).toMatch(new RegExp(`^Stopped the server's process group ${pid} `, 'm'))
    expect(p.stdout).toContain('::warning::The server was stopped, but the job summary could not be written')
    expect(p.stdout).not.toContain('Could not stop')
    expect(alive(pid)).toBe(false)
  })

  it('stop: never leaves the server running, and the post step has nothing to do', async () => {
    const { run, state } = await mainStep({ stop: 'never' })
    expect(state).toEqual({})
    const p = await postStep(state)
    expect(p.code).toBe(0)
    expect(p.stdout).toContain('::debug::No server to stop at the job end')
    expect(alive(Number(run.outputs.pid))).toBe(true)
  })
})
