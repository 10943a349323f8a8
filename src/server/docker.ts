/**
 * A small client of the Docker Engine API (and Podman's compatible one) over its unix socket. Every request is
 * bounded (its own timeout, and the caller's signal), and answers data, never words.
 */
import { Agent, request, setUpUndici } from '../http/undici-parts.js'
import { InputError } from '../inputs/input-error.js'
import { printable } from '../runtime/text.js'

/** One request's bound unless the caller gives another: the engine answers an inspect in milliseconds. */
const REQUEST_MS = 5_000
/** An answer's body is read up to this much (an inspect is a few KB; `top` of a large container tens of KB). */
const MAX_BODY_BYTES = 4 * 1024 * 1024

/** What the wait reads of `GET /containers/{id}/json`. */
export interface ContainerState {
  id: string
  name: string
  running: boolean
  status: string
  /** The main process's host pid; 0 once it has exited. */
  pid: number
  exitCode: number
  oomKilled: boolean
  /** The engine's own error (a runtime that could not start the command). */
  error: string
  /** Undefined before it ever started. */
  startedAtMs?: number
  /** `starting`, `healthy`, `unhealthy`; undefined without a HEALTHCHECK. */
  health?: string
  /** The last health check's output. */
  healthLog?: string
  tty: boolean
  env: string[]
  /** `docker run --rm`: the engine removes it once it has stopped. */
  autoRemove: boolean
  /** How many times the engine has restarted it (a restart policy); `restarting` while it waits to do it again. */
  restartCount: number
  restarting: boolean
  /** Its addresses on the engine's networks (none with `--network host`). */
  addresses: string[]
  /** When the engine created it (wall clock), where it says. */
  createdAtMs?: number
}

/** An engine's answer that cannot be used (an HTTP error, not JSON, not a container, too large, none in time). */
export class EngineError extends Error {}

/** The engine's socket from DOCKER_HOST (`unix://` only: a TCP engine would be another host's), else the default. */
export function dockerSocket(env: NodeJS.ProcessEnv): string {
  const host = env.DOCKER_HOST?.trim()
  if (host === undefined || host === '') return '/var/run/docker.sock'
  if (host.startsWith('unix://') && host.length > 'unix://'.length) return host.slice('unix://'.length)
  throw new InputError('container', {
    problem: `needs the Docker engine on a unix socket, and DOCKER_HOST is "${printable(host)}"`,
    form: 'DOCKER_HOST=unix:///path/to/docker.sock, or no DOCKER_HOST for /var/run/docker.sock'
  })
}

interface Call {
  signal?: AbortSignal
  timeoutMs?: number
}

export class DockerEngine {
  private readonly agent: InstanceType<typeof Agent>
  /** Whether the engine is Podman (its answers carry `Libpod-Api-Version`); undefined until one has come. */
  private podman: boolean | undefined

  constructor(readonly socketPath: string) {
    // the job-end step sends no other request: the dispatchers' API is set up here too
    setUpUndici()
    this.agent = new Agent({ connect: { socketPath }, pipelining: 0 })
  }

  /** Whether an engine answers, or why not (`ENOENT`, `ECONNREFUSED`, an HTTP status). */
  async ping(call: Call = {}): Promise<string | undefined> {
    try {
      const r = await this.send('GET', '/_ping', call)
      return r.status === 200 ? undefined : `it answered HTTP ${r.status}`
    } catch (e) {
      const err = e as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException }
      return err.cause?.code ?? err.code ?? err.message
    }
  }

  /** The container's state, or undefined when the engine knows no such container. */
  async inspect(id: string, call: Call = {}): Promise<ContainerState | undefined> {
    const r = await this.send('GET', `/containers/${encodeURIComponent(id)}/json`, call)
    if (r.status === 404 || gone(r)) return undefined
    if (r.status !== 200) throw new EngineError(`answered its inspect with HTTP ${r.status}${said(r.body)}`)
    let parsed: unknown
    try {
      parsed = JSON.parse(r.body)
    } catch {
      throw new EngineError(`answered its inspect with something that is not JSON${said(r.body)}`)
    }
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      Array.isArray(parsed) ||
      typeof (parsed as Inspected).Id !== 'string'
    )
      throw new EngineError(`answered its inspect with no container (${printable(r.body.slice(0, 40))})`)
    return containerState(parsed as Inspected)
  }

  /**
   * The host pids of the container's processes; empty once it is not running. Docker runs the host's `ps` with
   * `ps_args`; Podman reads `ps_args` as its own descriptors (`hpid`: the host's pid) and runs anything else as `ps`
   * inside the container (the container's pids, or nothing where the image has no `ps`).
   */
  async pids(id: string, call: Call = {}): Promise<number[]> {
    if (this.podman === undefined) await this.ping(call)
    const [args, title] = this.podman === true ? ['hpid', 'HPID'] : ['-eo%20pid', 'PID']
    const r = await this.send('GET', `/containers/${encodeURIComponent(id)}/top?ps_args=${args}`, call)
    if (r.status !== 200) return []
    let top: { Titles?: string[]; Processes?: string[][] }
    try {
      top = JSON.parse(r.body) as typeof top
    } catch {
      return []
    }
    const column = (top.Titles ?? []).findIndex((t) => t.trim().toUpperCase() === title)
    if (column < 0) return []
    return (top.Processes ?? []).map((p) => Number(p[column])).filter((p) => Number.isInteger(p) && p > 0)
  }

  /**
   * `docker stop`: SIGTERM (or the image's StopSignal), SIGKILL after `seconds`; undefined once it is not running,
   * else what the engine answered instead (a socket proxy's 403).
   */
  async stop(id: string, seconds: number, call: Call = {}): Promise<string | undefined> {
    const r = await this.send('POST', `/containers/${encodeURIComponent(id)}/stop?t=${Math.ceil(seconds)}`, {
      // the engine answers once the container has stopped: up to `seconds`, and the SIGKILL after
      timeoutMs: seconds * 1000 + 15_000,
      ...call
    })
    // 304: it was not running
    return r.status === 204 || r.status === 304 ? undefined : `answered the stop with HTTP ${r.status}${said(r.body)}`
  }

  /**
   * Follows the container's output from its start, handing each chunk to `out` (demultiplexed when it has no TTY).
   * Settles when the stream ends (the container exited) or the signal aborts; never throws.
   */
  async follow(id: string, tty: boolean, out: (chunk: Buffer) => void, signal: AbortSignal): Promise<void> {
    const demux = tty ? out : demultiplexer(out)
    try {
      const { statusCode, body } = await request(this.agent, {
        method: 'GET',
        origin: 'http://docker',
        path: `/containers/${encodeURIComponent(id)}/logs?follow=1&stdout=1&stderr=1`,
        signal,
        headersTimeout: REQUEST_MS,
        bodyTimeout: 0
      })
      if (statusCode !== 200) return void (await body.dump().catch(() => undefined))
      for await (const chunk of body) demux(chunk as Buffer)
    } catch {
      // aborted, or the engine went away: the state poll tells what became of the container
    }
  }

  close(): void {
    void this.agent.close().catch(() => undefined)
  }

  private async send(method: 'GET' | 'POST', path: string, call: Call): Promise<{ status: number; body: string }> {
    const ms = call.timeoutMs ?? REQUEST_MS
    const timeout = AbortSignal.timeout(ms)
    const signal = call.signal === undefined ? timeout : AbortSignal.any([timeout, call.signal])
    try {
      const { statusCode, headers, body } = await request(this.agent, { method, origin: 'http://docker', path, signal })
      this.podman = headers['libpod-api-version'] !== undefined
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of body) {
        size += (chunk as Buffer).length
        if (size > MAX_BODY_BYTES) {
          body.destroy()
          throw new EngineError(`answered ${method} ${path.split('?')[0]} with more than ${MAX_BODY_BYTES} bytes`)
        }
        chunks.push(chunk as Buffer)
      }
      return { status: statusCode, body: Buffer.concat(chunks).toString('utf8') }
    } catch (e) {
      if (e instanceof EngineError || call.signal?.aborted === true) throw e
      if (timeout.aborted) throw new EngineError(`did not answer ${method} ${path.split('?')[0]} within ${ms / 1000} s`)
      throw e
    }
  }
}

interface Inspected {
  Id?: string
  Name?: string
  Created?: string
  RestartCount?: number
  NetworkSettings?: { IPAddress?: string; Networks?: Record<string, { IPAddress?: string } | null> | null } | null
  State?: {
    Status?: string
    Restarting?: boolean
    Running?: boolean
    Pid?: number
    ExitCode?: number
    OOMKilled?: boolean
    Error?: string
    StartedAt?: string
    Health?: { Status?: string; Log?: { Output?: string }[] }
  }
  Config?: { Tty?: boolean; Env?: string[] | null }
  HostConfig?: { AutoRemove?: boolean }
}

/** Every field read as the type it must have: an engine's answer of another shape gives the neutral value. */
function containerState(c: Inspected): ContainerState {
  const s = object(c.State)
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
  const whole = (v: unknown): number | undefined => (Number.isSafeInteger(v) ? (v as number) : undefined)
  const time = (v: unknown): number | undefined => {
    const at = typeof v === 'string' ? Date.parse(v) : NaN
    // the engine's zero time (0001-01-01) for a container that never started
    return Number.isFinite(at) && at > 0 ? at : undefined
  }
  const checks = object(s.Health).Log
  const last = Array.isArray(checks) ? object(checks.at(-1)) : {}
  // no HEALTHCHECK: Docker has no Health (or `none`), Podman a Health whose Status is ""
  const health = text(object(s.Health).Status)
  const env = object(c.Config).Env
  const net = object(c.NetworkSettings)
  const addresses = [net.IPAddress, ...Object.values(object(net.Networks)).map((n) => object(n).IPAddress)]
  return {
    id: c.Id ?? '',
    name: (text(c.Name) ?? '').replace(/^\//, ''),
    running: s.Running === true,
    status: text(s.Status) ?? 'unknown',
    pid: Math.max(0, whole(s.Pid) ?? 0),
    exitCode: whole(s.ExitCode) ?? 0,
    oomKilled: s.OOMKilled === true,
    error: text(s.Error) ?? '',
    startedAtMs: time(s.StartedAt),
    health: health === undefined || health === '' || health === 'none' ? undefined : health,
    healthLog: text(last.Output)?.trim().slice(0, 500),
    tty: object(c.Config).Tty === true,
    env: Array.isArray(env) ? env.filter((e): e is string => typeof e === 'string') : [],
    autoRemove: object(c.HostConfig).AutoRemove === true,
    restartCount: Math.max(0, whole(c.RestartCount) ?? 0),
    restarting: s.Restarting === true,
    addresses: addresses.filter((a): a is string => typeof a === 'string' && a !== ''),
    createdAtMs: time(c.Created)
  }
}

const object = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {}

/** `: <the engine's message>` of an error answer, one printable line. */
function said(body: string): string {
  let message: unknown = body
  try {
    message = object(JSON.parse(body)).message ?? body
  } catch {
    // not JSON: the text as it came
  }
  const line = printable(String(message).trim().split('\n')[0] ?? '').slice(0, 200)
  return line === '' ? '' : `: ${line}`
}

/**
 * The logs of a container without a TTY: frames of an 8-byte header (stream, three zero bytes, the payload's length
 * big-endian) and the payload. Frames split across chunks are put back together.
 */
export function demultiplexer(out: (chunk: Buffer) => void): (chunk: Buffer) => void {
  // a header split across chunks (at most 7 bytes held); a payload is handed on as it comes, whatever its
  // header claims, so that a frame claiming gigabytes holds no memory
  let header: Buffer = Buffer.alloc(0)
  let payloadLeft = 0
  return (chunk) => {
    let at = 0
    while (at < chunk.length) {
      if (payloadLeft > 0) {
        const part = chunk.subarray(at, at + payloadLeft)
        out(part)
        payloadLeft -= part.length
        at += part.length
        continue
      }
      const need = 8 - header.length
      header = Buffer.concat([header, chunk.subarray(at, at + need)])
      at += Math.min(need, chunk.length - at)
      if (header.length < 8) return
      payloadLeft = header.readUInt32BE(4)
      header = Buffer.alloc(0)
    }
  }
}

/** Podman, in the moment it removes a container (`run --rm`), answers its inspect with HTTP 500 and this cause. */
function gone(r: { status: number; body: string }): boolean {
  if (r.status !== 500) return false
  try {
    return (JSON.parse(r.body) as { cause?: unknown }).cause === 'no such container'
  } catch {
    return false
  }
}
