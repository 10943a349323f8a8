import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { gpuSnapshot } from '../../../src/gpu/nvidia-smi.js'
import { jobEndSummary } from '../../../src/report/lifecycle-report.js'
import {
  JobEndStateError,
  jobEndState,
  readJobEndState,
  readServerEndState,
  serverEndState
} from '../../../src/server/job-end.js'
import { procPids, procStat } from '../../../src/server/proc.js'
import { stopAtJobEnd } from '../../../src/server/stop.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { sandbox } from '../../helpers/sandbox.js'

/** The job-end stop: the state the main step hands over, and the stop of a real process group. */
const listener = new URL('../../fixtures/listener.mjs', import.meta.url).pathname
const fakeDir = new URL('../../fixtures/gpu/', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const box = sandbox('wfm-job-end-')
const settings = { start: 'vllm serve m', stop: 'job-end' as const, stopTimeoutMs: 30_000, logLines: 20 }

/** A server; `detached: false` is one an earlier step ran with `nohup … &`, in the step shell's process group. */
function serve(args: string[] = [], detached = true): Promise<number> {
  const child = spawn(process.execPath, [listener, '127.0.0.1', ...args], {
    detached,
    stdio: ['ignore', 'pipe', 'inherit']
  })
  box.pids.push(child.pid as number)
  return new Promise((resolve) => child.stdout.on('data', () => resolve(child.pid as number)))
}

describe('job-end state', () => {
  const marker = '0123456789abcdef0123456789abcdef'
  const boot = '5e0ad9a4-3c55-4b7e-9a3f-0d6f1c2b3a4e'
  const launched = {
    pid: 4321,
    logFile: '/tmp/model-server-1.log',
    startTicks: 987654,
    bootId: boot,
    runMarker: marker
  }
  const entry = serverEndState(settings, launched)
  const saved = jobEndState([entry]) as Record<string, string>
  /** The state as the post step reads it back: each server's entry. */
  const readBack = (state: Record<string, string>) =>
    readJobEndState((n) => state[n] ?? '').map((e, i) => readServerEndState(e, i))

  it('is saved for a server "start" launched unless stop: never, and read back as saved', () => {
    expect(Object.keys(saved)).toEqual(['servers'])
    const read = {
      kind: 'process',
      pid: 4321,
      startTicks: 987654,
      bootId: boot,
      runMarker: marker,
      timeoutMs: 30_000,
      logFile: '/tmp/model-server-1.log',
      logLines: 20
    }
    expect(readBack(saved)).toEqual([read])
    expect(serverEndState({ ...settings, stop: 'never' }, { pid: 4321 })).toBeUndefined()
    // stop: always is job-end and more
    expect(serverEndState({ ...settings, stop: 'always' }, launched)).toEqual(entry)
    // a server given by "pid" is whoever started it's to stop, unless stop: always
    expect(serverEndState({ ...settings, start: undefined }, { pid: 4321 })).toBeUndefined()
    expect(serverEndState(settings, undefined)).toBeUndefined()
    expect(jobEndState([undefined, undefined])).toBeUndefined()
    expect(readBack({})).toEqual([])
    // where /proc could not be read at launch: left out, and read back as unknown
    const bare = jobEndState([serverEndState(settings, { pid: 4321 })]) as Record<string, string>
    expect(readBack(bare)[0]).toMatchObject({ pid: 4321, startTicks: undefined, runMarker: undefined })
    // a fleet: one entry per server, in order, null for one with nothing to stop
    const fleet = jobEndState([undefined, entry]) as Record<string, string>
    expect(readBack(fleet)).toEqual([undefined, read])
    // a container, stopped through its engine
    const container = { ...settings, container: 'vllm', stop: 'always' as const }
    const facts = { container: 'c0ffee', dockerSocket: '/var/run/docker.sock', logFile: '/tmp/c.log' }
    expect(readBack(jobEndState([serverEndState(container, facts)]) as Record<string, string>)).toEqual([
      {
        kind: 'container',
        container: 'c0ffee',
        socket: '/var/run/docker.sock',
        timeoutMs: 30_000,
        logFile: '/tmp/c.log',
        logLines: 20
      }
    ])
  })

  it('is saved for a server given by "pid" with stop: always: its start time and boot, no run marker', () => {
    const watched = { pid: 4321, logFile: '/tmp/server.log', startTicks: 987654, bootId: boot }
    const always = { ...settings, start: undefined, stop: 'always' as const }
    expect(serverEndState({ ...always, stop: 'job-end' }, watched)).toBeUndefined()
    expect(serverEndState({ ...always, stop: 'never' }, watched)).toBeUndefined()
    expect(readBack(jobEndState([serverEndState(always, watched)]) as Record<string, string>)).toEqual([
      { kind: 'process', ...watched, runMarker: undefined, timeoutMs: 30_000, logLines: 20 }
    ])
  })

  it.each([
    ['pid', 1, 'a process id from 2 to 4194304'],
    ['pid', 0, 'a process id'],
    ['pid', -1, 'a process id'],
    ['pid', 4194305, 'a process id'],
    ['pid', '12 34', 'a process id'],
    ['pid', 1.5, 'a process id'],
    ['pid', '0x1f', 'a process id'],
    ['pid', '$(id)', 'a process id'],
    ['startTicks', -5, 'a start time'],
    ['startTicks', 2 ** 60, 'a start time'],
    ['bootId', '../../etc/passwd', 'a boot id'],
    ['runMarker', 'x'.repeat(32), 'a run marker'],
    ['runMarker', '0123', 'a run marker'],
    ['timeoutMs', 0, 'milliseconds'],
    ['timeoutMs', 'Infinity', 'milliseconds'],
    ['timeoutMs', undefined, 'milliseconds'],
    ['logLines', 1001, 'a whole number'],
    ['logFile', '/tmp/x\n::error::forged', 'a path without control characters'],
    ['kind', 'shell', '"process", "container" or "remote"']
  ])('refuses STATE_servers[0].%s = %j, naming it and the form the main step writes', (name, value, form) => {
    const hostile = { servers: JSON.stringify([{ ...entry, [name]: value }]) }
    let thrown: unknown
    try {
      readBack(hostile)
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeInstanceOf(JobEndStateError)
    expect(thrown).toMatchObject({ stateName: `servers[0].${name}` })
    expect((thrown as JobEndStateError).form).toContain(form)
  })

  it('a server on another host: saved with its ssh destination, read back; a destination ssh would take for an option is refused', () => {
    const remote = { pid: 4321, host: 'root@10.1.230.174', startTicks: 99, runMarker: 'ab'.repeat(16) }
    const saved = jobEndState([
      serverEndState(
        { start: 'vllm serve', host: remote.host, stop: 'job-end', stopTimeoutMs: 30_000, logLines: 20 },
        remote
      )
    ]) as Record<string, string>
    expect(readBack(saved)).toEqual([
      { kind: 'remote', ...remote, bootId: undefined, logFile: undefined, timeoutMs: 30_000, logLines: 20 }
    ])
    const hostile = {
      servers: JSON.stringify([{ kind: 'remote', ...remote, timeoutMs: 1000, logLines: 1, host: '-oProxyCommand=sh' }])
    }
    expect(() => readBack(hostile)).toThrow(JobEndStateError)
    const nodes = [{ host: 'root@10.1.230.175', pid: 77, startTicks: 5 }]
    const several = jobEndState([
      serverEndState(
        { start: 'a', host: remote.host, stop: 'job-end', stopTimeoutMs: 30_000, logLines: 20 },
        { ...remote, nodes }
      )
    ]) as Record<string, string>
    expect(readBack(several)).toMatchObject([{ kind: 'remote', host: remote.host, nodes }])
    const badNode = {
      servers: JSON.stringify([
        { kind: 'remote', ...remote, timeoutMs: 1000, logLines: 1, nodes: [{ host: '-oX=y', pid: 7 }] }
      ])
    }
    expect(() => readBack(badNode)).toThrow(JobEndStateError)
  })

  it.each(['{"pid":4321}', 'not json', '[]', JSON.stringify(Array(1001).fill(null))])(
    'refuses STATE_servers = %j whole: not a list of servers',
    (value) => {
      expect(() => readJobEndState(() => value)).toThrow(JobEndStateError)
    }
  )
})

describe('stopAtJobEnd', () => {
  it('stops the process group and its GPU memory comes back: clean, no log tail', async () => {
    const pid = await serve(['--child'])
    const state = box.path('gpu.json')
    writeFileSync(
      state,
      JSON.stringify({
        gpus: [{ index: 0, uuid: GPU, name: 'NVIDIA H200', total: 143771 }],
        apps: [{ pid, name: 'python3', mib: 21090, gpu: GPU }]
      })
    )
    const env = { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: state }
    const log = box.path('server.log')
    writeFileSync(log, 'INFO: serving\n')
    const end = await stopAtJobEnd(
      { pid, startTicks: procStat(pid)?.startTicks, timeoutMs: 20_000, logFile: log, logLines: 5 },
      { clock: systemClock, gpu: () => gpuSnapshot({ env }) }
    )
    expect(end).toMatchObject({ clean: true, logTail: undefined })
    expect(end.record).toMatchObject({ outcome: 'exited', signal: 'SIGTERM', gpu: { kind: 'released', mib: 21090 } })
    const md = jobEndSummary(end)
    expect(md).toContain('| Result | ✅ stopped |')
    expect(md).toContain('| GPU memory released | 21090 MiB |')
    expect(md).not.toContain('#### ')
  })

  it('a server that ignores SIGTERM: SIGKILL after the timeout, not clean, its log tail shown', async () => {
    const pid = await serve(['--ignore-term'])
    const log = box.path('server.log')
    writeFileSync(log, 'line one\nNCCL teardown hung\n')
    const end = await stopAtJobEnd(
      { pid, startTicks: procStat(pid)?.startTicks, timeoutMs: 300, logFile: log, logLines: 5 },
      { clock: systemClock, gpu: () => gpuSnapshot({ env: { PATH: box.dir() } }) }
    )
    expect(end.clean).toBe(false)
    expect(end.record).toMatchObject({ outcome: 'exited', signal: 'SIGKILL', gpu: { kind: 'unavailable' } })
    expect(end.logTail?.map((l) => l.text)).toEqual(['line one', 'NCCL teardown hung'])
    const md = jobEndSummary(end)
    expect(md).toContain('| Last signal sent | SIGKILL |')
    expect(md).toContain('⚠️ stopped, not cleanly')
    expect(md).toContain('2: NCCL teardown hung')
  })

  it("a server an earlier step started (in its shell's group): it and its child are stopped, nothing else", async () => {
    const pid = await serve(['--child'], false)
    const child = procPids().find((p) => procStat(p)?.ppid === pid) as number
    expect(child).toEqual(expect.any(Number))
    box.pids.push(child)
    const end = await stopAtJobEnd(
      { pid, startTicks: procStat(pid)?.startTicks, timeoutMs: 20_000, logLines: 0 },
      { clock: systemClock }
    )
    // not the group it merely belongs to (this test's own): the process and its descendants, one by one
    expect(end.record).toMatchObject({ scope: 'tree', outcome: 'exited', signal: 'SIGTERM' })
    expect(end.record.pids.sort()).toEqual([pid, child].sort())
    // gone, or a zombie its new parent has yet to reap
    expect(procStat(child)?.state ?? 'Z').toBe('Z')
  })

  it('a child that outlives its parent after SIGTERM is waited for, not taken as gone with it', async () => {
    const pid = await serve(['--child', '--child-term-delay', '1500'], false)
    const child = procPids().find((p) => procStat(p)?.ppid === pid) as number
    expect(child).toEqual(expect.any(Number))
    box.pids.push(child)
    const end = await stopAtJobEnd(
      { pid, startTicks: procStat(pid)?.startTicks, timeoutMs: 20_000, logLines: 0 },
      { clock: systemClock }
    )
    expect(end.record).toMatchObject({ scope: 'tree', outcome: 'exited', signal: 'SIGTERM' })
    expect(procStat(child)?.state ?? 'Z').toBe('Z')
    expect(end.record.outcome === 'exited' && end.record.secondsToExit).toBeGreaterThanOrEqual(1.4)
  })

  it('a pid now naming another process than the one watched is left alone, and said', async () => {
    const pid = await serve([], false)
    const startTicks = procStat(pid)?.startTicks as number
    // the watched process had the same pid and started earlier: it has exited and its pid was reused
    const end = await stopAtJobEnd(
      { pid, startTicks: startTicks - 1, timeoutMs: 20_000, logLines: 0 },
      {
        clock: systemClock
      }
    )
    expect(end.record).toMatchObject({
      outcome: 'not-running',
      pids: [],
      notOurs: { kind: 'reused', startTicks, expectedTicks: startTicks - 1 }
    })
    expect(end.record.signal).toBeUndefined()
    expect(procStat(pid)?.state).not.toBe('Z')
    expect(() => process.kill(pid, 0)).not.toThrow()
  })
})
