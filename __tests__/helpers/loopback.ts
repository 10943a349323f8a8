/** Every test's servers on loopback: one place that starts them on a free port and closes them, sockets and all. */
import { readFileSync } from 'node:fs'
import { createServer, type RequestListener, type Server } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'

const fixtures = new URL('../fixtures/', import.meta.url)
/** The path of the certificate `https()` servers present: self-signed, for 127.0.0.1 (and so a CA of its own). */
export const selfSignedCert = new URL('self-signed.crt', fixtures).pathname

/**
 * A path no other test's wait asks for: a test that counts its server's requests counts those for this path only.
 * The kernel may give a new server a port that another test's server had a moment ago, and that test's wait, in
 * another jest worker, may still be probing it.
 */
export const ownPath = (): string => `/t-${process.pid}-${Math.random().toString(36).slice(2)}`

/** A set of servers one test (or one suite) starts on loopback and closes when it is done. */
export class Loopback {
  private readonly open: Array<Server | NetServer> = []
  private readonly sockets = new Set<Socket>()

  /** An HTTP server; returns `http://host:port`. */
  async http(handler: RequestListener, host = '127.0.0.1'): Promise<string> {
    return this.listen(createServer(handler), host, 'http')
  }

  /** An HTTPS server with the self-signed certificate of the fixtures (`selfSignedCert`); returns `https://host:port`. */
  async https(handler: RequestListener, host = '127.0.0.1'): Promise<string> {
    const tls = { key: readFileSync(new URL('self-signed.key', fixtures)), cert: readFileSync(selfSignedCert) }
    return this.listen(createTlsServer(tls, handler), host, 'https')
  }

  /** A raw TCP server, for answers no HTTP library would send (or none at all); returns `http://host:port`. */
  async tcp(onSocket: (socket: Socket) => void = () => undefined, host = '127.0.0.1', port = 0): Promise<string> {
    return this.listen(createNetServer(onSocket), host, 'http', port)
  }

  /** Any server (an HTTPS one, a proxy), on `port` or a free one; returns `scheme://host:port`. */
  async listen(server: Server | NetServer, host: string, scheme: string, port = 0): Promise<string> {
    this.open.push(server)
    server.on('connection', (socket: Socket) => {
      // a socket nobody reads never sees the client go, and would keep close() waiting
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
      // the action resets connections it gives up on; a raw socket's error would otherwise be thrown here
      socket.on('error', () => undefined)
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => {
        server.off('error', reject)
        resolve()
      })
    })
    const address = server.address() as AddressInfo
    return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${address.port}`
  }

  /** Closes every server and drops its connections; a server closed already is fine. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    this.sockets.clear()
    await Promise.all(this.open.splice(0).map((s) => new Promise((r) => (s.listening ? s.close(r) : r(undefined)))))
  }
}

/** A Loopback whose servers are closed after each test, or with `'file'` once the suite is over. */
export function loopback(scope: 'test' | 'file' = 'test'): Loopback {
  const net = new Loopback()
  if (scope === 'test') afterEach(() => net.close())
  else afterAll(() => net.close())
  return net
}

/** `host:port` of a URL the helpers return. */
export const hostOf = (url: string): string => new URL(url).host

/** The port of a URL the helpers return. */
export const portOf = (url: string): number => Number(new URL(url).port)

/**
 * The source of a node server (`node -e`) on loopback `port` that answers every request with a 302 to `to`; with
 * `alsoListen`, the same process serves `models` (a model list) on that port too: a redirect to a port of its own.
 */
export function redirectorScript(
  port: number,
  to: string,
  alsoListen?: number,
  models = '{"data":[{"id":"kimi"}]}'
): string {
  return [
    "const http = require('node:http')",
    `http.createServer((q, s) => s.writeHead(302, { location: ${JSON.stringify(to)} }).end()).listen(${port}, '127.0.0.1')`,
    alsoListen === undefined
      ? ''
      : `http.createServer((q, s) => s.writeHead(200, { 'content-type': 'application/json' }).end(${JSON.stringify(models)})).listen(${alsoListen}, '127.0.0.1')`
  ].join(';')
}
