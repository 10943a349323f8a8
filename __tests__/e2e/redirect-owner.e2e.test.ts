import { runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { loopback, redirectorScript } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors } from '../helpers/support.js'

/**
 * Readiness from the watched server only, also through redirects (issue 26, item 8), through dist/index.js: the
 * server `start` launches redirects its model list to another loopback server, and the ownership check must ask
 * who holds the port that finally answered, not the URL's.
 */
const box = sandbox('wfm-redirect-owner-e2e-')
const net = loopback()
afterAll(() => net.close())

const MODELS = JSON.stringify({ data: [{ id: 'kimi' }] })

/**
 * A `start` command: a node server on `port` whose /v1/models redirects (302) to `to`; with `alsoListen`, the
 * same process also serves the model list on that port (a redirect to another port of its own).
 */
const redirector = (port: number, to: string, alsoListen?: number): string =>
  `exec node -e ${JSON.stringify(redirectorScript(port, to, alsoListen, MODELS))}`

async function act(port: number, start: string, inputs: Record<string, string> = {}, env: Record<string, string> = {}) {
  const run = await runAction({
    env,
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      start,
      'log-file': box.path('server.log'),
      interval: '200ms',
      timeout: '20s',
      'history-file': '',
      ...inputs
    }
  })
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  return run
}

describe('readiness through a redirect', () => {
  it('the started server redirects to a foreign loopback server listing the model: not ready, wrong-server naming the foreign port', async () => {
    // the foreign server is this test's own process: neither the started server nor one of its descendants
    const foreign = await net.http((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS)
    )
    const foreignPort = Number(new URL(foreign).port)
    const port = await freePort()
    const run = await act(port, redirector(port, `${foreign}/v1/models`))
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'wrong-server' })
    const [error] = errors(run.stdout)
    expect(error).toContain(`http://127.0.0.1:${port} redirected to http://127.0.0.1:${foreignPort}`)
    expect(error).toContain(`Port ${foreignPort} is answered by process ${process.pid} (`)
    expect(error).toContain(`not by the server being watched (pid ${run.outputs.pid})`)
    expect(run.summary).toContain('wrong-server')
  })

  it('the started server redirects to another machine: not ready, wrong-server saying so', async () => {
    // "another machine" is a name the loopback proxy answers for: no traffic leaves this machine
    let proxied = ''
    const proxy = await net.http((req, res) => {
      proxied = req.url ?? ''
      res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS)
    })
    const port = await freePort()
    const run = await act(port, redirector(port, 'http://models.example/v1/models'), {}, { HTTP_PROXY: proxy })
    expect(proxied).toBe('http://models.example/v1/models')
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'wrong-server' })
    expect(errors(run.stdout)[0]).toContain(
      `http://127.0.0.1:${port} redirected to http://models.example, which is not this machine`
    )
  })

  it('a redirect to another port of the started server itself is its own answer: ready', async () => {
    const [port, second] = [await freePort(), await freePort()]
    const run = await act(port, redirector(port, `http://127.0.0.1:${second}/v1/models`, second))
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
  })

  it('port-check: false (a proxy in front) leaves the redirected answer alone: ready', async () => {
    const foreign = await net.http((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS)
    )
    const port = await freePort()
    const run = await act(port, redirector(port, `${foreign}/v1/models`), { 'port-check': 'false' })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
  })
})
