import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import {
  appsOnVisibleGpus,
  gpuSnapshot,
  memoryHeldBy,
  parseApps,
  parseGpus,
  visibleGpus
} from '../../../src/gpu/nvidia-smi.js'
import { sandbox } from '../../helpers/sandbox.js'

/** A fake nvidia-smi on PATH answering the real CSV format; real processes hold its "memory" while they run. */
const fakeDir = new URL('../../fixtures/gpu/', import.meta.url).pathname
const H200 = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const SECOND = 'GPU-9b3e1c2a-0000-4a4a-8888-123456789abc'
const box = sandbox('wfm-gpu-')
let state: string
beforeEach(() => {
  state = box.path('gpu.json')
})

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PATH: `${fakeDir}:${process.env.PATH}`,
  FAKE_NVIDIA_SMI: state,
  ...extra
})
const gpus = [
  { index: 0, uuid: H200, name: 'NVIDIA H200', total: 143771 },
  { index: 1, uuid: SECOND, name: 'NVIDIA H200', total: 143771 }
]
const writeState = (s: unknown): void => writeFileSync(state, JSON.stringify(s))

describe('gpuSnapshot', () => {
  it('reads the GPUs and the compute processes from the two CSV queries', async () => {
    writeState({
      gpus,
      apps: [
        { pid: 430, name: 'python3', mib: 21090, gpu: H200, always: true },
        { pid: 431, name: 'sglang::scheduler', mib: null, gpu: SECOND, always: true }
      ]
    })
    expect(await gpuSnapshot({ env: env() })).toEqual({
      kind: 'available',
      gpus: [
        { index: 0, uuid: H200, name: 'NVIDIA H200', memoryUsedMiB: 21090, memoryTotalMiB: 143771 },
        { index: 1, uuid: SECOND, name: 'NVIDIA H200', memoryUsedMiB: 0, memoryTotalMiB: 143771 }
      ],
      apps: [
        { pid: 430, processName: 'python3', usedMiB: 21090, gpuUuid: H200 },
        { pid: 431, processName: 'sglang::scheduler', usedMiB: undefined, gpuUuid: SECOND }
      ]
    })
    expect(readFileSync(`${state}.calls`, 'utf8').split('\n')).toEqual([
      '--query-gpu=index,uuid,name,memory.used,memory.total --format=csv,noheader,nounits',
      '--query-compute-apps=pid,process_name,used_memory,gpu_uuid --format=csv,noheader,nounits',
      ''
    ])
  })

  it('no compute process: an empty list', async () => {
    writeState({ gpus, apps: [] })
    expect(await gpuSnapshot({ env: env() })).toMatchObject({ kind: 'available', apps: [] })
  })

  it('is unavailable, never an error, without nvidia-smi, when it fails, hangs or prints something else', async () => {
    expect(await gpuSnapshot({ env: { PATH: box.dir() } })).toEqual({ kind: 'unavailable', why: 'not-found' })
    writeState({ fail: "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." })
    expect(await gpuSnapshot({ env: env() })).toEqual({
      kind: 'unavailable',
      why: 'failed',
      detail: "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
    })
    writeState({ gpus, hangMs: 30_000 })
    expect(await gpuSnapshot({ env: env(), timeoutMs: 300 })).toEqual({ kind: 'unavailable', why: 'timeout' })
    const odd = box.path('odd')
    writeFileSync(odd, '#!/bin/sh\necho "No devices were found"\n', { mode: 0o755 })
    expect(await gpuSnapshot({ command: odd, env: env() })).toEqual({
      kind: 'unavailable',
      why: 'unreadable',
      detail: 'No devices were found'
    })
  })

  it('is bounded: one limit for both queries, a cancel at once, output over 1 MiB unreadable (issue 26 item 5)', async () => {
    // each query answers after 400 ms: the second has only what is left of the one limit
    writeState({ gpus, apps: [], hangMs: 400 })
    expect(await gpuSnapshot({ env: env(), timeoutMs: 600 })).toEqual({ kind: 'unavailable', why: 'timeout' })
    writeState({ gpus, hangMs: 30_000 })
    const cancel = new AbortController()
    setTimeout(() => cancel.abort(), 100)
    expect(await gpuSnapshot({ env: env(), timeoutMs: 30_000, signal: cancel.signal })).toEqual({
      kind: 'unavailable',
      why: 'cancelled'
    })
    expect(await gpuSnapshot({ env: env(), signal: cancel.signal })).toEqual({ kind: 'unavailable', why: 'cancelled' })
    writeState({ gpus, floodMb: 50 })
    expect(await gpuSnapshot({ env: env(), timeoutMs: 30_000 })).toEqual({
      kind: 'unavailable',
      why: 'unreadable',
      detail: 'output over 1 MiB'
    })
  })

  it('sees memory held only while the process runs (and lingering as the fake is told)', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    const pid = child.pid as number
    writeState({ gpus, apps: [{ pid, name: 'python3', mib: 20480, gpu: H200 }] })
    try {
      const running = await gpuSnapshot({ env: env() })
      if (running.kind !== 'available') throw new Error(running.kind)
      expect(memoryHeldBy(running, new Set([pid]))).toEqual({
        mib: 20480,
        apps: [{ pid, processName: 'python3', usedMiB: 20480, gpuUuid: H200 }]
      })
      expect(memoryHeldBy(running, new Set([pid + 1]))).toEqual({ mib: 0, apps: [] })
    } finally {
      child.kill('SIGKILL')
      await new Promise((r) => child.once('exit', r))
    }
    const gone = await gpuSnapshot({ env: env() })
    expect(gone).toMatchObject({ kind: 'available', apps: [], gpus: [{ memoryUsedMiB: 0 }, { memoryUsedMiB: 0 }] })
  })
})

describe('the CSV formats', () => {
  it('reads the lines nvidia-smi prints, names with commas and [N/A] included', () => {
    expect(parseGpus(`0, ${H200}, NVIDIA H200, 21099, 143771\n`)).toEqual([
      { index: 0, uuid: H200, name: 'NVIDIA H200', memoryUsedMiB: 21099, memoryTotalMiB: 143771 }
    ])
    expect(parseApps(`430, python3, 21090, ${H200}\n431, a, b, [N/A], ${H200}\n`)).toEqual([
      { pid: 430, processName: 'python3', usedMiB: 21090, gpuUuid: H200 },
      { pid: 431, processName: 'a,b', usedMiB: undefined, gpuUuid: H200 }
    ])
    expect(parseApps('')).toEqual([])
    expect(parseApps('pid, process_name, used_gpu_memory [MiB], gpu_uuid\n')).toBeUndefined()
    expect(parseGpus('No devices were found')).toBeUndefined()
  })
})

describe('CUDA_VISIBLE_DEVICES', () => {
  const list = [
    { index: 0, uuid: H200, name: 'H200' },
    { index: 1, uuid: SECOND, name: 'H200' }
  ]
  it('names GPUs by index or by UUID (or its prefix), in its order; unset is all of them', () => {
    expect(visibleGpus(list, undefined).map((g) => g.index)).toEqual([0, 1])
    expect(visibleGpus(list, '1').map((g) => g.index)).toEqual([1])
    expect(visibleGpus(list, `${SECOND},0`).map((g) => g.index)).toEqual([1, 0])
    expect(visibleGpus(list, 'GPU-24f17f1b').map((g) => g.index)).toEqual([0])
  })

  it('like CUDA, stops at the first entry that names no GPU; empty hides them all', () => {
    expect(visibleGpus(list, '0,-1,1')).toEqual([list[0]])
    expect(visibleGpus(list, 'MIG-1234')).toEqual([])
    expect(visibleGpus(list, '')).toEqual([])
  })

  it('the compute processes on the visible GPUs only', () => {
    const snapshot = {
      kind: 'available' as const,
      gpus: list,
      apps: [
        { pid: 1, processName: 'a', usedMiB: 1, gpuUuid: H200 },
        { pid: 2, processName: 'b', usedMiB: 2, gpuUuid: SECOND }
      ]
    }
    expect(appsOnVisibleGpus(snapshot, '1').map((a) => a.pid)).toEqual([2])
    expect(appsOnVisibleGpus(snapshot, undefined).map((a) => a.pid)).toEqual([1, 2])
  })
})
