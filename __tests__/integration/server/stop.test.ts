import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, unlinkSync, writeFileSync } from 'node:fs'
import { gpuSnapshot } from '../../../src/gpu/nvidia-smi.js'
import type { Clock } from '../../../src/runtime/clock.js'
import { procPids, procStat } from '../../../src/server/proc.js'
import { stopServer } from '../../../src/server/stop.js'
import { sandbox } from '../../helpers/sandbox.js'

/** Real process groups, stopped for real; time is a clock that moves by what the stopper waits, and the GPU a fake nvidia-smi. */
const listener = new URL('../../fixtures/listener.mjs', import.meta.url).pathname
const fakeDir = new URL('../../fixtures/gpu/', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const node = process.execPath
const box = sandbox('wfm-stop-')

/** A clock that jumps by what is slept, and lets real time pass (10 ms) so that signalled processes can go. */
function steppingClock(onSleep?: (t: number) => void): Clock {
  let t = 0
  return {
    now: () => t,
    wallMs: () => Date.UTC(2026, 0, 1) + t,
    sleep: async (ms) => {
      t += ms
      onSleep?.(t)
      await new Promise((r) => setTimeout(r, 10))
    }
  }
}

/** Starts the fixture (as `start` starts a server, detached: a group of its own) and waits until it listens. */
function serve(args: string[], detached = true): Promise<{ child: ChildProcess; pid: number }> {
  const child = spawn(node, [listener, '127.0.0.1', ...args], { detached, stdio: ['ignore', 'pipe', 'inherit'] })
  box.pids.push(child.pid as number)
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`exited with ${code}`)))
    child.stdout?.on('data', (d: Buffer) => {
      if (/listening/.test(d.toString())) resolve({ child, pid: child.pid as number })
    })
  })
}

const exitOf = (child: ChildProcess): Promise<unknown> => new Promise((r) => child.once('exit', r))
const groupOf = (pgid: number): number[] =>
  procPids().filter((p) => procStat(p)?.pgrp === pgid && procStat(p)?.state !== 'Z')

describe('stopServer', () => {
  it('SIGTERM to the whole group ends the server and its worker', async () => {
    const { pid } = await serve(['--child'])
    // the worker is up once the group has two processes
    while (groupOf(pid).length < 2) await new Promise((r) => setTimeout(r, 20))
    const worker = groupOf(pid).find((p) => p !== pid) as number
    const record = await stopServer({ pid, timeoutMs: 30_000 }, { clock: steppingClock() })
    expect(record).toMatchObject({
      pid,
      scope: 'group',
      outcome: 'exited',
      signal: 'SIGTERM',
      gpu: { kind: 'unavailable', why: 'not asked' }
    })
    expect(record.pids.sort()).toEqual([pid, worker].sort())
    expect(record.secondsToExit).toBeLessThan(30)
    expect(groupOf(pid)).toEqual([])
  })

  it('waits for a server that drains before it exits: gone on SIGTERM, no SIGKILL', async () => {
    const { pid } = await serve(['--term-delay', '50'])
    const record = await stopServer({ pid, timeoutMs: 30_000 }, { clock: steppingClock() })
    expect(record).toMatchObject({ outcome: 'exited', signal: 'SIGTERM' })
  })

  it('sends SIGKILL once the timeout passes to a server that ignores SIGTERM', async () => {
    const { pid } = await serve(['--ignore-term'])
    const record = await stopServer({ pid, timeoutMs: 2_000 }, { clock: steppingClock() })
    expect(record).toMatchObject({ outcome: 'exited', signal: 'SIGKILL' })
    // counted from SIGTERM, on the injected clock: past the timeout
    expect(record.secondsToExit).toBeGreaterThanOrEqual(2)
  })

  it('cancelled (the job-end step signalled): SIGKILL at once, not after the timeout, and says it was cancelled', async () => {
    const { pid } = await serve(['--ignore-term'])
    const cancel = new AbortController()
    // the cancel comes with the first wait after SIGTERM
    const clock = steppingClock(() => cancel.abort())
    const record = await stopServer({ pid, timeoutMs: 30_000 }, { clock, cancel: cancel.signal })
    expect(record).toMatchObject({ outcome: 'exited', signal: 'SIGKILL', cancelled: true })
    expect(record.secondsToExit).toBeLessThan(30)
  })

  it('says survived, naming them, when the processes outlive SIGKILL', async () => {
    const { pid } = await serve(['--ignore-term'])
    const sent: Array<[number, string]> = []
    // a kill that never reaches the process stands in for one stuck in the kernel (state D)
    const record = await stopServer(
      { pid, timeoutMs: 500, killWaitMs: 500 },
      { clock: steppingClock(), kill: (p, s) => void sent.push([p, s]) }
    )
    expect(record).toMatchObject({ outcome: 'survived', signal: 'SIGKILL', survivors: [pid] })
    expect(sent).toEqual([
      [-pid, 'SIGTERM'],
      [-pid, 'SIGKILL']
    ])
  })

  it('signals only the process and its descendants when it does not lead its group (never the group it is in)', async () => {
    const shell = spawn('/bin/sh', ['-c', `"${node}" "${listener}" 127.0.0.1; true`], {
      stdio: ['ignore', 'pipe', 'inherit']
    })
    box.pids.push(shell.pid as number)
    await new Promise<void>((r) => shell.stdout?.on('data', () => r()))
    const record = await stopServer({ pid: shell.pid as number, timeoutMs: 30_000 }, { clock: steppingClock() })
    expect(record).toMatchObject({ scope: 'tree', outcome: 'exited' })
    expect(record.pids).toHaveLength(2)
    // this test's own group (which the shell is in) is still here to tell
    expect(procStat(process.pid)?.state).not.toBe('Z')
  })

  it("never signals the group it runs in itself, nor an ancestor: its own group's leader is refused", async () => {
    const sent: Array<[number, string]> = []
    const ownGroup = procStat(process.pid)?.pgrp as number
    for (const pid of [ownGroup, process.pid, process.ppid, 1]) {
      const record = await stopServer(
        { pid, timeoutMs: 100, killWaitMs: 100 },
        { clock: steppingClock(), kill: (p, s) => void sent.push([p, s]) }
      )
      expect(record).toMatchObject({ outcome: 'refused', pids: [] })
    }
    expect(sent).toEqual([])
  })

  it('has nothing to do for a process that is not running', async () => {
    const gone = spawn('true')
    await exitOf(gone)
    expect(await stopServer({ pid: gone.pid as number, timeoutMs: 1_000 }, { clock: steppingClock() })).toEqual({
      pid: gone.pid,
      scope: 'tree',
      outcome: 'not-running',
      pids: [],
      gpu: { kind: 'none' }
    })
  })
})

describe('stopServer and the GPU memory', () => {
  const gpuOf = (state: string) => () =>
    gpuSnapshot({ env: { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: state } })
  const writeState = (state: string, pid: number): void =>
    writeFileSync(
      state,
      JSON.stringify({
        gpus: [{ index: 0, uuid: GPU, name: 'NVIDIA H200', total: 143771 }],
        apps: [
          { pid, name: 'python3', mib: 20480, gpu: GPU },
          { pid: 999_999_999, name: 'someone-else', mib: 1000, gpu: GPU, always: true }
        ]
      })
    )

  it('waits until the memory of its processes is released, and says how much and when', async () => {
    const { pid } = await serve([])
    const state = box.path('gpu.json')
    writeState(state, pid)
    // the driver frees the memory a moment after the process has gone: two polls later
    const linger = `${state}.linger-${pid}`
    writeFileSync(linger, '')
    let pollsAfterExit = 0
    const clock = steppingClock(() => {
      if (procStat(pid) === undefined && ++pollsAfterExit === 2) unlinkSync(linger)
    })
    const record = await stopServer({ pid, timeoutMs: 30_000 }, { clock, gpu: gpuOf(state) })
    expect(record).toMatchObject({ outcome: 'exited', gpu: { kind: 'released', mib: 20480 } })
    const gpu = record.gpu as { seconds: number }
    expect(gpu.seconds).toBeGreaterThan(record.secondsToExit as number)
    expect(existsSync(linger)).toBe(false)
  })

  it('waits for memory nvidia-smi cannot measure ([N/A]) as for any other', async () => {
    const { pid } = await serve([])
    const state = box.path('gpu.json')
    writeFileSync(
      state,
      JSON.stringify({
        gpus: [{ index: 0, uuid: GPU, name: 'NVIDIA H200', total: 143771 }],
        apps: [{ pid, name: 'python3', mib: null, gpu: GPU }]
      })
    )
    writeFileSync(`${state}.linger-${pid}`, '')
    const record = await stopServer(
      { pid, timeoutMs: 30_000, gpuWaitMs: 500 },
      { clock: steppingClock(), gpu: gpuOf(state) }
    )
    expect(record.gpu).toMatchObject({ kind: 'held', mib: 0, heldMib: 0, pids: [pid] })
  })

  it('says the memory is still held when it is not released in time', async () => {
    const { pid } = await serve([])
    const state = box.path('gpu.json')
    writeState(state, pid)
    writeFileSync(`${state}.linger-${pid}`, '')
    const record = await stopServer(
      { pid, timeoutMs: 30_000, gpuWaitMs: 1_000 },
      { clock: steppingClock(), gpu: gpuOf(state) }
    )
    expect(record.gpu).toEqual({ kind: 'held', mib: 20480, heldMib: 20480, seconds: expect.any(Number), pids: [pid] })
    expect((record.gpu as { seconds: number }).seconds).toBeGreaterThanOrEqual(1)
  })

  it('cancelled: reads the memory once after the processes are gone, and does not wait for it', async () => {
    const { pid } = await serve([])
    const state = box.path('gpu.json')
    writeState(state, pid)
    writeFileSync(`${state}.linger-${pid}`, '')
    const cancel = new AbortController()
    cancel.abort()
    const record = await stopServer(
      { pid, timeoutMs: 30_000, gpuWaitMs: 30_000 },
      { clock: steppingClock(), gpu: gpuOf(state), cancel: cancel.signal }
    )
    expect(record).toMatchObject({ cancelled: true, gpu: { kind: 'held', heldMib: 20480 } })
    expect((record.gpu as { seconds: number }).seconds).toBeLessThan(30)
  })

  it('cancelled, its nvidia-smi ended by the cancel: the memory is not told (no reading), never said held', async () => {
    const { pid } = await serve([])
    const state = box.path('gpu.json')
    writeState(state, pid)
    writeFileSync(`${state}.linger-${pid}`, '')
    const cancel = new AbortController()
    const env = { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: state }
    // the first reading answers; the cancel comes with the first wait (it exits on SIGTERM: while its memory lingers)
    // and ends every later reading
    const gpu = () => gpuSnapshot({ env, signal: cancel.signal })
    const record = await stopServer(
      { pid, timeoutMs: 30_000, gpuWaitMs: 30_000 },
      { clock: steppingClock(() => cancel.abort()), gpu, cancel: cancel.signal }
    )
    expect(record).toMatchObject({ outcome: 'exited', gpu: { kind: 'unavailable', why: 'cancelled' } })
  })

  it('says none when its processes held no GPU memory, and unavailable without nvidia-smi', async () => {
    const first = await serve([])
    const state = box.path('gpu.json')
    writeState(state, 1)
    expect(
      (await stopServer({ pid: first.pid, timeoutMs: 30_000 }, { clock: steppingClock(), gpu: gpuOf(state) })).gpu
    ).toEqual({
      kind: 'none'
    })
    const second = await serve([])
    const none = () => gpuSnapshot({ env: { PATH: box.dir() } })
    expect(
      (await stopServer({ pid: second.pid, timeoutMs: 30_000 }, { clock: steppingClock(), gpu: none })).gpu
    ).toEqual({
      kind: 'unavailable',
      why: 'not-found'
    })
  })
})
