/** Shared by the end-to-end suites: the packaged action and what to read from a run (servers: loopback.ts). */
import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { type ActionRun, runAction, type RunActionOptions } from '../../src/simulator/runner.js'
import { measureLoad } from './bounds.js'

export const entry = new URL('../../dist/index.js', import.meta.url).pathname
/** A server process that loads, crashes, exits or hangs, as its arguments say. */
export const fakeServer = new URL('../fixtures/fake-server.mjs', import.meta.url).pathname
/** The fake nvidia-smi (the real CSV format) and the GPU workers that fill its state (__tests__/fixtures/). */
export const fakeNvidiaSmiDir = new URL('../fixtures/gpu/', import.meta.url).pathname
export const gpuWorkersScript = new URL('../fixtures/gpu-workers.mjs', import.meta.url).pathname
/** Eight H200s, as the fake nvidia-smi's state file lists them. */
export const EIGHT_GPUS = Array.from({ length: 8 }, (_, i) => ({
  index: i,
  uuid: `GPU-${String(i).repeat(8)}-eb07-be47-67e3-5bcdf725d8e8`,
  name: 'NVIDIA H200',
  total: 143771
}))
export const peakRssHook = new URL('../fixtures/peak-rss.mjs', import.meta.url).pathname

/** Whether a child of `pid` runs the fake nvidia-smi now (/proc/PID/task/TID/children, then each one's cmdline). */
function runsNvidiaSmi(pid: number): boolean {
  try {
    for (const task of readdirSync(`/proc/${pid}/task`))
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean))
        if (readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('nvidia-smi')) return true
  } catch {
    // the process or its child ended meanwhile
  }
  return false
}

/**
 * An `onStart` that sends SIGTERM to the step once it has started nvidia-smi, however late a busy machine let it
 * get there; `at()` is when (performance.now()), 0 until then.
 */
export function termOnceRunsNvidiaSmi(): { onStart(child: ChildProcess): void; at(): number } {
  let signalled = 0
  return {
    onStart: (child) => {
      const look = setInterval(() => {
        if (!runsNvidiaSmi(child.pid as number)) return
        clearInterval(look)
        signalled = performance.now()
        child.kill('SIGTERM')
      }, 50)
      child.once('exit', () => clearInterval(look))
    },
    at: () => signalled
  }
}

/** The error annotations of a run's stdout (`::error title=…::message`). */
export const errors = (stdout: string): string[] => stdout.split('\n').filter((l) => l.startsWith('::error '))

export interface MeasuredRun extends ActionRun {
  /** Peak resident memory of the action's process, in MB. */
  peakRssMb: number
  /** When the process exited, on its own clock (from its start): what the step itself took. */
  exitAtMs: number
  /** When the process's own clock starts (what elapsed-seconds counts from), in milliseconds since the epoch. */
  originMs: number
  /** How many times slower than idle the machine ran during the run (helpers/bounds.ts measureLoad). */
  stretch: number
}

/**
 * Runs dist/index.js with these inputs (or `options.entry`, `onStart`, `node`), and measures the process's peak
 * memory, its exit on its own clock and the machine's load meanwhile.
 */
export async function runMeasured(
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  options: Partial<Omit<RunActionOptions, 'inputs' | 'env'>> = {}
): Promise<MeasuredRun> {
  const stretch = measureLoad()
  const run = await runAction({ entry, ...options, inputs, env: { NODE_OPTIONS: `--import ${peakRssHook}`, ...env } })
  return { ...run, ...measuredBy(run.stderr), stretch: stretch() }
}

/** What the peak-rss hook (fixtures/peak-rss.mjs) reported as the process exited. */
export function measuredBy(stderr: string): { peakRssMb: number; exitAtMs: number; originMs: number } {
  const line = /peak-rss-kb=(\d+) exit-at-ms=(\d+) origin-ms=(\d+)/.exec(stderr)
  if (!line) throw new Error(`no peak-rss line in stderr: ${stderr}`)
  return { peakRssMb: Number(line[1]) / 1024, exitAtMs: Number(line[2]), originMs: Number(line[3]) }
}

export interface ProcessRun {
  code: number | null
  stdout: string
  stderr: string
  /** From the spawn to the close of its output. */
  wallMs: number
}

/**
 * Runs a command to its end (the CLI, a shell), stdin closed, in exactly `env` (nothing inherited may set an input),
 * and collects what it wrote and how long it took.
 */
export function runProcess(
  command: string,
  args: string[],
  { env, cwd }: { env: NodeJS.ProcessEnv; cwd?: string }
): Promise<ProcessRun> {
  const started = performance.now()
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, wallMs: performance.now() - started }))
  })
}

/** The servers the main step saved for the job-end step (`STATE_servers`, a JSON list), each entry as saved. */
export const savedServers = (state: Record<string, string>): Array<Record<string, unknown>> =>
  JSON.parse(state.servers ?? '[]') as Array<Record<string, unknown>>

/** A job-end state of these entries, in the form the main step writes. */
export const stateOf = (...entries: Array<Record<string, unknown> | null>): Record<string, string> => ({
  servers: JSON.stringify(entries)
})
