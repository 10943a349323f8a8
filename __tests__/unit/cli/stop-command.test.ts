import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { runInProcess as run } from '../../helpers/in-process-cli.js'
import { sandbox } from '../../helpers/sandbox.js'

/** `wait-for-model stop` in-process, against a real detached server and the fake nvidia-smi. */
const listener = new URL('../../fixtures/listener.mjs', import.meta.url).pathname
const fakeDir = new URL('../../fixtures/gpu/', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const box = sandbox('wfm-stop-cli-')

function serve(): Promise<number> {
  const child = spawn(process.execPath, [listener, '127.0.0.1', '--child'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit']
  })
  box.pids.push(child.pid as number)
  return new Promise((resolve) => child.stdout.on('data', () => resolve(child.pid as number)))
}

describe('wait-for-model stop', () => {
  it('stops the process group, waits for its GPU memory and says how it went', async () => {
    const pid = await serve()
    const state = box.path('gpu.json')
    writeFileSync(
      state,
      JSON.stringify({
        gpus: [{ index: 0, uuid: GPU, name: 'NVIDIA H200', total: 143771 }],
        apps: [{ pid, name: 'python3', mib: 21090, gpu: GPU }]
      })
    )
    const r = await run(['stop', '--pid', String(pid), '--timeout', '20s', '--json'], {
      PATH: `${fakeDir}:${process.env.PATH}`,
      FAKE_NVIDIA_SMI: state
    })
    expect(r.code).toBe(0)
    const lines = r.stderr.trimEnd().split('\n')
    expect(lines[0]).toMatch(
      new RegExp(`^Stopped the server's process group ${pid} \\(\\d processes\\): SIGTERM, gone after \\d+\\.\\ds\\.$`)
    )
    expect(lines[1]).toMatch(/^Its GPU memory \(21090 MiB\) was released \d+\.\ds after SIGTERM\.$/)
    expect(JSON.parse(r.stdout)).toMatchObject({
      pid,
      scope: 'group',
      outcome: 'exited',
      signal: 'SIGTERM',
      gpu: { kind: 'released', mib: 21090 }
    })
  })

  it('says so for a process that is not running; without nvidia-smi nothing about the GPU', async () => {
    const gone = spawn('true')
    await new Promise((r) => gone.once('exit', r))
    const r = await run(['stop', '--pid', String(gone.pid)], { PATH: box.dir() })
    expect(r).toEqual({ code: 0, stdout: '', stderr: `Process ${gone.pid} is not running: nothing to stop.\n` })
  })

  it.each([
    [
      [],
      /^wait-for-model: --pid: give a process id \(12345\) or the path of a file holding one \(or --container NAME\|ID\)\n/
    ],
    [['--pid', '1'], /^wait-for-model: --pid: "1" is not a process id/],
    [['--pid', String(process.pid)], /is this command's own process or process group/],
    [['--pid', '/nonexistent/pid'], /^wait-for-model: --pid: could not read "\/nonexistent\/pid" \(ENOENT\)/],
    [['--pid', '123', '--timeout', 'soon'], /^wait-for-model: --timeout: "soon" is not a duration/]
  ])('exits 2 on bad usage %j, before signalling anything', async (args, message) => {
    const r = await run(['stop', ...args], { PATH: box.dir() })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
  })
})
