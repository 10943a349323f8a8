import { stopLines } from '../../../src/report/lifecycle-report.js'
import type { StopRecord } from '../../../src/server/stop.js'

const record = (over: Partial<StopRecord>): StopRecord => ({
  pid: 4242,
  scope: 'group',
  outcome: 'exited',
  pids: [4242, 4250, 4251],
  signal: 'SIGTERM',
  secondsToExit: 0.4,
  gpu: { kind: 'none' },
  ...over
})

describe('how a stop went, in words', () => {
  it('a clean exit on SIGTERM, with the exit code when known, and the GPU memory released', () => {
    expect(
      stopLines(record({ exitCode: 143, exitSignal: null, gpu: { kind: 'released', mib: 21090, seconds: 0.6 } }))
    ).toEqual([
      {
        level: 'info',
        text: "Stopped the server's process group 4242 (3 processes): SIGTERM, gone after 0.4s, exit code 143."
      },
      { level: 'info', text: 'Its GPU memory (21090 MiB) was released 0.6s after SIGTERM.' }
    ])
  })

  it('SIGKILL after the timeout; a process tree that is not a group', () => {
    expect(
      stopLines(
        record({ scope: 'tree', pids: [7, 8], signal: 'SIGKILL', secondsToExit: 30.2, exitSignal: 'SIGKILL' })
      )[0]
    ).toEqual({
      level: 'info',
      text: 'Stopped the server 4242 and its child processes (2 in all): it did not exit after SIGTERM, so SIGKILL; gone 30.2s after SIGTERM, ended by SIGKILL.'
    })
  })

  it('warns when processes outlive SIGKILL or the GPU memory stays held', () => {
    expect(
      stopLines(
        record({
          outcome: 'survived',
          signal: 'SIGKILL',
          secondsToExit: undefined,
          survivors: [4250],
          gpu: { kind: 'held', mib: 21090, heldMib: 20000, seconds: 60.1, pids: [4250] }
        })
      )
    ).toEqual([
      {
        level: 'warning',
        text: "Could not stop the server's process group 4242 (3 processes): still running after SIGTERM and SIGKILL: pid 4250."
      },
      {
        level: 'warning',
        text: 'Its GPU memory was not released: 20000 of 21090 MiB still held 60.1s after SIGTERM (pid 4250); the next job on this machine may run out of GPU memory.'
      }
    ])
  })

  it('nothing running; no GPU to look at is a debug line only', () => {
    expect(stopLines(record({ outcome: 'not-running', pids: [] }))).toEqual([
      { level: 'info', text: 'Process 4242 is not running: nothing to stop.' }
    ])
    expect(stopLines(record({ gpu: { kind: 'unavailable', why: 'not-found' } }))[1]).toEqual({
      level: 'debug',
      text: 'GPU memory not looked at (nvidia-smi: not-found).'
    })
  })
})
