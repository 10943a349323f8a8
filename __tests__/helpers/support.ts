/** Shared by the end-to-end suites: the packaged action, real loopback servers, and what to read from a run. */
import { createServer, type RequestListener, type Server } from 'node:http'
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'
import { type ActionRun, runAction } from '../../src/action/packaged-run.js'

export const entry = new URL('../../dist/index.js', import.meta.url).pathname
const peakRssHook = new URL('../fixtures/peak-rss.mjs', import.meta.url).pathname

/** The `::error::` lines of a run's stdout. */
export const errors = (stdout: string): string[] => stdout.split('\n').filter((l) => l.startsWith('::error::'))

/** A set of servers one test starts on loopback and closes when it is done. */
export class Loopback {
  private readonly open: Array<Server | NetServer> = []
  private readonly sockets = new Set<Socket>()

  /** An HTTP server; returns `http://host:port`. */
  async http(handler: RequestListener, host = '127.0.0.1'): Promise<string> {
    return this.listen(createServer(handler), host, 'http')
  }

  /** A raw TCP server, for answers no HTTP library would send; returns `http://host:port`. */
  async tcp(onSocket: (socket: Socket) => void, host = '127.0.0.1'): Promise<string> {
    return this.listen(createNetServer(onSocket), host, 'http')
  }

  /** Any server (an HTTPS one, a proxy); returns `scheme://host:port`. */
  async listen(server: Server | NetServer, host: string, scheme: string): Promise<string> {
    this.open.push(server)
    server.on('connection', (socket: Socket) => {
      // a socket nobody reads never sees the client go, and would keep close() waiting
      this.sockets.add(socket)
      // the action resets connections it gives up on; a raw socket's error would otherwise be thrown here
      socket.on('error', () => undefined)
    })
    await new Promise<void>((resolve) => server.listen(0, host, resolve))
    const { port } = server.address() as AddressInfo
    return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await Promise.all(this.open.splice(0).map((s) => new Promise((r) => s.close(r))))
  }
}

export interface MeasuredRun extends ActionRun {
  /** Peak resident memory of the action's process, in MB. */
  peakRssMb: number
}

/** Runs dist/index.js with these inputs and measures the process's peak memory. */
export async function runMeasured(
  inputs: Record<string, string>,
  env: Record<string, string> = {}
): Promise<MeasuredRun> {
  const run = await runAction({ entry, inputs, env: { NODE_OPTIONS: `--import ${peakRssHook}`, ...env } })
  const kb = /peak-rss-kb=(\d+)/.exec(run.stderr)
  if (!kb) throw new Error(`no peak-rss line in stderr: ${run.stderr}`)
  return { ...run, peakRssMb: Number(kb[1]) / 1024 }
}
