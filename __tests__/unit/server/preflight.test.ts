import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { gpuSnapshot } from '../../../src/gpu/nvidia-smi.js'
import { gpuBusyText, gpuUnavailableText, portBusyText } from '../../../src/report/lifecycle-report.js'
import { preflight } from '../../../src/server/preflight.js'
import { sandbox } from '../../helpers/sandbox.js'

/** The pre-flight against a real listening socket and the fake nvidia-smi. */
const fakeDir = new URL('../../fixtures/gpu/', import.meta.url).pathname
const GPU0 = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const GPU1 = 'GPU-9a1c7e52-0d3b-4f6e-8c21-7b5e3f0a4d19'
const box = sandbox('wfm-preflight-')

async function listen(): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => s.end())
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { server, port: (server.address() as { port: number }).port }
}

/** A free port: one the kernel gave and took back. */
async function freePort(): Promise<number> {
  const { server, port } = await listen()
  await new Promise((r) => server.close(r))
  return port
}

/** A fake nvidia-smi answering for these apps on two GPUs. */
function gpus(apps: Array<{ pid: number; name: string; mib: number | null; gpu: string }>): NodeJS.ProcessEnv {
  const state = box.path('gpu.json')
  writeFileSync(
    state,
    JSON.stringify({
      gpus: [
        { index: 0, uuid: GPU0, name: 'NVIDIA H200', total: 143771 },
        { index: 1, uuid: GPU1, name: 'NVIDIA H200', total: 143771 }
      ],
      apps: apps.map((a) => ({ ...a, always: true }))
    })
  )
  return { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: state }
}

describe('preflight: the port', () => {
  it('finds what already listens on a local URL port, with its pid and command line', async () => {
    const { server, port } = await listen()
    try {
      const r = await preflight([new URL(`http://127.0.0.1:${port}/v1/models`)], 'off', { env: {} })
      expect(r.portBusy?.kind).toBe('listening')
      const holders = r.portBusy?.listeners.flatMap((l) => l.holders) ?? []
      expect(holders.map((h) => h.pid)).toContain(process.pid)
      const text = portBusyText(r.portBusy as NonNullable<typeof r.portBusy>)
      expect(text).toContain(`Port ${port} is already in use by process ${process.pid}`)
      expect(text).toContain(`wait-for-model stop --pid ${process.pid}`)
    } finally {
      await new Promise((r) => server.close(r))
    }
  })

  it('says nothing of a free port, nor of a host elsewhere (probed as before)', async () => {
    const port = await freePort()
    expect((await preflight([new URL(`http://localhost:${port}/`)], 'off', { env: {} })).portBusy).toBeUndefined()
    const { server, port: busy } = await listen()
    try {
      // the same port number on another machine is that machine's business
      const r = await preflight([new URL(`http://192.0.2.10:${busy}/`)], 'off', { env: {} })
      expect(r.portBusy).toBeUndefined()
    } finally {
      await new Promise((r) => server.close(r))
    }
  })

  it('checks every endpoint of a fleet', async () => {
    const port = await freePort()
    const { server, port: busy } = await listen()
    try {
      const urls = [new URL(`http://127.0.0.1:${port}/`), new URL(`http://127.0.0.1:${busy}/`)]
      expect((await preflight(urls, 'off', { env: {} })).portBusy?.port).toBe(busy)
    } finally {
      await new Promise((r) => server.close(r))
    }
  })
})

describe('preflight: the GPUs', () => {
  const url = [new URL('http://192.0.2.10:8000/')]

  it('names the processes holding memory on the GPUs the server will use', async () => {
    const env = gpus([
      { pid: 4242, name: 'python3', mib: 21090, gpu: GPU0 },
      { pid: 4343, name: 'vllm', mib: 70000, gpu: GPU1 }
    ])
    const r = await preflight(url, 'warn', { env })
    expect(r.gpu).toMatchObject({ kind: 'busy', apps: [{ pid: 4242 }, { pid: 4343 }] })
    if (r.gpu.kind !== 'busy') throw new Error('not busy')
    expect(gpuBusyText(r.gpu.apps, r.gpu.gpus)).toBe(
      'Other processes hold memory on the GPUs the server will use: pid 4242 (python3) 21090 MiB on GPU 0; ' +
        'pid 4343 (vllm) 70000 MiB on GPU 1'
    )
  })

  it('only on the GPUs CUDA_VISIBLE_DEVICES names, by index or UUID', async () => {
    const env = gpus([{ pid: 4242, name: 'python3', mib: 21090, gpu: GPU0 }])
    expect((await preflight(url, 'fail', { env: { ...env, CUDA_VISIBLE_DEVICES: '1' } })).gpu.kind).toBe('clear')
    expect((await preflight(url, 'fail', { env: { ...env, CUDA_VISIBLE_DEVICES: 'GPU-24f17f1b' } })).gpu).toMatchObject(
      {
        kind: 'busy',
        apps: [{ pid: 4242 }]
      }
    )
  })

  it('counts a process whose memory nvidia-smi cannot show, not one at 0 MiB', async () => {
    const env = gpus([
      { pid: 4242, name: 'python3', mib: 0, gpu: GPU0 },
      { pid: 4343, name: 'python3', mib: null, gpu: GPU0 }
    ])
    expect((await preflight(url, 'warn', { env })).gpu).toMatchObject({ kind: 'busy', apps: [{ pid: 4343 }] })
  })

  it('without nvidia-smi: unavailable, said in a debug line only; off: not run at all', async () => {
    const r = await preflight(url, 'fail', { env: { PATH: box.dir() } })
    expect(r.gpu).toEqual({ kind: 'unavailable', why: 'not-found', detail: undefined })
    expect(gpuUnavailableText('not-found')).toBe('GPU check skipped: no reading from nvidia-smi (not-found).')
    let asked = false
    const off = await preflight(url, 'off', { env: {}, gpu: () => ((asked = true), gpuSnapshot({ env: {} })) })
    expect(off.gpu).toEqual({ kind: 'off' })
    expect(asked).toBe(false)
  })

  it('a foreign process that runs (not only listed): its pid is what the fake shows while it lives', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    box.pids.push(child.pid as number)
    const state = box.path('live.json')
    writeFileSync(
      state,
      JSON.stringify({
        gpus: [{ index: 0, uuid: GPU0, name: 'NVIDIA H200', total: 143771 }],
        apps: [{ pid: child.pid, name: 'python3', mib: 20480, gpu: GPU0 }]
      })
    )
    const env = { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: state }
    expect((await preflight(url, 'warn', { env })).gpu).toMatchObject({ kind: 'busy', apps: [{ pid: child.pid }] })
    child.kill('SIGKILL')
    await new Promise((r) => child.once('exit', r))
    expect((await preflight(url, 'warn', { env })).gpu.kind).toBe('clear')
  })
})
