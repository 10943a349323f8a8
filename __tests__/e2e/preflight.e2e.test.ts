import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors, fakeServer } from '../helpers/support.js'

/**
 * Before `start`, through dist/index.js: a leftover server on the port, other processes on the GPUs (the fake
 * nvidia-smi), and once ready the GPU memory the server holds.
 */
const fakeDir = new URL('../fixtures/gpu/', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const GPUS = [{ index: 0, uuid: GPU, name: 'NVIDIA H200', total: 143771 }]
const box = sandbox('wfm-preflight-e2e-')

async function leftover(): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => s.end())
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { server, port: (server.address() as { port: number }).port }
}

function gpuEnv(apps: unknown[]): Record<string, string> {
  const state = box.path('gpu.json')
  writeFileSync(state, JSON.stringify({ gpus: GPUS, apps }))
  return { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: state }
}

async function act(port: number, inputs: Record<string, string>, env: Record<string, string> = {}) {
  const run = await runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      interval: '200ms',
      timeout: '30s',
      'history-file': '',
      stop: 'never',
      ...inputs
    },
    env
  })
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  return run
}

describe('pre-flight before start', () => {
  it('a server already on the port: port-busy at once, naming it; nothing is started', async () => {
    const { server, port } = await leftover()
    try {
      const marker = box.path('started')
      const run = await act(port, { start: `touch ${marker}; exec node ${fakeServer} ${port} loads 100` })
      expect(run.code).toBe(1)
      expect(run.outputs).toMatchObject({ ready: 'false', reason: 'port-busy', attempts: '0', pid: '' })
      const [error] = errors(run.stdout)
      expect(error).toContain(`Did not start the server: Port ${port} is already in use by process ${process.pid}`)
      expect(error).toContain(`wait-for-model stop --pid ${process.pid}`)
      expect(existsSync(marker)).toBe(false)
      expect(run.summary).toContain('port-busy')
      // no server launched: nothing for the job-end step
      expect(run.state).toEqual({})
    } finally {
      await new Promise((r) => server.close(r))
    }
  })

  it('another process on the GPUs: a warning naming it, and the server starts (gpu-check: warn)', async () => {
    const port = await freePort()
    const env = gpuEnv([{ pid: 4242, name: 'python3', mib: 21090, gpu: GPU, always: true }])
    const run = await act(port, { start: `exec node ${fakeServer} ${port} loads 300` }, env)
    expect(run.outputs.ready).toBe('true')
    expect(run.stdout).toContain(
      '::warning title=GPU memory held by other processes::Other processes hold memory on the GPUs the server will ' +
        'use: pid 4242 (python3) 21090 MiB on GPU 0'
    )
  })

  it('gpu-check: fail ends the wait before the start with gpu-busy; off does not look', async () => {
    const port = await freePort()
    const env = gpuEnv([{ pid: 4242, name: 'python3', mib: 21090, gpu: GPU, always: true }])
    const marker = box.path('started')
    const start = `touch ${marker}; exec node ${fakeServer} ${port} loads 300`
    const failed = await act(port, { start, 'gpu-check': 'fail' }, env)
    expect(failed.outputs).toMatchObject({ ready: 'false', reason: 'gpu-busy' })
    expect(errors(failed.stdout)[0]).toContain('Did not start the server: Other processes hold memory')
    expect(existsSync(marker)).toBe(false)
    const off = await act(port, { start, 'gpu-check': 'off' }, env)
    expect(off.outputs.ready).toBe('true')
    expect(off.stdout).not.toContain('Other processes hold memory')
  })

  it('once ready, gpu-memory-mib is what the server holds; empty without nvidia-smi', async () => {
    const port = await freePort()
    const state = box.path('gpu.json')
    writeFileSync(state, JSON.stringify({ gpus: GPUS, apps: [] }))
    // the server puts itself on the fake GPU (bash's exec keeps the pid)
    const apps = (pid: string): string =>
      JSON.stringify({ gpus: GPUS, apps: [{ pid, name: 'python3', mib: 20480, gpu: GPU }] })
    const start = `echo '${apps('PID')}' | sed "s/\\"PID\\"/$$/" > ${state}; exec node ${fakeServer} ${port} loads 300`
    const run = await act(port, { start }, { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: state })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs).toMatchObject({ ready: 'true', 'gpu-memory-mib': '20480' })
    expect(run.summary).toContain('| GPU memory held by the server | 20480 MiB |')
    const port2 = await freePort()
    const bare = await act(
      port2,
      { start: `exec node ${fakeServer} ${port2} loads 300` },
      { PATH: `${process.env.PATH}` }
    )
    expect(bare.outputs).toMatchObject({ ready: 'true', 'gpu-memory-mib': '' })
  })
})

describe('readiness from the watched server only', () => {
  /** A fake server started by the test, as one an earlier job left behind: its pid once it listens. */
  async function otherServer(port: number): Promise<number> {
    const child = spawn(process.execPath, [fakeServer, String(port), 'loads', '100'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore']
    })
    box.pids.push(child.pid as number)
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => /event at/.test(d.toString()) && resolve())
    )
    return child.pid as number
  }

  it('pid names one process and another answers on the port: wrong-server, naming the one that answered', async () => {
    const port = await freePort()
    const other = await otherServer(port)
    const watched = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' })
    box.pids.push(watched.pid as number)
    const run = await act(port, { pid: String(watched.pid) })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'wrong-server' })
    const [error] = errors(run.stdout)
    expect(error).toContain(`Port ${port} is answered by process ${other} (`)
    expect(error).toContain(`not by the server being watched (pid ${watched.pid})`)
  })

  it("the server as a child of the start shell (no exec) answers: its descendant's socket counts as its own", async () => {
    const port = await freePort()
    const run = await act(port, { start: `node ${fakeServer} ${port} loads 300; echo done` })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
  })
})

it('port-check: false (a proxy in front of the server holds the port): starts, and its answer counts', async () => {
  const port = await freePort()
  const proxy = spawn(process.execPath, [fakeServer, String(port), 'loads', '100'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore']
  })
  box.pids.push(proxy.pid as number)
  await new Promise<void>((resolve) =>
    proxy.stdout.on('data', (d: Buffer) => /event at/.test(d.toString()) && resolve())
  )
  const run = await act(port, { start: 'sleep 30', 'port-check': 'false' })
  expect(errors(run.stdout)).toEqual([])
  expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
})
