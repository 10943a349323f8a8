import { spawn } from 'node:child_process'
import { envDifferences, servingProcess } from '../../../src/server/env-report.js'
import { gateLines } from '../../../src/report/progress.js'
import { sandbox } from '../../helpers/sandbox.js'

/** The process that serves: a real listener run by a shell as its child (not exec'd), as `start` runs `cmd; echo`. */
const listener = new URL('../../fixtures/listener.mjs', import.meta.url).pathname
const box = sandbox('wfm-serving-env-')

describe('servingProcess', () => {
  it("finds the shell's child that listens, with its own environment, not the shell", async () => {
    const shell = spawn('/bin/bash', ['-c', `env -u HIDDEN "${process.execPath}" "${listener}" 127.0.0.1; true`], {
      env: { ...process.env, HIDDEN: 'only-in-the-shell' },
      // a group of its own, so that the sandbox ends the listener with the shell
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit']
    })
    box.pids.push(shell.pid as number)
    const [port, pid] = await new Promise<number[]>((resolve) =>
      shell.stdout.on('data', (d: Buffer) =>
        resolve((/listening (\d+) (\d+)/.exec(d.toString()) ?? []).slice(1).map(Number))
      )
    )
    expect(pid).not.toBe(shell.pid)
    const serving = servingProcess(shell.pid as number, [port + 1, port])
    expect(serving).toMatchObject({ pid, port })
    expect(serving?.environ?.HIDDEN).toBeUndefined()
    expect(serving?.environ?.PATH).toBe(process.env.PATH)
    // a port none of its processes listens on
    expect(servingProcess(shell.pid as number, [port + 1])).toBeUndefined()
  })
})

describe('envDifferences', () => {
  it('names the variables the patterns cover whose values differ, set in one only included, sorted', () => {
    const launched = { NCCL_IB_HCA: 'mlx5_0', NCCL_DEBUG: 'INFO', HF_TOKEN: 'a', OTHER: 'x' }
    const server = { NCCL_DEBUG: 'INFO', NCCL_ALGO: 'Ring', HF_TOKEN: 'b', OTHER: 'y' }
    expect(envDifferences(['NCCL_*', 'HF_TOKEN'], launched, server)).toEqual(['HF_TOKEN', 'NCCL_ALGO', 'NCCL_IB_HCA'])
    expect(envDifferences(['NCCL_DEBUG'], launched, server)).toEqual([])
  })
})

describe('the env-report lines', () => {
  it('name the listener, and the launched process with its values where they differ', () => {
    const lines = gateLines.environment({
      pid: 10,
      envPid: 11,
      envPort: 8000,
      env: [{ name: 'NCCL_DEBUG', value: 'INFO' }],
      launchedEnv: {
        pid: 10,
        env: [
          { name: 'NCCL_DEBUG', value: 'INFO' },
          { name: 'NCCL_IB_HCA', value: 'mlx5_0' }
        ],
        differs: ['NCCL_IB_HCA']
      }
    })
    expect(lines).toEqual([
      'Server environment (process 11, which listens on port 8000; the launched process is 10):',
      '  NCCL_DEBUG=INFO',
      'The launched process 10 has other values for one variable (NCCL_IB_HCA): the server did not get what the step set. The launched process has:',
      '  NCCL_DEBUG=INFO',
      '  NCCL_IB_HCA=mlx5_0'
    ])
    const same = gateLines.environment({
      pid: 10,
      envPid: 11,
      envPort: 8000,
      env: [],
      launchedEnv: { pid: 10, env: [], differs: [] }
    })
    expect(same).toContain('The launched process 10 has the same values.')
  })
})
