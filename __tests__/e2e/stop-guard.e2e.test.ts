import { spawn } from 'node:child_process'
import { utimesSync, writeFileSync } from 'node:fs'
import { sandbox } from '../helpers/sandbox.js'

/**
 * `wait-for-model stop --pid` as a user (or an attacker's pid file) could call it, through dist/cli.js: it never
 * signals pid 1, an ancestor of its own (the shell, the runner), or its own process or group, and says so with
 * the status of bad usage. The guard's other cases run through dist/post.js (own-processes.e2e.test.ts).
 */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const box = sandbox('wait-for-model-stop-guard-')

interface Ran {
  code: number | null
  signal: NodeJS.Signals | null
  stderr: string
  stdout: string
}

function run(command: string, args: string[], detached = false): Promise<Ran> {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
}

describe('wait-for-model stop never signals what is not a server', () => {
  it('refuses pid 1 before anything is signalled', async () => {
    const r = await run(process.execPath, [cli, 'stop', '--pid', '1', '--timeout', '1s'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--pid: "1" is not/)
  })

  it('refuses an ancestor (the process that ran it), which lives on', async () => {
    const r = await run(process.execPath, [cli, 'stop', '--pid', String(process.pid), '--timeout', '1s', '--json'])
    expect(r.code).toBe(2)
    expect(r.signal).toBeNull()
    expect(JSON.parse(r.stdout)).toMatchObject({ pid: process.pid, outcome: 'refused', refused: 'ancestor' })
    expect(r.stderr).toMatch(new RegExp(`Refused to stop process ${process.pid}: it is an ancestor`))
    // this test's process was not signalled: it is here to check
    expect(() => process.kill(process.pid, 0)).not.toThrow()
  })

  it('refuses its own process and its own process group (the shell that runs it, which leads its group)', async () => {
    // the shell leads a new group and execs the CLI: $$ is then the CLI's own pid and its group's id
    const own = await run('sh', ['-c', `exec "${process.execPath}" "${cli}" stop --pid $$ --timeout 1s`], true)
    expect(own.code).toBe(2)
    expect(own.signal).toBeNull()
    expect(own.stderr).toMatch(/--pid: \d+ is this command's own process or process group/)
    // the group's leader is a shell that waits for the CLI: its id is the group's, the CLI's own group
    const group = await run(
      'sh',
      ['-c', `"${process.execPath}" "${cli}" stop --pid $$ --timeout 1s; echo "shell lives $?"`],
      true
    )
    expect(group.signal).toBeNull()
    expect(group.stdout).toContain('shell lives 2')
  })

  it('leaves alone the process that now has the pid of a stale pid file (written before it started), exit 0', async () => {
    // the server the file named has exited; the kernel gave its pid to this process, which started later
    const stranger = spawn('sleep', ['30'], { stdio: 'ignore' })
    box.pids.push(stranger.pid as number)
    const file = box.path('vllm.pid')
    writeFileSync(file, `${stranger.pid}\n`)
    const written = new Date(Date.now() - 60_000)
    utimesSync(file, written, written)
    const r = await run(process.execPath, [cli, 'stop', '--pid', file, '--timeout', '1s', '--json'])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(
      new RegExp(`Process ${stranger.pid} started \\d+\\.\\ds after .*vllm\\.pid was written: it is not the server`)
    )
    expect(JSON.parse(r.stdout)).toMatchObject({ pid: stranger.pid, outcome: 'not-running', pids: [] })
    expect(stranger.exitCode).toBeNull()
    expect(() => process.kill(stranger.pid as number, 0)).not.toThrow()
    // the same file written after the process started (as `… & echo $! > vllm.pid` writes it): stopped
    utimesSync(file, new Date(), new Date())
    const stopped = await run(process.execPath, [cli, 'stop', '--pid', file, '--timeout', '1s', '--json'])
    expect(stopped.code).toBe(0)
    expect(JSON.parse(stopped.stdout)).toMatchObject({ pid: stranger.pid, outcome: 'exited' })
  })
})
