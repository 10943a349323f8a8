import { readFileSync } from 'node:fs'
import { createServer, type RequestListener, type Server } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { BODY_CAP_BYTES, createProber, type Prober } from '../src/probe.js'
import { freePort } from '../src/simulator.js'

const servers: Server[] = []
const probers: Prober[] = []
afterEach(async () => {
  await Promise.all(probers.splice(0).map((p) => p.close()))
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

async function serve(handler: RequestListener, server: Server = createServer(handler)): Promise<string> {
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `127.0.0.1:${(server.address() as AddressInfo).port}`
}

function prober(url: string, headers: Record<string, string> = {}): Prober {
  const p = createProber({ url: new URL(url), headers })
  probers.push(p)
  return p
}

describe('probe against real local servers', () => {
  it('reads status, content type and body, and sends the configured headers', async () => {
    let seen: Record<string, unknown> = {}
    const host = await serve((req, res) => {
      seen = req.headers
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}')
    })
    const result = await prober(`http://${host}/v1/models`, { authorization: 'Bearer sk-1' }).probe(2_000)
    expect(result).toEqual({ kind: 'http', status: 200, contentType: 'application/json', body: '{"object":"list","data":[]}', truncated: false })
    expect(seen).toMatchObject({ authorization: 'Bearer sk-1', 'user-agent': 'wait-for-model' })
  })

  it('reports connection refused when nothing listens', async () => {
    const port = await freePort()
    expect(await prober(`http://127.0.0.1:${port}/`).probe(2_000)).toMatchObject({ kind: 'error', code: 'ECONNREFUSED' })
  })

  it('gives up on a server that accepts and never answers, within the time limit', async () => {
    const host = await serve(() => undefined)
    const started = performance.now()
    const result = await prober(`http://${host}/`).probe(300)
    expect(result).toMatchObject({ kind: 'error', code: 'TIMEOUT', message: 'no answer within 300ms' })
    expect(result).not.toHaveProperty('status', 200)
    expect(performance.now() - started).toBeLessThan(2_000)
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
    expect(await prober(`http://${host}/`).probe(2_000)).toMatchObject({ kind: 'error', code: expect.stringMatching(/ECONNRESET|UND_ERR_SOCKET/) })
  })

  it('reports an untrusted certificate with its TLS code', async () => {
    const dir = new URL('./fixtures/', import.meta.url)
    const tls = createTlsServer({ key: readFileSync(new URL('self-signed.key', dir)), cert: readFileSync(new URL('self-signed.crt', dir)) }, (_req, res) =>
      res.end('{}')
    )
    const host = await serve(() => undefined, tls)
    expect(await prober(`https://${host}/`).probe(2_000)).toMatchObject({ kind: 'error', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })
  })

  it('decodes non-UTF-8 bytes without throwing', async () => {
    const host = await serve((_req, res) => res.end(Buffer.from([0xff, 0xfe, 0x41])))
    expect(await prober(`http://${host}/`).probe(2_000)).toMatchObject({ kind: 'http', body: '\ufffd\ufffdA' })
  })
})
