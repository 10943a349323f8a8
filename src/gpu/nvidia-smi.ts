/**
 * The GPUs and what holds their memory, from `nvidia-smi`'s CSV queries, within one time limit, ended at once by a
 * signal. Where nvidia-smi is missing, fails, hangs, floods or is cancelled the answer is `unavailable`, never an
 * error: a machine without a GPU is no reason to fail a wait.
 */

export interface Gpu {
  index: number
  uuid: string
  name: string
  memoryUsedMiB?: number
  memoryTotalMiB?: number
}

export interface ComputeApp {
  pid: number
  processName: string
  /** undefined where nvidia-smi says `[N/A]` (no permission to see it, some MIG set-ups). */
  usedMiB?: number
  gpuUuid: string
}

export type GpuSnapshot =
  | { kind: 'available'; gpus: Gpu[]; apps: ComputeApp[] }
  /** `failed`: it exited non-zero (no driver, no device); `unreadable`: not the CSV expected, or over the bound. */
  | { kind: 'unavailable'; why: 'not-found' | 'failed' | 'timeout' | 'unreadable' | 'cancelled'; detail?: string }

export interface NvidiaSmiOptions {
  /** The environment to find and run nvidia-smi with (its PATH). */
  env?: NodeJS.ProcessEnv
  /** For the whole snapshot: a wedged driver can make nvidia-smi hang. */
  timeoutMs?: number
  signal?: AbortSignal
  /** The program: `nvidia-smi` from PATH unless given. */
  command?: string
  /** Words before the query's own (`ssh … host nvidia-smi`: another host's). */
  prefix?: readonly string[]
}

const GPU_QUERY = ['--query-gpu=index,uuid,name,memory.used,memory.total', '--format=csv,noheader,nounits']
const APPS_QUERY = ['--query-compute-apps=pid,process_name,used_memory,gpu_uuid', '--format=csv,noheader,nounits']

type Run = { kind: 'ok'; stdout: string } | Extract<GpuSnapshot, { kind: 'unavailable' }>

/** What nvidia-smi may write per query: a node's answer is a few hundred bytes; more is not its answer. */
const MAX_OUTPUT_BYTES = 1024 * 1024

/** The GPUs and the compute processes on them, in two calls of nvidia-smi, both within `timeoutMs`. */
export async function gpuSnapshot(options: NvidiaSmiOptions = {}): Promise<GpuSnapshot> {
  const until = performance.now() + (options.timeoutMs ?? 10_000)
  const left = (): number => Math.max(0, until - performance.now())
  const gpuRun = await runNvidiaSmi(GPU_QUERY, options, left())
  if (gpuRun.kind !== 'ok') return gpuRun
  const appsRun = await runNvidiaSmi(APPS_QUERY, options, left())
  if (appsRun.kind !== 'ok') return appsRun
  const gpus = parseGpus(gpuRun.stdout)
  const apps = parseApps(appsRun.stdout)
  if (gpus === undefined || apps === undefined)
    return {
      kind: 'unavailable',
      why: 'unreadable',
      detail: firstLine(gpus === undefined ? gpuRun.stdout : appsRun.stdout)
    }
  return { kind: 'available', gpus, apps }
}

/**
 * One query. nvidia-smi runs in a process group of its own, so that a timeout, a flood or a cancel kills it and
 * anything it started (a wrapper's children would hold its output open), without waiting for the pipes to close.
 */
function runNvidiaSmi(
  args: string[],
  { env = process.env, command = 'nvidia-smi', prefix = [], signal }: NvidiaSmiOptions,
  timeoutMs: number
): Promise<Run> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ kind: 'unavailable', why: 'cancelled' })
    if (timeoutMs <= 0) return resolve({ kind: 'unavailable', why: 'timeout' })
    // node:child_process only when nvidia-smi is asked
    const { spawn } = process.getBuiltinModule('node:child_process')
    const child = spawn(command, [...prefix, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    const out = new BoundedText()
    const err = new BoundedText()
    let settled = false
    const settle = (run: Run): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      try {
        // the group, even once nvidia-smi itself has exited: what it started may still hold the pipes
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // gone already
      }
      child.stdout.destroy()
      child.stderr.destroy()
      resolve(run)
    }
    const over = (): void => settle({ kind: 'unavailable', why: 'unreadable', detail: 'output over 1 MiB' })
    child.stdout.on('data', (d: Buffer) => out.add(d) || over())
    child.stderr.on('data', (d: Buffer) => err.add(d) || over())
    const timer = setTimeout(() => settle({ kind: 'unavailable', why: 'timeout' }), timeoutMs)
    const onAbort = (): void => settle({ kind: 'unavailable', why: 'cancelled' })
    signal?.addEventListener('abort', onAbort, { once: true })
    child.once('error', (e: NodeJS.ErrnoException) =>
      settle(
        e.code === 'ENOENT'
          ? { kind: 'unavailable', why: 'not-found' }
          : { kind: 'unavailable', why: 'failed', detail: e.message }
      )
    )
    child.once('close', (code) => {
      const stdout = out.text()
      // nvidia-smi prints its own failure ("NVIDIA-SMI has failed because it couldn't communicate …") on stdout
      if (code === 0) settle({ kind: 'ok', stdout })
      else settle({ kind: 'unavailable', why: 'failed', detail: firstLine(stdout.trim() === '' ? err.text() : stdout) })
    })
  })
}

/** Output kept as chunks up to MAX_OUTPUT_BYTES: a flood of hundreds of MB never becomes one string. */
class BoundedText {
  private readonly chunks: Buffer[] = []
  private bytes = 0
  /** False once the output is over the bound. */
  add(chunk: Buffer): boolean {
    this.bytes += chunk.length
    if (this.bytes > MAX_OUTPUT_BYTES) return false
    this.chunks.push(chunk)
    return true
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8')
  }
}

const firstLine = (text: string): string => text.trim().split('\n', 1)[0].slice(0, 300)

/** `[N/A]` and the like are no number. */
const mib = (text: string): number | undefined => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined)

/** The lines of a `noheader` CSV answer, split into fields; undefined unless each has `fields` and starts with a number. */
function csvRows(csv: string, fields: number): string[][] | undefined {
  const rows = csv
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(',').map((x) => x.trim()))
  return rows.every((f) => f.length >= fields && /^\d+$/.test(f[0])) ? rows : undefined
}

/** `0, GPU-24f1…, NVIDIA H200, 21099, 143771` per line; the name (which may hold a comma) is what lies between. */
export function parseGpus(csv: string): Gpu[] | undefined {
  return csvRows(csv, 5)?.map((f) => ({
    index: Number(f[0]),
    uuid: f[1],
    name: f.slice(2, -2).join(','),
    memoryUsedMiB: mib(f[f.length - 2]),
    memoryTotalMiB: mib(f[f.length - 1])
  }))
}

/** `430, python3, 21090, GPU-24f1…` per line (nothing at all when no process computes). */
export function parseApps(csv: string): ComputeApp[] | undefined {
  return csvRows(csv, 4)?.map((f) => ({
    pid: Number(f[0]),
    processName: f.slice(1, -2).join(','),
    usedMiB: mib(f[f.length - 2]),
    gpuUuid: f[f.length - 1]
  }))
}

/**
 * The GPUs `CUDA_VISIBLE_DEVICES` names (indices, UUIDs or UUID prefixes), in its order; all of them when it is
 * unset. Like CUDA, the list ends at the first entry that names no GPU (`-1`, a MIG id), and empty hides them all.
 */
export function visibleGpus(gpus: readonly Gpu[], cudaVisibleDevices: string | undefined): Gpu[] {
  if (cudaVisibleDevices === undefined) return [...gpus]
  const chosen: Gpu[] = []
  for (const entry of cudaVisibleDevices.split(',').map((e) => e.trim())) {
    if (entry === '') break
    const gpu = /^\d+$/.test(entry)
      ? gpus.find((g) => g.index === Number(entry))
      : gpus.find((g) => g.uuid.toLowerCase().startsWith(entry.toLowerCase()) && /^gpu-/i.test(entry))
    if (gpu === undefined) break
    if (!chosen.includes(gpu)) chosen.push(gpu)
  }
  return chosen
}

/** The compute processes on the GPUs `CUDA_VISIBLE_DEVICES` names (all GPUs when unset). */
export function appsOnVisibleGpus(
  snapshot: Extract<GpuSnapshot, { kind: 'available' }>,
  cudaVisibleDevices: string | undefined
): ComputeApp[] {
  const uuids = new Set(visibleGpus(snapshot.gpus, cudaVisibleDevices).map((g) => g.uuid))
  return snapshot.apps.filter((a) => uuids.has(a.gpuUuid))
}

export interface HeldMemory {
  /** Summed over every GPU (what nvidia-smi cannot show counts 0). */
  mib: number
  /** One per process and GPU. */
  apps: ComputeApp[]
}

/** The GPU memory held by any of `pids` (a server and its workers). */
export function memoryHeldBy(
  snapshot: Extract<GpuSnapshot, { kind: 'available' }>,
  pids: ReadonlySet<number>
): HeldMemory {
  const apps = snapshot.apps.filter((a) => pids.has(a.pid))
  return { mib: apps.reduce((sum, a) => sum + (a.usedMiB ?? 0), 0), apps }
}

/** What a run's figures depend on of the GPUs: their model, how many the server sees, and the driver. */
export interface GpuInventory {
  model: string
  count: number
  driver: string
}

const INVENTORY_QUERY = ['--query-gpu=index,uuid,name,driver_version', '--format=csv,noheader,nounits']

/**
 * The GPUs `CUDA_VISIBLE_DEVICES` names (all when unset), as one model (several models: joined with ` + `);
 * undefined where nvidia-smi cannot tell or none is visible.
 */
export async function gpuInventory(
  options: NvidiaSmiOptions & { cudaVisibleDevices?: string } = {}
): Promise<GpuInventory | undefined> {
  const run = await runNvidiaSmi(INVENTORY_QUERY, options, options.timeoutMs ?? 5_000)
  if (run.kind !== 'ok') return undefined
  const rows = csvRows(run.stdout, 4)
  if (rows === undefined || rows.length === 0) return undefined
  const gpus = rows.map((f) => ({
    index: Number(f[0]),
    uuid: f[1],
    name: f.slice(2, -1).join(','),
    driver: f.at(-1) ?? ''
  }))
  const seen = visibleGpus(gpus, options.cudaVisibleDevices) as typeof gpus
  if (seen.length === 0) return undefined
  return {
    model: [...new Set(seen.map((g) => g.name))].join(' + '),
    count: seen.length,
    driver: [...new Set(seen.map((g) => g.driver))].join(' + ')
  }
}
