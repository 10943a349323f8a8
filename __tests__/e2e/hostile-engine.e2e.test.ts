import { spawn } from 'node:child_process'
import { freePort } from '../../src/simulator/server.js'
import { inspected, json, scriptedEngine, type ScriptedEngine } from '../helpers/scripted-engine.js'
import { expectEndedByDeadline } from '../helpers/bounds.js'
import { errors, runMeasured, stateOf } from '../helpers/support.js'
import { sandbox } from '../helpers/sandbox.js'

/**
 * The container path against an engine that misbehaves, as a broken or hostile engine (or a socket proxy in front
 * of one) would: a scripted Docker socket (helpers/scripted-engine.ts, a real HTTP server on a unix socket) that
 * answers inspect with an error, garbage, `null`, megabytes or nothing; a log frame that claims 4 GB; a stop a
 * proxy forbids or the engine never answers, cancelled; an engine in another pid namespace (Docker in Docker),
 * whose pids here are strangers'. Whatever it does, the step ends in its time with a clear reason, its outputs
 * written, no stack trace, and nothing of a stranger's taken as the server's.
 */
const box = sandbox('wfm-hostile-engine-e2e-')
const post = new URL('../../dist/post.js', import.meta.url).pathname
let engine: ScriptedEngine | undefined
afterEach(async () => {
  await engine?.stop()
  engine = undefined
})

const NAME = 'model'
const noStackTrace = (text: string): void => {
  expect(text).not.toMatch(/failed unexpectedly|Unexpected error|\n\s+at /)
}

/** The main step watching the container NAME of `engine`, the URL on a port nothing listens on. */
async function watch(timeout: string, more: Record<string, string> = {}) {
  const port = await freePort()
  const run = await runMeasured(
    {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      container: NAME,
      interval: '200ms',
      timeout,
      'history-file': '',
      ...more
    },
    { DOCKER_HOST: engine?.host ?? '' }
  )
  return run
}

describe('a Docker engine that answers inspect badly', () => {
  const big = `{"Id":"${'a'.repeat(64)}","Pad":"${'x'.repeat(5 * 1024 * 1024)}"}`
  it.each([
    ['HTTP 500', (res: Parameters<typeof json>[0]): boolean => json(res, 500, { message: 'server error' }), /HTTP 500/],
    ['invalid JSON', (res: Parameters<typeof json>[0]): boolean => json(res, 200, '{"Id": "c0ff'), /not JSON/],
    ['null', (res: Parameters<typeof json>[0]): boolean => json(res, 200, 'null'), /no container/],
    ['more than 4 MB', (res: Parameters<typeof json>[0]): boolean => json(res, 200, big), /more than 4194304 bytes/]
  ])(
    '%s: a clear reason, outputs written, no stack trace',
    async (_, answer, said) => {
      engine = await scriptedEngine((req, res) => {
        if (req.url?.startsWith('/containers/')) return answer(res)
        return false
      })
      const run = await watch('20s')
      noStackTrace(run.stdout)
      expect(run.outputs.ready).toBe('false')
      expect(run.outputs.reason).toBe('server-exited')
      expect(errors(run.stdout).join('\n')).toMatch(said)
      expect(errors(run.stdout).join('\n')).toMatch(/cannot be watched: the engine at/)
      // one answer that failed, then the wait's first reads: seconds, not the timeout
      expect(Number(run.outputs['elapsed-seconds'])).toBeLessThan(10)
    },
    60_000
  )

  it('no answer at all (inspect hangs): ended in its time with a reason, outputs written', async () => {
    engine = await scriptedEngine((req) => req.url?.startsWith('/containers/') === true)
    const run = await watch('8s')
    noStackTrace(run.stdout)
    expect(run.outputs.ready).toBe('false')
    expect(run.outputs.reason).toMatch(/^(timeout|server-exited)$/)
    expect(run.stdout).toMatch(/did not answer GET \/containers\/model\/json within/)
    expectEndedByDeadline(run, 8_000)
  }, 60_000)
})

describe('a log frame that claims 4 GB', () => {
  it('is followed within the deadline and bounded memory, its bytes kept as they come', async () => {
    let sent = 0
    engine = await scriptedEngine((req, res) => {
      if (req.url === `/containers/${NAME}/json`) return json(res, 200, inspected(NAME))
      if (req.url?.includes('/logs')) {
        res.writeHead(200, { 'content-type': 'application/vnd.docker.raw-stream' })
        const header = Buffer.alloc(8)
        header[0] = 1
        header.writeUInt32BE(0xffffffff, 4)
        res.write(header)
        const line = Buffer.from(`${'INFO loading weights '.repeat(50)}\n`.repeat(64))
        // as fast as the reader takes it, up to 400 MB
        const more = (): void => {
          while (sent < 400 * 1024 * 1024) {
            sent += line.length
            if (!res.write(line)) return void res.once('drain', more)
          }
        }
        more()
        return true
      }
      return false
    })
    const run = await watch('10s')
    console.log(
      `log frame claiming 4 GB: ${Math.round(sent / 1024 / 1024)} MB sent, peak ${Math.round(run.peakRssMb)} MB, ` +
        `exit at ${(run.exitAtMs / 1000).toFixed(1)} s for 10 s`
    )
    noStackTrace(run.stdout)
    expect(run.outputs.reason).toBe('timeout')
    expectEndedByDeadline(run, 10_000)
    // the frame's bytes were written to the log as they came: its last lines are the container's
    expect(run.stdout).toContain('INFO loading weights')
    expect(run.peakRssMb).toBeLessThan(200)
  }, 90_000)
})

describe('a job-end stop the engine refuses or never answers', () => {
  const saved = (timeoutMs = 10_000) =>
    stateOf({
      kind: 'container',
      container: NAME,
      socket: engine?.host.slice('unix://'.length),
      timeoutMs,
      logLines: 5
    })
  const running = (res: Parameters<typeof json>[0]): boolean => json(res, 200, inspected(NAME))

  it('a socket proxy answering 403 to POST /stop is reported as such', async () => {
    engine = await scriptedEngine((req, res) => {
      if (req.url === `/containers/${NAME}/json`) return running(res)
      if (req.url?.includes('/stop'))
        return json(res, 403, { message: 'authorization denied by plugin: POST /stop is forbidden' })
      return false
    })
    const p = await runMeasured({}, postEnv(), { entry: post })
    noStackTrace(p.stdout)
    expect(p.stdout).toMatch(/its engine answered the stop with HTTP 403: authorization denied by plugin/)
    expect(p.stdout).not.toMatch(/still running after SIGTERM and SIGKILL/)
    expect(p.summary).toMatch(/not stopped: its engine answered the stop with HTTP 403/)
  }, 60_000)

  it.each([
    ['the stop never answers', 'POST /containers/model/stop', false],
    ['the whole engine hangs', 'GET /containers/model/json', true]
  ])(
    'cancelled while %s: ended within a second of the cancel, saying so',
    async (_, hangsAt, allHangs) => {
      engine = await scriptedEngine((req, res) => {
        if (`${req.method} ${req.url}`.startsWith(hangsAt) || (allHangs && req.url !== '/_ping')) return true
        if (req.url === `/containers/${NAME}/json`) return running(res)
        return false
      })
      let signalledAt = 0
      const p = await runMeasured({}, postEnv(), {
        entry: post,
        onStart: (child) =>
          void engine?.until(hangsAt).then(() => {
            signalledAt = performance.now()
            child.kill('SIGTERM')
          })
      })
      // from the signal to the step's end (its output closed)
      const afterSignal = performance.now() - signalledAt
      console.log(`cancelled stop, ${hangsAt}: ended ${(afterSignal / 1000).toFixed(2)} s after SIGTERM`)
      noStackTrace(p.stdout)
      expect(p.stdout).toMatch(/did not answer within a second of the cancel/)
      expect(p.stdout).not.toMatch(/The operation was aborted due to timeout/)
      expect(afterSignal).toBeLessThan(1_000 + 1_500 * p.stretch)
    },
    60_000
  )

  function postEnv(): Record<string, string> {
    const env: Record<string, string> = { DOCKER_HOST: engine?.host ?? '' }
    for (const [k, v] of Object.entries(saved())) env[`STATE_${k}`] = v
    return env
  }
})

describe('Docker in Docker: the engine in another pid namespace', () => {
  it.each([
    ['1', false],
    ["a stranger's here", true]
  ])(
    'the engine gives pid %s: a stranger answering on the port is not the container, its environment not reported',
    async (_, strangersPid) => {
      const port = await freePort()
      const cli = new URL('../../dist/cli.js', import.meta.url).pathname
      // a stranger on this machine serving the model on the URL's port
      const stranger = spawn(
        process.execPath,
        [cli, 'simulate', '--engine', 'vllm', '--model', 'kimi', '--port', `${port}`, '--load', '0s'],
        {
          stdio: 'ignore',
          env: { PATH: process.env.PATH, HOME: box.dir(), XDG_CACHE_HOME: box.dir(), STRANGER_SECRET: 'stranger-value' }
        }
      )
      box.pids.push(stranger.pid as number)
      await untilAnswers(port)
      const pid = strangersPid ? (stranger.pid as number) : 1
      engine = await scriptedEngine((req, res) => {
        if (req.url === `/containers/${NAME}/json`)
          return json(res, 200, inspected(NAME, { Pid: pid }, { Config: { Tty: false, Env: ['MODEL_OF=container'] } }))
        if (req.url?.includes('/top'))
          return json(res, 200, { Titles: ['PID'], Processes: [['1'], [`${stranger.pid}`]] })
        return false
      })
      const run = await runMeasured(
        {
          url: `http://127.0.0.1:${port}/v1/models`,
          model: 'kimi',
          container: NAME,
          interval: '200ms',
          timeout: '15s',
          'env-report': 'STRANGER_SECRET,MODEL_OF',
          'history-file': ''
        },
        { DOCKER_HOST: engine.host }
      )
      noStackTrace(run.stdout)
      expect(run.outputs.ready).toBe('false')
      expect(run.outputs.reason).toBe('wrong-server')
      expect(run.stdout).toMatch(/another pid namespace \(Docker in Docker\)/)
      expect(run.outputs.pid ?? '').not.toBe(String(pid))
      // the container's own creation environment, never the stranger's
      expect(run.stdout).toContain('MODEL_OF=container')
      expect(run.stdout).not.toContain('stranger-value')
    },
    60_000
  )
})

/** Until something answers HTTP on 127.0.0.1:`port` (at most 20 s). */
async function untilAnswers(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/v1/models`).then(
      () => true,
      () => false
    )
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`nothing answers on port ${port}`)
}
