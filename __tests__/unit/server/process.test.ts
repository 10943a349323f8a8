import { spawn } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { attachServer, newLogFile, resolvePid, serverEnv, startServer } from '../../../src/server/process.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { sandbox } from '../../helpers/sandbox.js'

/** Real processes: a shell command started as the action starts a server, and one started elsewhere. */
const box = sandbox('wfm-proc-')

describe('startServer', () => {
  it('runs the command with the given environment, its output in the log, and tells its exit code', async () => {
    const log = box.path('sub', 'server.log')
    const server = startServer(
      'echo "out $NCCL_DEBUG"; echo err >&2; exit 3',
      log,
      { PATH: process.env.PATH ?? '', NCCL_DEBUG: 'INFO' },
      systemClock
    )
    box.pids.push(server.pid)
    expect(await server.exited).toBe('exited with code 3')
    expect(readFileSync(log, 'utf8')).toBe('out INFO\nerr\n')
  })

  it('tells the signal that ended it, and reads its environment from /proc while it runs', async () => {
    const server = startServer(
      'exec sleep 30',
      box.path('server.log'),
      { PATH: process.env.PATH ?? '', NCCL_SOCKET_IFNAME: 'lo' },
      systemClock
    )
    box.pids.push(server.pid)
    await new Promise((r) => setTimeout(r, 200))
    expect(server.environ()).toMatchObject({ NCCL_SOCKET_IFNAME: 'lo' })
    process.kill(server.pid, 'SIGKILL')
    expect(await server.exited).toBe('was killed by SIGKILL')
  })

  it('names log-file when the log cannot be written, before anything starts', () => {
    const file = box.path('server.log')
    writeFileSync(file, '')
    expect(() => startServer('true', join(file, 'under-a-file.log'), {}, systemClock)).toThrow(
      /^Input "log-file": ".*under-a-file.log" cannot be written \((ENOTDIR|EEXIST)\)$/
    )
  })

  it('gives the server the step environment without the action inputs', () => {
    expect(serverEnv({ PATH: '/bin', 'INPUT_API-KEY': 'sk-1', INPUT_URL: 'x', NCCL_DEBUG: 'WARN' })).toEqual({
      PATH: '/bin',
      NCCL_DEBUG: 'WARN'
    })
  })

  it("creates a new log per run under RUNNER_TEMP, named with the run's pid, never one another run has", () => {
    const temp = box.path('runner-temp')
    const first = newLogFile({ RUNNER_TEMP: temp }, 4242)
    expect(first).toMatch(new RegExp(`^${temp}/model-server-4242-[0-9a-f]{12}\\.log$`))
    expect(readFileSync(first, 'utf8')).toBe('')
    // a pid reused since an earlier run (or another gate at once): its log is left as it is
    writeFileSync(first, 'an earlier run\n')
    const second = newLogFile({ RUNNER_TEMP: temp }, 4242)
    expect(second).not.toBe(first)
    expect(readFileSync(first, 'utf8')).toBe('an earlier run\n')
    const outsideRunner = newLogFile({}, 4243)
    expect(outsideRunner).toMatch(new RegExp(`^${tmpdir()}/model-server-4243-[0-9a-f]{12}\\.log$`))
    rmSync(outsideRunner)
    writeFileSync(box.path('file'), '')
    expect(() => newLogFile({ RUNNER_TEMP: box.path('file') })).toThrow(
      /^Input "log-file": none given, and no new log can be created in ".*file" \((ENOTDIR|EEXIST)\)$/
    )
  })

  it('appends to a log-file that exists, never truncating it, and says where its own output begins', async () => {
    const log = box.path('kept.log')
    writeFileSync(log, 'yesterday\n')
    const server = startServer('echo today', log, { PATH: process.env.PATH ?? '' }, systemClock)
    box.pids.push(server.pid)
    await server.exited
    expect(server.logOffset).toBe('yesterday\n'.length)
    expect(readFileSync(log, 'utf8')).toBe('yesterday\ntoday\n')
  })
})

describe('attachServer', () => {
  it('knows how long ago a process started elsewhere began, and notices when it exits', async () => {
    const beforeSpawn = systemClock.now()
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' })
    const afterSpawn = systemClock.now()
    box.pids.push(child.pid as number)
    await new Promise((r) => setTimeout(r, 1_000))
    const attachedAt = systemClock.now()
    const server = attachServer(child.pid as number, systemClock, 50)
    try {
      const ageMs = systemClock.now() - (server.startedAt as number)
      // it began within the spawn call: as long ago as the test's own clock says, however late a busy machine
      // woke the test (/proc counts in hundredths of a second, read against /proc/uptime)
      expect(ageMs).toBeGreaterThanOrEqual(attachedAt - afterSpawn - 50)
      expect(ageMs).toBeLessThanOrEqual(systemClock.now() - beforeSpawn + 50)
      expect(ageMs).toBeGreaterThanOrEqual(950)
      child.kill('SIGTERM')
      expect(await server.exited).toMatch(/is not running|has exited/)
    } finally {
      server.release()
    }
  })

  it('says at once that a process id names no running process', async () => {
    const server = attachServer(4_194_304, systemClock)
    expect(await server.exited).toBe('is not running')
    expect(server.environ()).toBeUndefined()
  })
})

describe('resolvePid', () => {
  it('reads a pid file, and names the input when it cannot', () => {
    const file = box.path('server.pid')
    writeFileSync(file, '4242\n')
    expect(resolvePid({ file })).toBe(4242)
    expect(resolvePid({ pid: 7 })).toBe(7)
    expect(() => resolvePid({ file: box.path('missing.pid') })).toThrow(
      /^Input "pid": could not read ".*missing.pid" \(ENOENT\)/
    )
  })
})
