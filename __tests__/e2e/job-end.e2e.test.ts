import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
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

/**
 * An earlier step as a `run:` step does it: a shell (leading its own group, as the step's) starts the server with
 * `nohup … &`, writes its pid file, starts a bystander of its own, and exits; the server and the bystander live on.
 */
async function earlierStep(port: number): Promise<{ server: number; bystander: number }> {
  const script =
    `nohup "${process.execPath}" "${fakeServer}" ${port} loads 300 > server.log 2>&1 & echo $! > server.pid; ` +
    `nohup "${process.execPath}" -e 'setInterval(() => {}, 1000)' > /dev/null 2>&1 & echo $! > bystander.pid`
  const shell = spawn('sh', ['-c', script], { cwd: box.dir(), detached: true, stdio: 'ignore' })
  await new Promise((resolve) => shell.on('close', resolve))
  const [server, bystander] = ['server.pid', 'bystander.pid'].map((f) => Number(readFileSync(box.path(f), 'utf8')))
  box.pids.push(server, bystander)
  return { server, bystander }
}

/** The main step watching that server by its pid file and log, with no `start`. */
function watchStep(port: number, inputs: Record<string, string>) {
  return runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      pid: box.path('server.pid'),
      'log-file': box.path('server.log'),
      interval: '200ms',
      timeout: '30s',
      'history-file': '',
      ...inputs
    }
  })
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

  it("pid + stop: always: an earlier step's server is stopped with its children, and nothing else of its step", async () => {
    const port = await freePort()
    const { server, bystander } = await earlierStep(port)
    const run = await watchStep(port, { stop: 'always' })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    const [saved] = savedServers(run.state)
    // the process the wait watched, as it started: no run marker, since the action did not launch it
    expect(saved).toMatchObject({ kind: 'process', pid: server, startTicks: procStat(server)?.startTicks })
    expect(saved.bootId).toEqual(expect.any(String))
    expect(saved.runMarker).toBeUndefined()

    const p = await postStep(run.state, server)
    expect(p.code).toBe(0)
    // the server leads no group (it shares the earlier step's): it and its descendants, one by one
    expect(p.stdout).toMatch(
      new RegExp(`^Stopped the server ${server} and its child processes \\(1 in all\\): SIGTERM, gone after`, 'm')
    )
    expect(p.stdout).toMatch(/^Its GPU memory \(21090 MiB\) was released/m)
    expect(p.stdout).not.toContain('::warning::')
    expect(alive(server)).toBe(false)
    // the earlier step's other process, in the same process group, was not signalled
    expect(alive(bystander)).toBe(true)
    expect(p.summary).toContain('| Result | ✅ stopped |')
  })

  it("pid with the default stop (job-end): the earlier step's server is left running", async () => {
    const port = await freePort()
    const { server } = await earlierStep(port)
    const run = await watchStep(port, {})
    expect(run.outputs.ready).toBe('true')
    expect(run.state).toEqual({})
    const p = await postStep(run.state)
    expect(p.code).toBe(0)
    expect(p.stdout).toContain('::debug::No server to stop at the job end')
    expect(alive(server)).toBe(true)
  })

  it('pid + stop: always: a pid that names another process by the job end (reused) is not signalled', async () => {
    const port = await freePort()
    const { server } = await earlierStep(port)
    const run = await watchStep(port, { stop: 'always' })
    expect(run.outputs.ready).toBe('true')
    const [saved] = savedServers(run.state)
    // the watched server exits, and its pid goes to a process started after the state was written
    process.kill(server, 'SIGKILL')
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' })
    const pid = other.pid as number
    box.pids.push(pid)
    await new Promise((resolve) => other.once('spawn', resolve))
    expect(procStat(pid)?.startTicks).not.toBe(saved.startTicks)
    const p = await postStep(stateOf({ ...saved, pid }), pid)
    expect(p.code).toBe(0)
    expect(p.stdout).toContain(`Process ${pid} is not the server this job started (it started at `)
    expect(p.stdout).toContain('the server has exited and its pid was reused): left alone, with its process group.')
    expect(p.stdout).not.toMatch(/Stopped|SIGTERM/)
    expect(alive(pid)).toBe(true)
  })
})
