import { spawn } from 'node:child_process'
import { runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors, fakeServer } from '../helpers/support.js'

/**
 * With the URL alone, through dist/index.js: a server an earlier job left on the port (another RUNNER_TRACKING_ID,
 * started before this step) is never this job's ready server; one this job started, or a system service, is.
 */
const box = sandbox('wfm-leftover-e2e-')
const JOB = 'github_this-job'

/** A model server listening on a free port before the action starts, with `trackingId` in its environment (or none). */
async function serverWith(trackingId: string | undefined): Promise<{ port: number; pid: number }> {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.RUNNER_TRACKING_ID
  if (trackingId !== undefined) env.RUNNER_TRACKING_ID = trackingId
  const child = spawn(process.execPath, [fakeServer, String(port), 'loads', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'ignore']
  })
  box.pids.push(child.pid as number)
  // listening once it says its startup is complete
  await new Promise<void>((resolve, reject) => {
    child.once('exit', () => reject(new Error('the server exited')))
    child.stdout.on('data', (d: Buffer) => d.toString().includes('Application startup complete') && resolve())
  })
  return { port, pid: child.pid as number }
}

const act = (port: number, env: Record<string, string> = { RUNNER_TRACKING_ID: JOB }) =>
  runAction({
    env,
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: '/shared/kimi-k2.5-int4',
      interval: '200ms',
      timeout: '20s',
      'history-file': ''
    }
  })

describe('a server an earlier job left on the port', () => {
  it('another job tracking id, started before this step: not ready, leftover-server naming it', async () => {
    const { port, pid } = await serverWith('github_an-earlier-job')
    const run = await act(port)
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'leftover-server' })
    const [error] = errors(run.stdout)
    expect(error).toContain(`Port ${port} is answered by process ${pid} (`)
    expect(error).toContain('a server an earlier job left running')
    expect(error).toContain(`wait-for-model stop --pid ${pid}`)
    expect(run.summary).toContain('leftover-server')
  })

  it("this job's own tracking id (a server an earlier step started): ready", async () => {
    const { port } = await serverWith(JOB)
    const run = await act(port)
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
  })

  it('no tracking id (a system service): ready, no notice', async () => {
    const { port } = await serverWith(undefined)
    const run = await act(port)
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
    expect(run.stdout).not.toContain('::notice')
  })

  it('not on a runner (no tracking id in the step): ready as before, even from another job', async () => {
    const { port } = await serverWith('github_an-earlier-job')
    const run = await act(port, {})
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
  })

  it('on GitHub Actions without a tracking id (process clean-up off): ready, and a notice says so once', async () => {
    const { port } = await serverWith('github_an-earlier-job')
    const run = await act(port, { GITHUB_ACTIONS: 'true' })
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
    const notices = run.stdout.split('\n').filter((l) => l.includes('No RUNNER_TRACKING_ID'))
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(/^::notice title=Could not tell which job started the model server::/)
  })

  it('port-check false: the check is off', async () => {
    const { port } = await serverWith('github_an-earlier-job')
    const run = await runAction({
      env: { RUNNER_TRACKING_ID: JOB },
      entry,
      inputs: {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: '/shared/kimi-k2.5-int4',
        timeout: '20s',
        'history-file': '',
        'port-check': 'false'
      }
    })
    expect(run.outputs).toMatchObject({ ready: 'true' })
  })
})
