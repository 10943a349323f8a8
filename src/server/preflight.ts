/**
 * Before `start` launches anything: is the port the server will listen on free, and what else holds memory on the
 * GPUs it will use? A server an earlier job left behind would answer the gate in the new one's place, or make it
 * fail on "address in use"; a foreign process on its GPUs can make it run out of memory. Structured answers only;
 * the words are in report/lifecycle-report.ts, the decision (fail, warn) in the conclusion.
 */
import { appsOnVisibleGpus, type ComputeApp, type Gpu, type GpuSnapshot, gpuSnapshot } from '../gpu/nvidia-smi.js'
import type { GpuCheck } from '../inputs/settings.js'
import { localPort, type PortOwner, portOwner } from './port-owner.js'

type GpuFinding =
  /** `gpu-check: off`. */
  | { kind: 'off' }
  /** No GPU reading (no nvidia-smi, or it failed): nothing is said but a debug line. */
  | { kind: 'unavailable'; why: string; detail?: string }
  /** No other process holds memory on the GPUs the server will use. */
  | { kind: 'clear'; gpus: Gpu[] }
  /** Other processes do: `apps` on those GPUs. */
  | { kind: 'busy'; apps: ComputeApp[]; gpus: Gpu[] }

export interface Preflight {
  /** Something already listens on a local port of the URLs: the server `start` launches could not. */
  portBusy?: Extract<PortOwner, { kind: 'listening' }>
  gpu: GpuFinding
}

export interface PreflightDeps {
  /** The step's environment: CUDA_VISIBLE_DEVICES (the GPUs the server will use) and PATH (nvidia-smi). */
  env: NodeJS.ProcessEnv
  proc?: string
  /** Reads the GPUs; nvidia-smi by default, within `gpuTimeoutMs` and ended by `signal`. */
  gpu?(): Promise<GpuSnapshot>
  /** The most the GPU reading may take: 5 s, or the time left before the wait's deadline. */
  gpuTimeoutMs?: number
  signal?: AbortSignal
  hostName?: string
}

/** Checks the ports of `urls` that name this machine, and the GPUs as `gpuCheck` asks. */
export async function preflight(urls: readonly URL[], gpuCheck: GpuCheck, deps: PreflightDeps): Promise<Preflight> {
  let portBusy: Preflight['portBusy']
  for (const port of new Set(urls.map((u) => localPort(u, deps.hostName)))) {
    // a host elsewhere is probed as before: its port is not this machine's to check
    if (port === undefined) continue
    const owner = portOwner(port, { proc: deps.proc })
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
