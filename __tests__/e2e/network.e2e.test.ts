import { createServer, request as httpRequest, type ServerResponse } from 'node:http'
import { connect } from 'node:net'
import { type Loopback, loopback } from '../helpers/loopback.js'
import { ANSWER_TIMEOUT_MS, expectEndedByDeadline } from '../helpers/bounds.js'
import { errors, runMeasured } from '../helpers/support.js'
import { freePort } from '../../src/simulator/server.js'

/**
 * Proxies, loopback and Retry-After, through the packaged action against real local servers. A case that ends
 * ready is bound by that event (its timeout only by a hang); one whose point is what the log says when time runs
 * out gets ANSWER_TIMEOUT_MS, so that a process that starts late on a loaded machine still probes
 * (helpers/bounds.ts).
 */
const READY_TIMEOUT = '30s'
const ANSWER_TIMEOUT = `${ANSWER_TIMEOUT_MS}ms`
const list = (id: string): string => JSON.stringify({ object: 'list', data: [{ id, object: 'model' }] })
const serveList = (_req: unknown, res: ServerResponse): void =>
  void res.writeHead(200, { 'content-type': 'application/json' }).end(list('kimi'))
/** A host name no resolver will look up (a label over 63 characters): reachable only through the proxy. */
const unresolvable = `${'p'.repeat(64)}.internal`

/**
 * A forward proxy that sends everything it is asked for (plain requests and CONNECT tunnels) to the server
 * at `target` (a URL on loopback), and records each request it handles.
 */
async function startProxy(net: Loopback, target: string): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = []
  const { hostname, port: portText } = new URL(target)
  const [host, port] = [hostname.replace(/^\[|\]$/g, ''), Number(portText)]
  const proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    const upstream = httpRequest(
      { host, port, path: new URL(req.url ?? '/').pathname, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
      }
    )
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  proxy.on('connect', (req, client, head) => {
    seen.push(`CONNECT ${req.url}`)
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client).pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  return { url: await net.listen(proxy, '127.0.0.1', 'http'), seen }
}

const net = loopback()

describe('proxy from the environment', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['localhost', '127.0.0.1'],
    ['[::1]', '::1'],
    ['127.0.0.2', '127.0.0.2'],
    // vLLM prints http://0.0.0.0:8000 as its address; connecting there reaches this machine
    ['0.0.0.0', '127.0.0.1'],
    ['[::ffff:127.0.0.1]', '127.0.0.1']
  ])('never sends loopback traffic (%s) through HTTP_PROXY/HTTPS_PROXY', async (name, listenOn) => {
    const server = await net.http(serveList, listenOn)
    const proxy = await startProxy(net, server)
    const url = server.replace(/^(http:\/\/)(\[::1\]|[\d.]+)/, `$1${name}`)
    const run = await runMeasured(
      { url: `${url}/v1/models`, model: 'kimi', timeout: READY_TIMEOUT },
      { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, http_proxy: proxy.url }
    )
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
    expect(proxy.seen).toEqual([])
  })

  it('sends http:// to other hosts through HTTP_PROXY in absolute form, as curl does (no CONNECT)', async () => {
    const server = await net.http(serveList)
    const proxy = await startProxy(net, server)
    const run = await runMeasured(
      { url: `http://${unresolvable}:8000/v1/models`, model: 'kimi', timeout: READY_TIMEOUT },
      { HTTP_PROXY: proxy.url }
    )
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready', 'model-id': 'kimi' })
    // many proxies (Squid's default configuration) refuse CONNECT to ports other than 443
    expect(proxy.seen).toEqual([`GET http://${unresolvable}:8000/v1/models`])
  })

  it('names a proxy that refuses the connection, rather than saying the server refused', async () => {
    const closed = await freePort()
    const run = await runMeasured(
      { url: `http://${unresolvable}:8000/v1/models`, timeout: ANSWER_TIMEOUT },
      { HTTP_PROXY: `http://user:secret@127.0.0.1:${closed}` }
    )
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expect(run.stdout).toMatch(new RegExp(`: the proxy http://127\\.0\\.0\\.1:${closed} refused the connection$`, 'm'))
    expect(run.stdout).not.toMatch(/: connection refused$/m)
    // the runner is told to mask the proxy's credentials (its own lines); nothing else shows them
    expect(run.stdout.replace(/^::add-mask::.*$/gm, '')).not.toMatch(/secret/)
  })

  it('never prints the proxy password from HTTP_PROXY, even when the proxy echoes it in its answer', async () => {
    // a proxy that reads back the credentials it was sent (Proxy-Authorization: Basic user:password), as a
    // misconfigured or hostile one might on its error page
    const proxy = await net.http((req, res) => {
      const sent = Buffer.from(String(req.headers['proxy-authorization'] ?? '').replace(/^Basic /, ''), 'base64')
      res.writeHead(503, { 'content-type': 'text/plain' }).end(`proxy: you are ${sent.toString()}; no upstream`)
    })
    const run = await runMeasured(
      { url: `http://${unresolvable}:8000/v1/models`, timeout: ANSWER_TIMEOUT },
      { HTTP_PROXY: proxy.replace('http://', 'http://alice:hunter2-proxy-e2e@') }
    )
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    // the answer is shown, with the credentials masked; the runner is told to mask them too (its own lines)
    expect(run.stdout).toMatch(/proxy: you are \*\*\*; no upstream/)
    expect(run.stdout).toContain('::add-mask::hunter2-proxy-e2e\n')
    const shown = [run.stdout, run.stderr, run.summary, JSON.stringify(run.outputs)].join('\n')
    expect(shown.replace(/^::add-mask::.*$/gm, '')).not.toMatch(/hunter2|alice:/)
  })

  it('holds the deadline, without a busy loop, when the proxy closes the connection after CONNECT', async () => {
    let connects = 0
    const proxy = await net.tcp((socket) =>
      socket.on('data', (d) => {
        if (d.toString().startsWith('CONNECT ')) connects++
        socket.destroy()
      })
    )
    const run = await runMeasured(
      { url: `https://${unresolvable}/v1/models`, timeout: ANSWER_TIMEOUT, interval: '500ms' },
      { HTTPS_PROXY: proxy }
    )
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expect(run.stdout).toMatch(/the proxy http:\/\/127\.0\.0\.1:\d+ closed the connection before the tunnel was open/)
    expectEndedByDeadline(run, ANSWER_TIMEOUT_MS)
    // one CONNECT per probe (a model list is asked every 250 ms: about 24 in 6 s, fewer on a busy machine): undici
    // alone retries at once, thousands of times a second
    expect(connects).toBeGreaterThanOrEqual(2)
    expect(connects).toBeLessThanOrEqual((2 * ANSWER_TIMEOUT_MS) / 250)
  })

  it('tunnels https to other hosts through HTTPS_PROXY (CONNECT)', async () => {
    const tls = await net.https(serveList)
    const proxy = await startProxy(net, tls)
    const run = await runMeasured(
      { url: `https://${unresolvable}/v1/models`, model: 'kimi', timeout: READY_TIMEOUT, 'insecure-tls': 'true' },
      { HTTPS_PROXY: proxy.url }
    )
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
    expect(proxy.seen).toEqual([`CONNECT ${unresolvable}:443`])
  })

  it('goes direct for hosts in NO_PROXY', async () => {
    const server = await net.http(serveList)
    const proxy = await startProxy(net, server)
    const run = await runMeasured(
      { url: `http://${unresolvable}:8000/v1/models`, timeout: ANSWER_TIMEOUT },
      { HTTP_PROXY: proxy.url, NO_PROXY: `${unresolvable}` }
    )
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expect(run.stdout).toMatch(/: host not found \(DNS\)$/m)
    expect(proxy.seen).toEqual([])
  })
})

describe('Retry-After on a real socket', () => {
  it('is honoured up to 4 intervals, and the action still ends at its deadline', async () => {
    const at: number[] = []
    const server = await net.http((_req, res) => {
      at.push(performance.now())
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '60' }).end('{"error":"Loading model"}')
    })
    // long enough for a late-starting process to send a second probe
    const run = await runMeasured({ url: `${server}/v1/models`, interval: '300ms', timeout: ANSWER_TIMEOUT })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expect(run.stdout).toMatch(/: HTTP 503 Loading model$/m)
    expectEndedByDeadline(run, ANSWER_TIMEOUT_MS)
    // asked for 60 s: waits 4 × 300 ms = 1.2 s between probes instead (a last gap may be cut by the deadline); a
    // busy machine may send one late, by as much again as it stretched the run
    const gaps = at.slice(1).map((t, i) => t - at[i])
    expect(gaps.length).toBeGreaterThanOrEqual(1)
    expect(gaps[0]).toBeGreaterThanOrEqual(1_150)
    for (const gap of gaps) expect(gap).toBeLessThan(1_200 + 1_200 * run.stretch)
    expect(errors(run.stdout)).toHaveLength(1)
  })
})
