import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { gpuSnapshot } from '../../../src/gpu/nvidia-smi.js'
import { jobEndSummary } from '../../../src/report/lifecycle-report.js'
import { JobEndStateError, jobEndState, readJobEndState } from '../../../src/server/job-end.js'
import { procStat } from '../../../src/server/proc.js'
import { stopAtJobEnd } from '../../../src/server/stop.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { sandbox } from '../../helpers/sandbox.js'

/** The job-end stop: the state the main step hands over, and the stop of a real process group. */
const listener = new URL('../../fixtures/listener.mjs', import.meta.url).pathname
const fakeDir = new URL('../../fixtures/gpu/', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const box = sandbox('wfm-job-end-')
const settings = { start: 'vllm serve m', stop: 'job-end' as const, stopTimeoutMs: 30_000, logLines: 20 }

function serve(args: string[] = []): Promise<number> {
  const child = spawn(process.execPath, [listener, '127.0.0.1', ...args], {
    detached: true,
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
  const saved = jobEndState(settings, launched) as Record<string, string>

  it('is saved only for a server "start" launched with stop: job-end, and read back as saved', () => {
    expect(saved).toEqual({
      'server-pid': '4321',
      'server-start-ticks': '987654',
      'boot-id': boot,
      'run-marker': marker,
      'stop-timeout-ms': '30000',
      'server-log-file': '/tmp/model-server-1.log',
      'log-lines': '20'
    })
    expect(readJobEndState((n) => saved[n] ?? '')).toEqual({
      pid: 4321,
      startTicks: 987654,
      bootId: boot,
      runMarker: marker,
      timeoutMs: 30_000,
      logFile: '/tmp/model-server-1.log',
      logLines: 20
    })
    expect(jobEndState({ ...settings, stop: 'never' }, { pid: 4321 })).toBeUndefined()
    // a server given by "pid" is whoever started it's to stop
    expect(jobEndState({ ...settings, start: undefined }, { pid: 4321 })).toBeUndefined()
    expect(jobEndState(settings, undefined)).toBeUndefined()
    expect(readJobEndState(() => '')).toBeUndefined()
    // where /proc could not be read at launch: empty, and read back as unknown
    const bare = jobEndState(settings, { pid: 4321 }) as Record<string, string>
    expect(readJobEndState((n) => bare[n] ?? '')).toMatchObject({
      pid: 4321,
      startTicks: undefined,
      runMarker: undefined
    })
  })

  it.each([
    ['server-pid', '1', 'a process id from 2 to 4194304'],
    ['server-pid', '0', 'a process id'],
    ['server-pid', '-1', 'a process id'],
    ['server-pid', '4194305', 'a process id'],
    ['server-pid', '12 34', 'a process id'],
    ['server-pid', '1e3', 'a process id'],
    ['server-pid', '0x1f', 'a process id'],
    ['server-pid', '$(id)', 'a process id'],
    ['server-start-ticks', '-5', 'a start time'],
    ['server-start-ticks', '99999999999999999', 'a start time'],
    ['boot-id', '../../etc/passwd', 'a boot id'],
    ['run-marker', 'x'.repeat(32), 'a run marker'],
    ['run-marker', '0123', 'a run marker'],
    ['stop-timeout-ms', '0', 'milliseconds'],
    ['stop-timeout-ms', 'Infinity', 'milliseconds'],
    ['stop-timeout-ms', '', 'milliseconds'],
    ['log-lines', '1001', 'a whole number'],
    ['server-log-file', '/tmp/x\n::error::forged', 'a path without control characters']
  ])('refuses STATE_%s = %j, naming it and the form the main step writes', (name, value, form) => {
    const hostile = { ...saved, [name]: value }
    let thrown: unknown
    try {
      readJobEndState((n) => hostile[n] ?? '')
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeInstanceOf(JobEndStateError)
    expect(thrown).toMatchObject({ stateName: name, value })
    expect((thrown as JobEndStateError).form).toContain(form)
  })
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
})
