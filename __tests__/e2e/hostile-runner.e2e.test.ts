import { execFileSync, spawn } from 'node:child_process'
import {
  chmodSync,
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, simulate } from '../../src/simulator/server.js'
import { runAction } from '../../src/simulator/runner.js'
import { procStat } from '../../src/server/proc.js'
import { HANG_MS } from '../helpers/bounds.js'
import { cli, hostileKit } from '../helpers/hostile-kit.js'
import { entry, errors, fakeServer, type ProcessRun, savedServers, stateOf } from '../helpers/support.js'

/**
 * The runner's own files and the job's paths turned against the action, as a broken runner or an attacker would:
 * a `pid` that is no regular file, a fleet whose job-end summary would pass GitHub's 1 MiB, runner files that are
 * full or cannot be written, a server's words that would be workflow commands. Through dist/, as a runner runs it.
 */
const { box, dir, run, measured } = hostileKit('wait-for-model-runner-')
const post = new URL('../../dist/post.js', import.meta.url).pathname

/** Running: a zombie awaiting its parent is not. */
const alive = (pid: number): boolean => {
  const state = procStat(pid)?.state
  return state !== undefined && state !== 'Z'
}

/** The CLI in a clean environment, killed (and said so) if it outlives `killMs`. */
function runCli(
  args: string[],
  killMs = HANG_MS,
  signal = 'SIGKILL' as NodeJS.Signals
): Promise<ProcessRun & { killed: boolean }> {
  const started = performance.now()
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CACHE_HOME: dir, TMPDIR: tmpdir() },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  let killed = false
  const timer = setTimeout(() => ((killed = true), child.kill(signal)), killMs)
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, wallMs: performance.now() - started, killed })
    })
  )
}

describe('a pid that names no regular file', () => {
  const fifo = join(dir, 'server.pid.fifo')
  execFileSync('mkfifo', [fifo])
  const sparse = join(dir, 'sparse.pid')
  const fd = openSync(sparse, 'w')
  ftruncateSync(fd, 600 * 1024 * 1024)
  closeSync(fd)
  const cases: Array<[string, string, RegExp]> = [
    ['a FIFO nobody writes', fifo, /it is a FIFO, not a regular file/],
    ['/dev/zero', '/dev/zero', /it is a character device, not a regular file/],
    ['a 600 MB sparse file', sparse, /it is 629145600 bytes; at most 4096 are read/]
  ]

  it.each(cases)(
    'the action, %s: one input error before anything runs, memory and time bounded',
    async (what, path, says) => {
      const port = await freePort()
      const r = await run(
        { url: `http://127.0.0.1:${port}/v1/models`, pid: path, timeout: '3s' },
        {},
        { killMs: HANG_MS }
      )
      measured(`pid: ${what}`, r)
      expect(r.killed).toBe(false)
      const found = errors(r.stdout)
      expect(found).toHaveLength(1)
      expect(found[0]).toMatch(/^::error title=Invalid input::Input "pid": could not read /)
      expect(found[0]).toMatch(says)
      expect(r.stdout).not.toMatch(/^\s+at /m)
      expect(r.peakRssMb).toBeLessThan(200)
      // within the 3 s timeout, on the step's own clock
      expect(r.exitAtMs).toBeLessThan(3_000 * r.stretch)
    }
  )

  it.each(cases)('the CLI, wait --pid and stop --pid, %s: one usage line, no hang', async (_what, path, says) => {
    for (const args of [
      ['--url', 'http://127.0.0.1:9/v1/models', '--timeout', '3s', '--pid', path],
      ['stop', '--pid', path]
    ]) {
      const r = await runCli(args)
      expect(r.killed).toBe(false)
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/^wait-for-model: --pid: .+\nRun "wait-for-model --help" for usage\.\n$/)
      expect(r.stderr).toMatch(says)
    }
  })
})

describe('the job-end summary of a fleet of stubborn servers with long log lines', () => {
  it('stays under GitHub 1 MiB, every server still stopped', async () => {
    const n = 12
    const ports = await Promise.all(Array.from({ length: n }, () => freePort()))
    // each server ignores SIGTERM and writes 400 lines of 3,000 characters, then never answers
    const server = join(dir, 'stubborn.mjs')
    writeFileSync(
      server,
      `process.on('SIGTERM', () => {}); for (let i = 0; i < 400; i++) console.log(String(i).padEnd(3000, 'x')); setInterval(() => {}, 1000)\n`
    )
    const main = await runAction({
      entry,
      inputs: {
        url: ports.map((p) => `http://127.0.0.1:${p}/v1/models`).join('\n'),
        start: ports.map(() => `exec node ${server}`).join('\n'),
        'log-file': ports.map((p) => join(dir, `stubborn-${p}.log`)).join('\n'),
        timeout: '2s',
        interval: '200ms',
        'history-file': ''
      }
    })
    const saved = savedServers(main.state)
    expect(saved).toHaveLength(n)
    const pids = saved.map((s) => s.pid as number)
    box.pids.push(...pids)
    // the job-end step with half a second for SIGTERM, as the state is its input
    const env: Record<string, string> = {}
    for (const [name, value] of Object.entries(stateOf(...saved.map((s) => ({ ...s, timeoutMs: 500 })))))
      env[`STATE_${name}`] = value
    const p = await runAction({ entry: post, inputs: {}, env })
    expect(p.code).toBe(0)
    measured(`job-end summary, ${n} stubborn servers`, { ...p, peakRssMb: 0, exitAtMs: 0, originMs: 0, stretch: 1 })
    expect(pids.filter(alive)).toEqual([])
    expect(p.stdout.match(/did not exit after SIGTERM, so SIGKILL/g)).toHaveLength(n)
    expect(Buffer.byteLength(p.summary)).toBeLessThan(1024 * 1024)
    expect(p.summary).toContain('server 1 of 12')
  })
})

describe('smaller: what the log and the simulator say', () => {
  it('load: true, a server slow to load: once asked to load, the log never advises to set "load: true"', async () => {
    const server = await simulate({ engine: 'llamacpp', model: 'qwen3-8b', loadMs: 60_000, unloaded: true })
    try {
      const url = `${server.baseUrl}/v1/models`
      const r = await runCli([
        '--url',
        url,
        '--model',
        'qwen3-8b',
        '--load',
        'true',
        '--timeout',
        '3s',
        '--interval',
        '200ms',
        '--history-file',
        ''
      ])
      expect(r.killed).toBe(false)
      expect(r.stderr).toContain('Asked the server to load "qwen3-8b"')
      expect(r.stderr).not.toContain('set "load: true"')
      expect(r.stderr).toMatch(
        /"qwen3-8b" is listed but (not loaded yet \("load: true" asks the server to load it\)|still loading)/
      )
    } finally {
      await server.close()
    }
  })

  it('the simulator, a --model that carries workflow commands: none reaches stdout or stderr as one', async () => {
    const port = await freePort()
    const model = 'm\n::error title=pwned::owned\n::add-mask::x\n##[error]owned'
    // it serves until stopped: stopped by SIGTERM once its log (0.5 s of start-up) is out
    const r = await runCli(
      ['simulate', '--engine', 'vllm', '--model', model, '--load', '500ms', '--port', String(port)],
      3_000,
      'SIGTERM'
    )
    expect(r.stdout).toContain('owned')
    for (const text of [r.stdout, r.stderr]) {
      expect(text).not.toMatch(/^\s*::/m)
      expect(text).not.toContain('##[')
    }
  })

  it('the simulator, --log-file /dev/full: one line naming the file and why, no stack trace, it ends', async () => {
    const port = await freePort()
    const r = await runCli([
      'simulate',
      '--engine',
      'vllm',
      '--model',
      'm',
      '--load',
      '1s',
      '--port',
      String(port),
      '--log-file',
      '/dev/full'
    ])
    expect(r.killed).toBe(false)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^wait-for-model: --log-file: cannot write "\/dev\/full" \(ENOSPC\)$/m)
    expect(r.stderr).not.toMatch(/^\s+at /m)
    expect(r.stderr).not.toContain('Error:')
  })
})

describe("the runner's own files full or not writable", () => {
  /** A `start` that leaves a mark and its pid (the shell's, which `exec` hands to the server), then serves. */
  const startLine = (port: number, mark: string): string =>
    `echo $$ > ${mark}; exec node ${fakeServer} ${port} loads 300`
  const notWritable = join(dir, 'state-is-a-directory')
  mkdirSync(notWritable)

  it.each([
    ['GITHUB_STATE on a full disk (/dev/full)', '/dev/full', /\(ENOSPC\)/],
    ['GITHUB_STATE that cannot be opened for writing (a directory)', notWritable, /\(EISDIR\)/]
  ])('%s: one error line, and "start" is not run (nothing is left running)', async (_what, stateFile, says) => {
    const port = await freePort()
    const mark = join(dir, `started-${port}`)
    const r = await run(
      {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: 'kimi',
        start: startLine(port, mark),
        'log-file': join(dir, `server-${port}.log`),
        timeout: '10s',
        interval: '200ms',
        'history-file': ''
      },
      { GITHUB_STATE: stateFile }
    )
    const started = existsSync(mark) ? Number(readFileSync(mark, 'utf8')) : undefined
    if (started !== undefined) box.pids.push(started)
    measured(`runner file: ${_what}`, r)
    expect(r.killed).toBe(false)
    expect({ started, running: started !== undefined && alive(started) }).toEqual({
      started: undefined,
      running: false
    })
    const found = errors(r.stdout)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(
      /^::error title=Runner file cannot be written::The runner's file GITHUB_STATE .*cannot be written /
    )
    expect(found[0]).toMatch(says)
    expect(found[0]).toContain('"start" was not run')
    expect(r.stdout).not.toMatch(/^\s+at /m)
    expect(r.code).toBe(1)
  })

  it('GITHUB_STATE that fills up once the server runs: the server is stopped at once, one error line', async () => {
    const port = await freePort()
    const mark = join(dir, `started-${port}`)
    // the disk is full once an earlier step's state and the first few bytes are in: a 1 KiB file size limit
    const state = join(dir, `state-${port}`)
    writeFileSync(state, `earlier<<EOF\n${'x'.repeat(680)}\nEOF\n`)
    const node = join(dir, 'node-with-1-kib-files')
    // bash counts the limit in KiB (sh may count in 512-byte blocks)
    writeFileSync(node, `#!/bin/bash\nulimit -f 1\nexec "${process.execPath}" "$@"\n`)
    chmodSync(node, 0o755)
    const r = await runAction({
      entry,
      node,
      inputs: {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: 'kimi',
        start: startLine(port, mark),
        timeout: '60s',
        interval: '200ms',
        'history-file': ''
      },
      env: { GITHUB_STATE: state }
    })
    const started = Number(readFileSync(mark, 'utf8'))
    box.pids.push(started)
    // one line says why; the wait's own end (the server exited) and the outputs, over the limit too, have theirs
    expect(errors(r.stdout)).toContainEqual(
      expect.stringMatching(
        /^::error title=Runner file cannot be written::The runner's file GITHUB_STATE .* cannot be written \(EFBIG\): the job-end step could not stop the server "start" launched, so it was stopped now$/
      )
    )
    // at once: long before the wait's 60 s
    expect(r.wallMs).toBeLessThan(30_000)
    expect(r.stdout).not.toMatch(/^\s+at /m)
    expect(alive(started)).toBe(false)
  })

  it('GITHUB_OUTPUT on a full disk: one error line; the state saved at the launch lets the job-end step stop the server', async () => {
    const port = await freePort()
    const mark = join(dir, `started-${port}`)
    const r = await run(
      {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: 'kimi',
        start: startLine(port, mark),
        'log-file': join(dir, `server-${port}.log`),
        timeout: '10s',
        interval: '200ms',
        'history-file': ''
      },
      { GITHUB_OUTPUT: '/dev/full' }
    )
    const started = Number(readFileSync(mark, 'utf8'))
    box.pids.push(started)
    measured('runner file: GITHUB_OUTPUT on a full disk', r)
    expect(r.killed).toBe(false)
    const found = errors(r.stdout)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(
      /^::error title=Runner file cannot be written::The runner's file GITHUB_OUTPUT \("\/dev\/full"\) cannot be written \(ENOSPC\)/
    )
    expect(r.stdout).not.toMatch(/^\s+at /m)
    expect(r.code).toBe(1)
    // the job-end step, given the state as the runner gives it, stops the server
    expect(savedServers(r.state)).toMatchObject([{ kind: 'process', pid: started }])
    expect(alive(started)).toBe(true)
    const env: Record<string, string> = {}
    for (const [name, value] of Object.entries(r.state)) env[`STATE_${name}`] = value
    const p = await runAction({ entry: post, inputs: {}, env })
    expect(p.code).toBe(0)
    expect(p.stdout).toMatch(/Stopped the server's process group/)
    expect(alive(started)).toBe(false)
  })
})
