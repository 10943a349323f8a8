import {
  gpuBusyText,
  leftoverServerText,
  portBusyText,
  serverOriginUnknownText,
  stopLines,
  wrongServerText
} from '../../../src/report/lifecycle-report.js'
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
    expect(stopLines(record({ exitCode: 143, gpu: { kind: 'released', mib: 21090, seconds: 0.6 } }))).toEqual([
      {
        level: 'info',
        text: "Stopped the server's process group 4242 (3 processes): SIGTERM, gone after 0.4s, exit code 143."
      },
      { level: 'info', text: 'Its GPU memory (21090 MiB) was released 0.6s after SIGTERM.' }
    ])
  })

  it('SIGKILL after the timeout; a process tree that is not a group', () => {
    expect(stopLines(record({ scope: 'tree', pids: [7, 8], signal: 'SIGKILL', secondsToExit: 30.2 }))[0]).toEqual({
      level: 'info',
      text: 'Stopped the server 4242 and its child processes (2 in all): it did not exit after SIGTERM, so SIGKILL; gone 30.2s after SIGTERM.'
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

  it('memory nvidia-smi cannot measure is named so, not as 0 MiB', () => {
    expect(stopLines(record({ gpu: { kind: 'released', mib: 0, seconds: 0.5 } }))[1].text).toBe(
      'Its GPU memory (an amount nvidia-smi does not show) was released 0.5s after SIGTERM.'
    )
    expect(stopLines(record({ gpu: { kind: 'held', mib: 0, heldMib: 0, seconds: 30, pids: [7] } }))[1].text).toMatch(
      /^Its GPU memory was not released: an amount nvidia-smi does not show still held 30\.0s after SIGTERM \(pid 7\)/
    )
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

describe('who holds the port and the GPUs, in words', () => {
  const vllm = {
    address: '0.0.0.0',
    port: 8000,
    inode: 1,
    holders: [{ pid: 1234, command: 'python3 -m vllm serve m' }]
  }
  const hidden = { address: '::', port: 8000, inode: 99, holders: [] }

  it('port-busy names the process and how to free the port', () => {
    expect(portBusyText({ kind: 'listening', port: 8000, listeners: [vllm] })).toBe(
      'Port 8000 is already in use by process 1234 (python3 -m vllm serve m): the server "start" would launch could not ' +
        'listen there, and the one already there would answer the gate. Stop it first (wait-for-model stop --pid 1234, ' +
        'or kill 1234), or give the new server another port'
    )
    expect(portBusyText({ kind: 'listening', port: 8000, listeners: [hidden] })).toMatch(
      /^Port 8000 is already in use by a process this user cannot see \(listening on ::, socket inode 99\): .* Stop it first, or give/
    )
  })

  it('wrong-server names who answers instead of the watched server', () => {
    expect(wrongServerText({ kind: 'foreign', port: 8000, listeners: [vllm] }, 555)).toMatch(
      /^Port 8000 is answered by process 1234 \(python3 -m vllm serve m\), not by the server being watched \(pid 555\)/
    )
  })

  it('leftover-server names the process an earlier job left and how to free the port', () => {
    expect(leftoverServerText(8000, { pid: 1234, command: 'python3 -m vllm serve m' })).toMatch(
      /^Port 8000 is answered by process 1234 \(python3 -m vllm serve m\), a server an earlier job left running: .* Stop it \(wait-for-model stop --pid 1234, or kill 1234\), or give "start"/
    )
    expect(serverOriginUnknownText(8000, 'no /proc')).toMatch(
      /^Could not tell whether this job started the server on port 8000 \(no \/proc\): .* Give "start", "pid" or "container"/
    )
  })

  it('the GPU pre-flight names pid, process and MiB on which GPU', () => {
    expect(
      gpuBusyText(
        [
          { pid: 430, processName: 'python3', usedMiB: 21090, gpuUuid: 'GPU-a' },
          { pid: 431, processName: 'x', gpuUuid: 'GPU-z' }
        ],
        [{ index: 1, uuid: 'GPU-a', name: 'NVIDIA H200' }]
      )
    ).toBe(
      'Other processes hold memory on the GPUs the server will use: pid 430 (python3) 21090 MiB on GPU 1; pid 431 (x) an unknown amount on GPU-z'
    )
  })
})
