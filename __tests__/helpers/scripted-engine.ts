/**
 * A scripted Docker engine: a real HTTP server on a unix socket in a temporary folder (DOCKER_HOST points to it),
 * answering each request as the test's script says, to play engines that misbehave (errors, garbage, floods, hangs)
 * or that run elsewhere (Docker in Docker). Requests it was sent are kept, in order.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** One request's answer: false from a script falls back to the engine's ordinary one (ping, an empty top). */
export type Script = (req: IncomingMessage, res: ServerResponse) => boolean

export interface ScriptedEngine {
  host: string
  /** `GET /containers/x/json` and so on, as sent. */
  requests: string[]
  /** Resolves once a request whose `METHOD path` starts with `prefix` has come. */
  until(prefix: string): Promise<void>
  stop(): Promise<void>
}

/** A container's inspect, as Docker answers it, with `more` over it. */
export function inspected(name: string, state: Record<string, unknown> = {}, more: Record<string, unknown> = {}) {
  return {
    Id: 'c0ffee'.padEnd(64, '0'),
    Name: `/${name}`,
    Created: new Date(Date.now() - 60_000).toISOString(),
    RestartCount: 0,
    State: {
      Status: 'running',
      Running: true,
      Restarting: false,
      Pid: 0,
      ExitCode: 0,
      StartedAt: new Date(Date.now() - 60_000).toISOString(),
      ...state
    },
    Config: { Tty: false, Env: ['PATH=/usr/bin'] },
    HostConfig: { AutoRemove: false },
    ...more
  }
}

export async function scriptedEngine(script: Script): Promise<ScriptedEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'se-'))
  const socket = join(dir, 'd.sock')
  const requests: string[] = []
  const waiting: Array<{ prefix: string; resolve(): void }> = []
  const open = new Set<ServerResponse>()
  const server: Server = createServer((req, res) => {
    const line = `${req.method} ${req.url}`
    requests.push(line)
    for (const w of waiting.splice(0))
      if (line.startsWith(w.prefix)) w.resolve()
      else waiting.push(w)
    open.add(res)
    res.on('close', () => open.delete(res))
    if (script(req, res) === true) return
    if (req.url === '/_ping') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('OK')
    if (req.url?.includes('/top'))
      return void res.writeHead(200).end(JSON.stringify({ Titles: ['PID'], Processes: [] }))
    if (req.url?.includes('/logs')) return void res.writeHead(200).end()
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no such container"}')
  })
  await new Promise<void>((resolve) => server.listen(socket, resolve))
  return {
    host: `unix://${socket}`,
    requests,
    until: (prefix) =>
      requests.some((r) => r.startsWith(prefix))
        ? Promise.resolve()
        : new Promise((resolve) => waiting.push({ prefix, resolve })),
    stop: async () => {
      for (const res of open) res.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Answers `res` with JSON; true, as a script that answered says. */
export function json(res: ServerResponse, status: number, body: unknown): true {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(typeof body === 'string' ? body : JSON.stringify(body))
  return true
}
