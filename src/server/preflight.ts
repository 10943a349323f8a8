/**
 * Before `start` launches anything: is the port the server will listen on free (a server an earlier job left behind
 * would answer in its place), and what else holds memory on the GPUs it will use (it may run out)?
 */
import { appsOnVisibleGpus, type ComputeApp, type Gpu, type GpuSnapshot, gpuSnapshot } from '../gpu/nvidia-smi.js'
import type { GpuCheck } from '../inputs/settings.js'
import { localPort, type PortOwner, portOwner } from './port-owner.js'

/** `clear`: no other process holds memory on the GPUs the server will use; `busy`: `apps` do. */
type GpuFinding =
  | { kind: 'off' }
  | { kind: 'unavailable'; why: string; detail?: string }
  | { kind: 'clear'; gpus: Gpu[] }
  | { kind: 'busy'; apps: ComputeApp[]; gpus: Gpu[] }

export interface Preflight {
  /** Something already listens on a local port of the URLs: the server `start` launches could not. */
  portBusy?: Extract<PortOwner, { kind: 'listening' }>
  gpu: GpuFinding
}

export interface PreflightDeps {
  /** The step's environment: CUDA_VISIBLE_DEVICES (the GPUs the server will use) and PATH (nvidia-smi). */
  env: NodeJS.ProcessEnv
  /** Reads the GPUs; nvidia-smi by default, within `gpuTimeoutMs` and ended by `signal`. */
  gpu?(): Promise<GpuSnapshot>
  /** The time left before the wait's deadline: the GPU reading takes 5 s at most. */
  gpuTimeoutMs?: number
  signal?: AbortSignal
}

/** Checks the ports of `urls` that name this machine, and the GPUs as `gpuCheck` asks. */
export async function preflight(urls: readonly URL[], gpuCheck: GpuCheck, deps: PreflightDeps): Promise<Preflight> {
  let portBusy: Preflight['portBusy']
  for (const port of new Set(urls.map((u) => localPort(u)))) {
    // a host elsewhere is probed as before: its port is not this machine's to check
    if (port === undefined) continue
    const owner = portOwner(port)
    if (owner.kind === 'listening') {
      portBusy = owner
      break
    }
  }
  return { portBusy, gpu: await gpuFinding(gpuCheck, deps) }
}

async function gpuFinding(gpuCheck: GpuCheck, deps: PreflightDeps): Promise<GpuFinding> {
  if (gpuCheck === 'off') return { kind: 'off' }
  const timeoutMs = Math.min(5_000, deps.gpuTimeoutMs ?? 5_000)
  const snapshot = await (deps.gpu ?? (() => gpuSnapshot({ env: deps.env, timeoutMs, signal: deps.signal })))()
  if (snapshot.kind === 'unavailable') return { kind: 'unavailable', why: snapshot.why, detail: snapshot.detail }
  const apps = appsOnVisibleGpus(snapshot, deps.env.CUDA_VISIBLE_DEVICES)
  // a process nvidia-smi shows with 0 MiB holds nothing to speak of; one it cannot measure ([N/A]) may hold much
  const holding = apps.filter((a) => a.usedMiB === undefined || a.usedMiB > 0)
  return holding.length > 0
    ? { kind: 'busy', apps: holding, gpus: snapshot.gpus }
    : { kind: 'clear', gpus: snapshot.gpus }
}

/** What the pre-flight means for the wait: `refuse` ends it before anything starts; `warnGpu` says so and goes on. */
export function preflightVerdict(
  p: Preflight,
  gpuCheck: GpuCheck
): { refuse?: 'port-busy' | 'gpu-busy'; warnGpu: boolean } {
  const gpuBusy = p.gpu.kind === 'busy'
  if (p.portBusy !== undefined) return { refuse: 'port-busy', warnGpu: gpuBusy }
  if (gpuBusy && gpuCheck === 'fail') return { refuse: 'gpu-busy', warnGpu: false }
  return { warnGpu: gpuBusy }
}

/**
 * `CUDA_VISIBLE_DEVICES=…` among the assignments that begin a command (after `env` and its options, or `export`).
 * Each character can be read one way only: on a `start` of up to 64 KiB, a pattern that could split `A='' A='' …`
 * two ways at each word would take exponential time. A value stops at `;`, `&` or `|`: each try ends at the next
 * command.
 */
const VALUE = `(?:'[^']*'|"[^"]*"|[^\\s'";&|])*`
const ASSIGNED = new RegExp(
  `(?:^|[;&|(]\\s*|\\n\\s*)(?:export\\s+|env\\s+(?:-\\S+\\s+(?:[A-Za-z_][A-Za-z0-9_]*\\s+)?)*)?` +
    `(?:[A-Za-z_][A-Za-z0-9_]*=${VALUE}\\s+)*CUDA_VISIBLE_DEVICES=('[^']*'|"[^"]*"|[^\\s;&|]*)`
)

/** `docker run … --gpus device=1,2` (also `--gpus=…`, `'"device=1,2"'`), the engine's own way to pin a container. */
const DOCKER_GPUS = /\s--gpus(?:=|\s+)(?:'"?|"'?)?device=([0-9A-Za-z,-]+)/

/**
 * The GPUs a `start` command pins its server to (a fleet of one server per GPU): each server's check is of its GPUs,
 * not of the step's. Undefined: the command does not say.
 */
export function startGpus(start: string | undefined): string | undefined {
  if (start === undefined) return undefined
  const assigned = ASSIGNED.exec(start)
  // without its quotes
  if (assigned !== null) return assigned[1].replace(/^(['"])(.*)\1$/, '$2')
  const docker = DOCKER_GPUS.exec(start)
  return docker === null ? undefined : docker[1]
}

/** The environment the pre-flight reads the server's GPUs from: the step's, with the command's own pin where it has one. */
export function withStartGpus(env: NodeJS.ProcessEnv, start: string | undefined): NodeJS.ProcessEnv {
  const gpus = startGpus(start)
  return gpus === undefined ? env : { ...env, CUDA_VISIBLE_DEVICES: gpus }
}
