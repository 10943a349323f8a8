import type { RequestListener } from 'node:http'
import { BODY_CAP_BYTES, createProber, type Prober } from '../../../src/http/probe.js'
import { freePort } from '../../../src/simulator/server.js'
import { setUpUndici } from '../../../src/http/undici-parts.js'
import { hostOf, loopback } from '../../helpers/loopback.js'
import { HANG_MS } from '../../helpers/bounds.js'

// As the gate does before its first request.
beforeAll(setUpUndici)

const net = loopback()
const probers: Prober[] = []
afterEach(async () => {
  await Promise.all(probers.splice(0).map((p) => p.close()))
})

/** `handler` on loopback; returns its `host:port`. */
async function serve(handler: RequestListener, host = '127.0.0.1'): Promise<string> {
  return hostOf(await net.http(handler, host))
}

function prober(url: string, headers: Record<string, string> = {}): Prober {
  const p = createProber({ url: new URL(url), headers })
  probers.push(p)
  return p
}

describe('probe against real local servers', () => {
  it("reads status, content type, body and the answer's header names, and sends the configured headers", async () => {
    let seen: Record<string, unknown> = {}
    const host = await serve((req, res) => {
      seen = req.headers
      res
        .writeHead(200, { 'content-type': 'application/json', 'X-TRTLLM-Server-State': 'ready' })
        .end('{"object":"list","data":[]}')
    })
    const result = await prober(`http://${host}/v1/models`, { authorization: 'Bearer sk-1' }).probe(2_000)
    expect(result).toEqual({
      kind: 'http',
      status: 200,
      contentType: 'application/json',
      body: '{"object":"list","data":[]}',
      json: { object: 'list', data: [] },
      truncated: false,
      headerNames: expect.arrayContaining(['content-type', 'x-trtllm-server-state']) as unknown
    })
    expect(seen).toMatchObject({ authorization: 'Bearer sk-1', 'user-agent': 'wait-for-model' })
  })

  it('reports connection refused when nothing listens', async () => {
    const port = await freePort()
    expect(await prober(`http://127.0.0.1:${port}/`).probe(2_000)).toMatchObject({
      kind: 'error',
      code: 'ECONNREFUSED'
    })
  })

  it('gives up on a server that accepts and never answers, within the time limit', async () => {
    const host = await serve(() => undefined)
    const started = performance.now()
    const result = await prober(`http://${host}/`).probe(300)
    expect(result).toMatchObject({ kind: 'error', code: 'TIMEOUT', message: 'no answer within 300ms' })
    expect(result).not.toHaveProperty('status', 200)
    // cut at its limit, not at undici's own (300 s for the headers): only a wait for that runs this long
    expect(performance.now() - started).toBeLessThan(HANG_MS)
  })

  it('gives up on a body that never ends, keeping the status', async () => {
    const host = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"data":[')
    })
    expect(await prober(`http://${host}/`).probe(300)).toMatchObject({ kind: 'error', code: 'TIMEOUT', status: 200 })
  })

  it('reads at most the cap of a huge body, and says it was cut', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a')
    let written = 0
    const host = await serve((_req, res) => {
      res.writeHead(200)
      const pump = (): void => {
        while (written < 64 * BODY_CAP_BYTES && res.write(chunk)) written += chunk.length
        if (written < 64 * BODY_CAP_BYTES) res.once('drain', pump)
        else res.end()
      }
      pump()
    })
    const result = await prober(`http://${host}/`).probe(5_000)
    expect(result).toMatchObject({ kind: 'http', status: 200, truncated: true })
    expect(result.kind === 'http' && result.body.length).toBe(BODY_CAP_BYTES)
    expect(written).toBeLessThan(64 * BODY_CAP_BYTES)
  })

  it('reports a reset connection', async () => {
    const host = await serve((req) => req.socket.destroy())
    expect(await prober(`http://${host}/`).probe(2_000)).toMatchObject({
      kind: 'error',
      code: expect.stringMatching(/ECONNRESET|UND_ERR_SOCKET/)
    })
  })

  it('reports an untrusted certificate with its TLS code', async () => {
    const host = hostOf(await net.https((_req, res) => res.end('{}')))
    expect(await prober(`https://${host}/`).probe(2_000)).toMatchObject({
      kind: 'error',
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT'
    })
  })

  it('decodes non-UTF-8 bytes without throwing', async () => {
    const host = await serve((_req, res) => res.end(Buffer.from([0xff, 0xfe, 0x41])))
    expect(await prober(`http://${host}/`).probe(2_000)).toMatchObject({ kind: 'http', body: '\ufffd\ufffdA' })
  })

  it('follows a redirect on the same origin with the credentials, and one to another origin without them', async () => {
    const seen: Array<[string, Record<string, unknown>]> = []
    const other = await serve((req, res) => {
      seen.push([`other ${req.url}`, req.headers])
      res.end('{}')
    }, '127.0.0.2')
    const host = await serve((req, res) => {
      seen.push([`first ${req.url}`, req.headers])
      res
        .writeHead(req.url === '/start' ? 301 : 308, {
          location: req.url === '/start' ? '/moved' : `http://${other}/final`
        })
        .end('moved')
    })
    const result = await prober(`http://${host}/start`, {
      authorization: 'Bearer sk-1',
      'x-api-key': 'k-2',
      'x-trace': 't'
    }).probe(2_000)
    expect(result).toMatchObject({ kind: 'http', status: 200, redirectedTo: `http://${other}/final` })
    expect(seen.map(([at]) => at)).toEqual(['first /start', 'first /moved', 'other /final'])
    expect(seen[1][1]).toMatchObject({ authorization: 'Bearer sk-1', 'x-api-key': 'k-2' })
    expect(seen[2][1]).toMatchObject({ 'x-trace': 't' })
    expect(seen[2][1]).not.toHaveProperty('authorization')
    expect(seen[2][1]).not.toHaveProperty('x-api-key')
  })

  it('refuses a redirect to a scheme other than http(s)', async () => {
    const host = await serve((_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end())
    expect(await prober(`http://${host}/`).probe(2_000)).toMatchObject({
      kind: 'error',
      code: 'BAD_REDIRECT',
      status: 302
    })
  })

  it.each([
    [429, '7', 7_000],
    [503, '0', 0],
    [500, '7', undefined],
    [429, 'soon', undefined]
  ])('reads Retry-After on %d (%p)', async (status, value, ms) => {
    const host = await serve((_req, res) => res.writeHead(status, { 'retry-after': value }).end())
    const result = await prober(`http://${host}/`).probe(2_000)
    expect(result.kind === 'http' && result.retryAfterMs).toBe(ms)
  })
})
