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
}

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
    if (r.status !== 200) throw new Error(`inspect answered HTTP ${r.status}`)
    return containerState(JSON.parse(r.body) as Inspected)
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

  /** `docker stop`: SIGTERM (or the image's StopSignal), SIGKILL after `seconds`; true once it is not running. */
  async stop(id: string, seconds: number, call: Call = {}): Promise<boolean> {
    const r = await this.send('POST', `/containers/${encodeURIComponent(id)}/stop?t=${Math.ceil(seconds)}`, {
      ...call,
      // the engine answers once the container has stopped: up to `seconds`, and the SIGKILL after
      timeoutMs: seconds * 1000 + 15_000
    })
    // 304: it was not running
    return r.status === 204 || r.status === 304
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
    const timeout = AbortSignal.timeout(call.timeoutMs ?? REQUEST_MS)
    const signal = call.signal === undefined ? timeout : AbortSignal.any([timeout, call.signal])
    const { statusCode, headers, body } = await request(this.agent, { method, origin: 'http://docker', path, signal })
    this.podman = headers['libpod-api-version'] !== undefined
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of body) {
      size += (chunk as Buffer).length
      if (size > MAX_BODY_BYTES) {
        body.destroy()
        throw new Error(`the engine's answer to ${path} passed ${MAX_BODY_BYTES} bytes`)
      }
      chunks.push(chunk as Buffer)
    }
    return { status: statusCode, body: Buffer.concat(chunks).toString('utf8') }
  }
}

interface Inspected {
  Id?: string
  Name?: string
  State?: {
    Status?: string
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

function containerState(c: Inspected): ContainerState {
  const s = c.State ?? {}
  const started = s.StartedAt === undefined ? NaN : Date.parse(s.StartedAt)
  const checks = s.Health?.Log ?? []
  // no HEALTHCHECK: Docker has no Health (or `none`), Podman a Health whose Status is ""
  const health = s.Health?.Status
  return {
    id: c.Id ?? '',
    name: (c.Name ?? '').replace(/^\//, ''),
    running: s.Running === true,
    status: s.Status ?? 'unknown',
    pid: s.Pid ?? 0,
    exitCode: s.ExitCode ?? 0,
    oomKilled: s.OOMKilled === true,
    error: s.Error ?? '',
    // the engine's zero time (0001-01-01) for a container that never started
    startedAtMs: Number.isFinite(started) && started > 0 ? started : undefined,
    health: health === undefined || health === '' || health === 'none' ? undefined : health,
    healthLog: checks.at(-1)?.Output?.trim().slice(0, 500),
    tty: c.Config?.Tty === true,
    env: c.Config?.Env ?? [],
    autoRemove: c.HostConfig?.AutoRemove === true
  }
}

/**
 * The logs of a container without a TTY: frames of an 8-byte header (stream, three zero bytes, the payload's length
 * big-endian) and the payload. Frames split across chunks are put back together.
 */
export function demultiplexer(out: (chunk: Buffer) => void): (chunk: Buffer) => void {
  let held: Buffer = Buffer.alloc(0)
  return (chunk) => {
    held = held.length === 0 ? chunk : Buffer.concat([held, chunk])
    let at = 0
    while (held.length - at >= 8) {
      const size = held.readUInt32BE(at + 4)
      if (held.length - at - 8 < size) break
      out(held.subarray(at + 8, at + 8 + size))
      at += 8 + size
    }
    held = held.subarray(at)
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
