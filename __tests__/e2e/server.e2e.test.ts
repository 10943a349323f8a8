import { type ChildProcess, spawn } from 'node:child_process'
import { openSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { type ActionRun, runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { measureLoad } from '../helpers/bounds.js'
import { loopback } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors, fakeServer } from '../helpers/support.js'

/**
 * End to end with a real server process: `node dist/index.js` as the runner starts it, launching (or watching)
 * a small node script that loads, crashes with a CUDA out-of-memory line, exits with a code, or hangs.
 */
/**
 * Time to exit node and deliver the close event on a 2-core machine, on top of the one-second bound; the two times
 * the load measured during the run on a busy one (helpers/bounds.ts).
 */
const SLACK_MS = 700

const box = sandbox('wait-for-model-server-')
const pids = box.pids

async function startAction(
  scenario: string,
  inputs: Record<string, string>,
  extra: Partial<Parameters<typeof runAction>[0]> = {}
) {
  const port = await freePort()
  const logFile = box.path('server.log')
  const stretch = measureLoad()
  const run = await runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      start: `node ${fakeServer} ${port} ${scenario}`,
      'log-file': logFile,
      ...inputs
    },
    ...extra
  })
  if (run.outputs.pid) pids.push(Number(run.outputs.pid))
  return { run, port, logFile, endedAt: Date.now(), stretch: stretch() }
}

/** When the fake server says its event (crash, exit) happened, by its own log. */
const eventAt = (log: string): number => Number(/^event at (\d+)$/m.exec(log)?.[1])
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('the packaged action with a server process', () => {
  it('starts the server, proves it generates, reports its environment, and leaves it running', async () => {
    const { run, port, logFile } = await startAction(
      'loads 1500',
      {
        'probe-generation': 'true',
        interval: '200ms',
        timeout: '30s',
        'env-report': 'NCCL_*,HF_TOKEN,CUDA_VISIBLE_DEVICES,INPUT_*'
      },
      { env: { NCCL_DEBUG: 'INFO', NCCL_SOCKET_IFNAME: 'lo', HF_TOKEN: 'hf_very_secret_42' } }
    )
    expect(errors(run.stdout)).toEqual([])
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({
      ready: 'true',
      reason: 'ready',
      'model-id': '/shared/kimi-k2.5-int4',
      'log-file': logFile
    })
    const pid = Number(run.outputs.pid)
    expect(pid).toBeGreaterThan(0)
    // the load takes 1.5s after node starts; startup counts from the launch, which is after the step's start
    expect(Number(run.outputs['startup-seconds'])).toBeGreaterThanOrEqual(1.5)
    expect(Number(run.outputs['startup-seconds'])).toBeLessThanOrEqual(Number(run.outputs['elapsed-seconds']))
    expect(run.outputs['generation-seconds']).toMatch(/^\d+\.\d$/)
    // the one-token request, as the server received it
    const log = readFileSync(logFile, 'utf8')
    expect(log).toContain('POST /v1/completions {"model":"/shared/kimi-k2.5-int4","prompt":"Hi","max_tokens":1}')
    expect(log).toContain(`pid ${pid})`)
    // the environment it started with: the step's variables, credentials masked, the action's inputs absent
    expect(run.stdout).toMatch(
      / {2}NCCL_DEBUG=INFO\n {2}NCCL_SOCKET_IFNAME=lo\n {2}HF_TOKEN=\*\*\*\n {2}CUDA_VISIBLE_DEVICES: not set\n {2}INPUT_\*: not set\n/
    )
    expect(run.summary).toMatch(/\| `NCCL_DEBUG` \| `INFO` \|/)
    expect(run.stdout + run.summary).not.toContain('hf_very_secret_42')
    expect(run.summary).toMatch(/\| Startup \(from the process start\) \| \d+\.\d s \|/)
    expect(run.summary).toMatch(/POST \/v1\/completions generated/)
    // the server outlives the step, for the benchmark that follows
    expect(alive(pid)).toBe(true)
    const res = await fetch(`http://127.0.0.1:${port}/v1/models`)
    expect(res.status).toBe(200)
  })

  it('ends within a second of a CUDA out-of-memory line, quoting it with its line number and the log tail', async () => {
    const { run, logFile, endedAt, stretch } = await startAction('oom 1200', {
      'fail-pattern': 'CUDA out of memory|NCCL error|Traceback \\(most recent call last\\)',
      interval: '10s'
    })
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({
      ready: 'false',
      reason: 'log-error',
      'log-file': logFile,
      'startup-seconds': '',
      'status-code': ''
    })
    expect(alive(Number(run.outputs.pid))).toBe(true) // it logged its crash and hangs, as vLLM's API server does
    const log = readFileSync(logFile, 'utf8')
    const oomLine = log.split('\n').findIndex((l) => l.startsWith('torch.OutOfMemoryError')) + 1
    // the wait was asleep (interval 10s) when the line appeared
    expect(endedAt - eventAt(log)).toBeLessThan((1_000 + SLACK_MS) * stretch)
    const [error] = errors(run.stdout)
    // vLLM's own fatal line names the cause: it is quoted rather than the Traceback line fail-pattern matched first
    expect(error).toContain(
      `line ${oomLine} of ${logFile} is a known fatal vLLM line: torch.OutOfMemoryError: CUDA out of memory.`
    )
    // the tail, in a group, protected from being read as workflow commands
    expect(run.stdout).toMatch(new RegExp(`::group::Last \\d+ lines of ${logFile}\\n::stop-commands::[0-9a-f-]+\\n`))
    expect(run.stdout).toMatch(/\d+: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 816.82 MiB/)
    expect(run.summary).toMatch(/❌ not ready \(log-error\)/)
    expect(run.summary).toMatch(/#### Last \d+ lines of .*\n\n```\n[\s\S]*\d+: event at/)
  })

  it('ends within a second of the server exiting, with its exit code and the log tail', async () => {
    const { run, logFile, endedAt, stretch } = await startAction('exit 1200 3', { interval: '10s' })
    expect(run.code).toBe(1)
    // its last line is one vLLM prints when its engine fails to start: quoted, with the exit code that follows it
    expect(run.outputs).toMatchObject({
      ready: 'false',
      reason: 'log-error',
      'startup-seconds': '',
      'log-file': logFile
    })
    expect(endedAt - eventAt(readFileSync(logFile, 'utf8'))).toBeLessThan((1_000 + SLACK_MS) * stretch)
    expect(errors(run.stdout)[0]).toMatch(
      new RegExp(
        `before the server was ready: line \\d+ of ${logFile} is a known fatal vLLM line: .*EngineCore failed to start\\.; the server process ${run.outputs.pid} then exited with code 3\\.`
      )
    )
    expect(run.stdout).toMatch(/\d+: ERROR 07-08 10:12:20 \[core.py:1\] EngineCore failed to start\.\n/)
    expect(run.summary).toMatch(/❌ not ready \(log-error\)/)
    expect(run.summary).toContain('EngineCore failed to start.')
  })

  it('on timeout, shows the log tail and runs the diagnostics, each in its own group', async () => {
    const { run, logFile } = await startAction('hang 0', {
      timeout: '2s',
      interval: '500ms',
      diagnostics: 'echo "diag-one $((40 + 2))"\nexit 7'
    })
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout', 'log-file': logFile, 'startup-seconds': '' })
    expect(run.outputs.pid).toMatch(/^\d+$/)
    expect(run.stdout).toMatch(/::group::Last \d+ lines of .*server.log\n/)
    expect(run.summary).toMatch(/#### Last \d+ lines of .*server.log\n\n```\n[\s\S]*\d+: No available shared memory/)
    expect(run.stdout).toMatch(/\d+: No available shared memory broadcast block found in 60 seconds\./)
    expect(run.stdout).toMatch(
      /::group::Diagnostics: echo "diag-one \$\(\(40 \+ 2\)\)"\n[\s\S]*diag-one 42\n[\s\S]*::endgroup::/
    )
    expect(run.stdout).toMatch(/::group::Diagnostics: exit 7\n[\s\S]*\(exit code 7\)\n::endgroup::/)
    expect(errors(run.stdout)[0]).toMatch(/^::error title=Model server not ready \(timeout\)::Timed out after 2\.\ds/)
  })

  it("ends with engine-dead once generations answer vLLM's dead-engine error three times in a row (issue 24)", async () => {
    // Before, a dead engine core was waited out to the timeout as generation-failed; its error cannot heal. 60 s: a
    // bound that only a wait for the timeout would reach, on a loaded machine too.
    const { run } = await startAction('no-generate 300', {
      'probe-generation': 'true',
      timeout: '60s',
      interval: '500ms'
    })
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({
      ready: 'false',
      reason: 'engine-dead',
      'model-id': '/shared/kimi-k2.5-int4',
      'generation-seconds': ''
    })
    expect(Number(run.outputs.attempts)).toBeGreaterThanOrEqual(3)
    expect(Number(run.outputs['elapsed-seconds'])).toBeLessThan(20)
    expect(errors(run.stdout)[0]).toMatch(/dead-engine error 3 times in a row/)
  })

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops within a second on %s (a cancelled job), writing its outputs, and leaves the server running',
    async (signal) => {
      let signalledAt = 0
      const { run, endedAt, stretch } = await startAction(
        'hang 0',
        { timeout: '60s', interval: '10s' },
        {
          onStart: (child: ChildProcess) =>
            child.stdout?.on('data', (d: Buffer) => {
              if (signalledAt === 0 && d.toString().includes('Waiting up to')) {
                signalledAt = Date.now()
                child.kill(signal)
              }
            })
        }
      )
      expect(signalledAt).toBeGreaterThan(0)
      expect(endedAt - signalledAt).toBeLessThan((1_000 + SLACK_MS) * stretch)
      expect(run.outputs).toMatchObject({ ready: 'false', reason: 'cancelled' })
      expect(run.summary).toMatch(/❌ not ready \(cancelled\)/)
      expect(errors(run.stdout)[0]).toMatch(new RegExp(`the job was cancelled \\(${signal}\\)`))
      expect(run.stdout).not.toMatch(/::group::Diagnostics/)
      expect(alive(Number(run.outputs.pid))).toBe(true)
    }
  )
})

describe('the packaged action watching a server started elsewhere (pid)', () => {
  function launch(port: number, scenario: string, logFile: string): ChildProcess {
    const fd = openSync(logFile, 'w')
    const child = spawn(process.execPath, [fakeServer, String(port), ...scenario.split(' ')], {
      detached: true,
      stdio: ['ignore', fd, fd]
    })
    if (child.pid) pids.push(child.pid)
    return child
  }

  it('counts startup-seconds from the process start, read from /proc, not from the step start', async () => {
    const port = await freePort()
    const logFile = box.path('server.log')
    const pidFile = box.path('server.pid')
    const child = launch(port, 'loads 2500', logFile)
    writeFileSync(pidFile, `${child.pid}\n`)
    await new Promise((r) => setTimeout(r, 1_200))
    const run = await runAction({
      entry,
      inputs: {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: 'kimi',
        pid: pidFile,
        'log-file': logFile,
        interval: '200ms',
        timeout: '30s',
        'env-report': 'PATH'
      }
    })
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ ready: 'true', pid: String(child.pid), 'log-file': logFile })
    const startup = Number(run.outputs['startup-seconds'])
    expect(startup).toBeGreaterThanOrEqual(2.5)
    // the step began 1.2 s after the process: counted from the step, startup would be at most elapsed (its ready
    // moment is the ready line's, which a loaded machine may read a probe's interval before the answer came)
    expect(startup).toBeGreaterThan(Number(run.outputs['elapsed-seconds']) + 0.5)
    expect(run.stdout).toContain(`Server environment (process ${child.pid}):\n  PATH=`)
  })

  it('notices within a second that a process it did not start has exited', async () => {
    const port = await freePort()
    const logFile = box.path('server.log')
    // it fails once the action has begun to watch it, however late a busy machine started the action
    const child = launch(port, 'exit usr2 1', logFile)
    // its first line is written once it listens for SIGUSR2
    while (!readFileSync(logFile, 'utf8').includes('vLLM API server')) await new Promise((r) => setTimeout(r, 20))
    const stretch = measureLoad()
    let seen = ''
    const run = await runAction({
      entry,
      inputs: {
        url: `http://127.0.0.1:${port}/v1/models`,
        pid: String(child.pid),
        'log-file': logFile,
        interval: '10s'
      },
      onStart: (action) =>
        action.stdout?.on('data', (d: Buffer) => {
          if (!seen.includes('Waiting up to') && (seen += String(d)).includes('Waiting up to')) child.kill('SIGUSR2')
        })
    })
    const endedAt = Date.now()
    // Its fatal line comes first; the exit, polled every 250ms, is named when it is seen within the moment's grace
    // (on a loaded machine it may not be: the sentence then ends after the fatal line).
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'log-error' })
    expect(endedAt - eventAt(readFileSync(logFile, 'utf8'))).toBeLessThan((1_000 + SLACK_MS) * stretch())
    expect(errors(run.stdout)[0]).toMatch(
      new RegExp(
        `is a known fatal vLLM line: .*EngineCore failed to start\\.(; the server process ${child.pid} then (is not running|has exited)[^%]*)?(%0A|$)`
      )
    )
    expect(run.stdout).toContain('EngineCore failed to start.')
  })

  it('says at once that a pid names no running process, and that its log does not exist', async () => {
    const logFile = box.path('never-written.log')
    const run = await runAction({
      entry,
      inputs: { url: 'http://127.0.0.1:9/v1/models', pid: '4194304', 'log-file': logFile, interval: '10s' }
    })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'server-exited', pid: '4194304', attempts: '1' })
    expect(run.stdout).toContain(`The server log ${logFile} does not exist.`)
    expect(errors(run.stdout)[0]).toMatch(/the server process 4194304 is not running\./)
  })

  it('fails at once on a pid file that does not hold a process id', async () => {
    const pidFile = box.path('server.pid')
    writeFileSync(pidFile, 'not a pid')
    const run: ActionRun = await runAction({ entry, inputs: { url: 'http://127.0.0.1:9/v1/models', pid: pidFile } })
    expect(run.code).toBe(1)
    expect(errors(run.stdout)).toEqual([
      `::error title=Invalid input::Input "pid": "${pidFile}" holds "not a pid", not a process id`
    ])
  })
})

describe('the packaged action without a process to watch', () => {
  const net = loopback()

  it('warns when a server that had answered stops answering', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"Loading model"}')
      // the server "crashes" after its first answer
      server.close()
      server.closeAllConnections()
    })
    const url = await net.listen(server, '127.0.0.1', 'http')
    const run = await runAction({
      entry,
      inputs: { url: `${url}/v1/models`, interval: '200ms', timeout: '1500ms' }
    })
    expect(run.outputs).toMatchObject({ reason: 'timeout', 'status-code': '' })
    expect(run.stdout).toMatch(
      /^::warning title=Model server stopped answering::\d+ms: the server stopped answering \(connection refused\) after it had answered: crashed or restarting\?$/m
    )
    expect(run.summary).toMatch(/\| ⚠️ stopped answering \(crashed or restarting\?\): connection refused \|/)
  })
})
