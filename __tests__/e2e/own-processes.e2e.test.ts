import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { runAction } from '../../src/simulator/runner.js'
import { procStat } from '../../src/server/proc.js'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors, fakeServer, savedServers, stateOf } from '../helpers/support.js'

/**
 * Only our own processes, as an attacker or an unlucky runner would try it: dist/index.js launches the server
 * with `start` and saves its state, dist/post.js reads the state back as STATE_* variables and stops it, against
 * real processes; the GPU is the fake nvidia-smi on PATH (the real CSV format). Also: the environment the server
 * gets (the step's, without the runner's internals) and the one `env-report` reports (the listener's).
 */
const post = new URL('../../dist/post.js', import.meta.url).pathname
const fakeDir = new URL('../fixtures/gpu/', import.meta.url).pathname
const escapedWorker = new URL('../fixtures/escaped-worker.mjs', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const box = sandbox('wfm-own-processes-e2e-')

/** Running: a zombie waiting for its new parent to reap it is gone. */
const alive = (pid: number): boolean => {
  const state = procStat(pid)?.state
  return state !== undefined && state !== 'Z'
}
const bootId = (): string => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()

async function mainStep(start: (port: number) => string, inputs: Record<string, string> = {}, env = {}) {
  const port = await freePort()
  const run = await runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      start: start(port),
      'log-file': box.path('server.log'),
      interval: '200ms',
      timeout: '30s',
      'history-file': '',
      ...inputs
    },
    env
  })
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  return { ...run, port }
}

/** The post step with `state` as the runner passes it, and the fake nvidia-smi showing `apps` on a GPU. */
function postStep(state: Record<string, string>, apps: Array<{ pid: number; mib: number }> = [], node?: string) {
  const gpuState = box.path('gpu.json')
  writeFileSync(
    gpuState,
    JSON.stringify({
      gpus: [{ index: 0, uuid: GPU, name: 'NVIDIA H200', total: 143771 }],
      apps: apps.map((a) => ({ ...a, name: 'python3', gpu: GPU }))
    })
  )
  const env: Record<string, string> = { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: gpuState }
  for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value
  return runAction({ entry: post, inputs: {}, env, node })
}

/** A process of someone else's: a sleeping node in a process group of its own (another job's server, say). */
function stranger(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' })
  box.pids.push(child.pid as number)
  return new Promise((resolve) => child.once('spawn', () => resolve(child)))
}

/** A state in the form the main step writes, naming `pid` with its own start time: only the guard stands between. */
const entryFor = (pid: number, startTicks = procStat(pid)?.startTicks): Record<string, unknown> => ({
  kind: 'process',
  pid,
  startTicks,
  bootId: bootId(),
  runMarker: '5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e',
  timeoutMs: 2000,
  logLines: 5
})
const stateFor = (pid: number, startTicks?: number): Record<string, string> => stateOf(entryFor(pid, startTicks))
/** The state of `entryFor(pid)` as a bash word, with the shell's own pid (`$$`) for `pid`. */
const stateWithShellPid = (pid: number): string => {
  const [before, after] = JSON.stringify([{ ...entryFor(pid), pid: 0 }]).split('"pid":0')
  return `'STATE_servers=${before}"pid":'$$'${after}'`
}

describe('the job-end step signals only what this job started', () => {
  it('a server that died early, its pid now held by a stranger with another start time: left alone', async () => {
    // the server exits before it is ready; its state (pid, start time, boot, marker) is saved all the same
    const run = await mainStep((port) => `node ${fakeServer} ${port} exit 300 1`)
    // its fatal line or its exit, whichever the wait saw first
    expect(run.outputs.reason).toMatch(/^(server-exited|log-error)$/)
    const [saved] = savedServers(run.state)
    expect(saved.startTicks).toEqual(expect.any(Number))
    expect(saved.bootId).toBe(bootId())
    expect(saved.runMarker).toMatch(/^[0-9a-f]{32}$/)
    // the kernel hands the dead server's pid to a stranger: a recycled pid, with its own start time
    const other = await stranger()
    const pid = other.pid as number
    expect(procStat(pid)?.startTicks).not.toBe(saved.startTicks)
    const p = await postStep(stateOf({ ...saved, pid }), [{ pid, mib: 4096 }])
    expect(p.code).toBe(0)
    expect(p.stdout).toContain(
      `Process ${pid} is not the server this job started (it started at ${procStat(pid)?.startTicks} clock ticks ` +
        `after boot, the server at ${String(saved.startTicks)}: the server has exited and its pid was reused): ` +
        'left alone, with its process group.'
    )
    expect(p.stdout).not.toMatch(/Stopped|SIGTERM/)
    expect(alive(pid)).toBe(true)
    expect(p.summary).toContain('| Result | left alone: Process')
  })

  it("a state naming the post step's own pid, its parent, or the group it is in: refused, nothing signalled", async () => {
    // before: the post step sent SIGTERM to itself, or to its parent, and ended with no word (no exit code)
    // the post step's own pid is known only once it runs: a wrapper execs it with its own pid in the state
    const wrapper = box.path('node-with-own-pid')
    writeFileSync(wrapper, `#!/bin/bash\nexec env ${stateWithShellPid(process.pid)} "${process.execPath}" "$@"\n`)
    chmodSync(wrapper, 0o755)
    const self = await postStep({}, [], wrapper)
    expect(self.code).toBe(0)
    expect(self.stdout).toMatch(
      /^::warning::Refused to stop process \d+: it is this step's own process\. Nothing was signalled\.$/m
    )
    // its parent: a shell that runs it, as the runner's step does, and goes on after it (pid and start time right)
    const parent = box.path('parent.sh')
    writeFileSync(parent, `#!/bin/bash\n"${process.execPath}" "$@"\necho "the parent survived"\n`)
    chmodSync(parent, 0o755)
    const wrapped = box.path('parent-with-own-pid')
    writeFileSync(wrapped, `#!/bin/bash\nexec env ${stateWithShellPid(process.pid)} "${parent}" "$@"\n`)
    chmodSync(wrapped, 0o755)
    const byParent = await postStep({}, [], wrapped)
    expect(byParent.code).toBe(0)
    expect(byParent.stdout).toMatch(
      /^::warning::Refused to stop process \d+: it is an ancestor of this step's process \(the runner's step, or the runner\)\. Nothing was signalled\.$/m
    )
    expect(byParent.stdout).toMatch(/^the parent survived$/m)
    // the process group it runs in (this test's), named with its leader's own start time
    const group = procStat(process.pid)?.pgrp as number
    const p = await postStep(stateFor(group))
    expect(p.code).toBe(0)
    expect(p.stdout).toMatch(new RegExp(`::warning::Refused to stop process ${group}: it (is|leads)`))
    expect(p.stdout).not.toMatch(/Stopped|SIGTERM/)
    expect(alive(process.pid)).toBe(true)
  })

  it.each([
    ['pid', -1],
    ['pid', 1],
    ['pid', 0],
    ['pid', '123; kill -9 -1'],
    ['startTicks', '12x'],
    ['bootId', 'not-a-boot-id'],
    ['runMarker', '*'],
    ['timeoutMs', -5],
    ['logFile', '/tmp/a\n::error::forged']
  ])('a hostile STATE_servers[0].%s = %j is refused with a clear line, never acted on', async (name, value) => {
    const other = await stranger()
    const pid = other.pid as number
    const p = await postStep(stateOf({ ...entryFor(pid), [name]: value }))
    expect(p.code).toBe(0)
    const [line, ...more] = p.stdout.split('\n').filter((l) => l.startsWith('::warning::'))
    expect(more).toEqual([])
    expect(line).toMatch(
      new RegExp(
        `^::warning::Refused the job-end state, and signalled nothing: STATE_servers\\[0\\]\\.${name} is ".*", not .+ as the main step writes it\\.$`
      )
    )
    expect(errors(p.stdout)).toEqual([])
    expect(alive(pid)).toBe(true)
  })

  it('an escaped double-forked worker that holds GPU memory: stopped with the server, its memory counted', async () => {
    const workerFile = box.path('worker.pid')
    const run = await mainStep((port) => `node ${escapedWorker} ${workerFile} && node ${fakeServer} ${port} loads 300`)
    expect(run.outputs.ready).toBe('true')
    const pid = Number(run.outputs.pid)
    const worker = Number(readFileSync(workerFile, 'utf8'))
    box.pids.push(worker)
    // out of the server's group and tree: only the run marker says it is the server's
    expect(procStat(worker)?.pgrp).not.toBe(pid)
    expect(procStat(worker)?.ppid).not.toBe(pid)
    expect(readFileSync(`/proc/${worker}/environ`, 'latin1')).toContain(
      `WAIT_FOR_MODEL_RUN=${String(savedServers(run.state)[0].runMarker)}`
    )
    const p = await postStep(run.state, [{ pid: worker, mib: 5120 }])
    expect(p.code).toBe(0)
    expect(p.stdout).toContain(
      `Also the server's processes that had left its process group (they carry its run marker): pid ${worker}.`
    )
    expect(p.stdout).toMatch(new RegExp(`^Stopped the server's process group ${pid} \\(\\d processes\\): SIGTERM`, 'm'))
    expect(p.stdout).toMatch(/^Its GPU memory \(5120 MiB\) was released \d+\.\ds after SIGTERM\.$/m)
    expect(p.stdout).not.toContain('held no GPU memory')
    expect(alive(worker)).toBe(false)
    expect(alive(pid)).toBe(false)
  })
})

describe('the environment of the server', () => {
  it("is the step's, without the runner's internals or the action's inputs, tagged with the run marker", async () => {
    const dump = box.path('server-env.txt')
    const internals = {
      ACTIONS_RUNTIME_TOKEN: 'runtime-token-abc123',
      ACTIONS_RUNTIME_URL: 'https://pipelines.actions.example/abc/',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-token-xyz789',
      ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions.example/oidc?audience=x',
      ACTIONS_RESULTS_URL: 'https://results.actions.example/',
      ACTIONS_CACHE_URL: 'https://artifactcache.actions.example/abc/',
      ACTIONS_CACHE_SERVICE_V2: 'True'
    }
    const run = await mainStep(
      (port) => `env > ${dump}; exec node ${fakeServer} ${port} loads 200`,
      { 'api-key': 'sk-the-api-key-1234' },
      { ...internals, STEP_SETTING: 'kept', GITHUB_WORKSPACE: box.dir(), ACTIONS_STEP_DEBUG: 'true' }
    )
    expect(run.outputs.ready).toBe('true')
    const seen = readFileSync(dump, 'utf8')
    for (const [name, value] of Object.entries(internals)) {
      expect(seen).not.toContain(`${name}=`)
      expect(seen).not.toContain(value)
    }
    for (const name of ['GITHUB_STATE', 'GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'GITHUB_ENV', 'GITHUB_PATH'])
      expect(seen).not.toMatch(new RegExp(`^${name}=`, 'm'))
    expect(seen).not.toMatch(/^INPUT_/m)
    expect(seen).not.toContain('sk-the-api-key-1234')
    expect(seen).toMatch(/^STEP_SETTING=kept$/m)
    expect(seen).toMatch(/^ACTIONS_STEP_DEBUG=true$/m)
    expect(seen).toContain(`GITHUB_WORKSPACE=${box.dir()}`)
    expect(seen).toContain(`WAIT_FOR_MODEL_RUN=${String(savedServers(run.state)[0].runMarker)}`)
  })

  it('env-report reports the process that listens, naming it, beside the launched shell that had other values', async () => {
    const history = box.path('history.jsonl')
    const run = await mainStep(
      (port) => `env -u NCCL_IB_HCA node ${fakeServer} ${port} loads 300; echo exited`,
      { 'env-report': 'NCCL_*', 'history-file': history, 'history-key': 'env-u' },
      { NCCL_IB_HCA: 'mlx5_0,mlx5_1', NCCL_DEBUG: 'INFO' }
    )
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    const shell = Number(run.outputs.pid)
    const log = readFileSync(box.path('server.log'), 'utf8')
    const server = Number(/pid (\d+)\)/.exec(log)?.[1])
    expect(server).not.toBe(shell)
    const port = run.port
    expect(run.stdout).toContain(
      `Server environment (process ${server}, which listens on port ${port}; the launched process is ${shell}):\n` +
        '  NCCL_DEBUG=INFO\n' +
        `The launched process ${shell} has other values for one variable (NCCL_IB_HCA): the server did not get what ` +
        'the step set. The launched process has:\n' +
        '  NCCL_DEBUG=INFO\n' +
        '  NCCL_IB_HCA=mlx5_0,mlx5_1\n'
    )
    expect(run.summary).toContain(`| variable | the server (${server}) | the launched process (${shell}) |`)
    expect(run.summary).toMatch(/\| ⚠️ `NCCL_IB_HCA` \| \*not set\* \| `mlx5_0,mlx5_1` \|/)
    // the history keeps what the server had
    const [record] = readFileSync(history, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(record.env).toEqual({ NCCL_DEBUG: 'INFO' })
  })
})
