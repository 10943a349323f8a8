/** Shared by the end-to-end suites: the packaged action and what to read from a run (servers: loopback.ts). */
import { spawn } from 'node:child_process'
import { type ActionRun, runAction } from '../../src/simulator/runner.js'

export const entry = new URL('../../dist/index.js', import.meta.url).pathname
/** A server process that loads, crashes, exits or hangs, as its arguments say. */
export const fakeServer = new URL('../fixtures/fake-server.mjs', import.meta.url).pathname
const peakRssHook = new URL('../fixtures/peak-rss.mjs', import.meta.url).pathname

/** The error annotations of a run's stdout (`::error title=…::message`). */
export const errors = (stdout: string): string[] => stdout.split('\n').filter((l) => l.startsWith('::error '))

export interface MeasuredRun extends ActionRun {
  /** Peak resident memory of the action's process, in MB. */
  peakRssMb: number
  /** When the process exited, on its own clock (from its start): what the step itself took. */
  exitAtMs: number
}

/** Runs dist/index.js with these inputs and measures the process's peak memory. */
export async function runMeasured(
  inputs: Record<string, string>,
  env: Record<string, string> = {}
): Promise<MeasuredRun> {
  const run = await runAction({ entry, inputs, env: { NODE_OPTIONS: `--import ${peakRssHook}`, ...env } })
  const kb = /peak-rss-kb=(\d+)/.exec(run.stderr)
  if (!kb) throw new Error(`no peak-rss line in stderr: ${run.stderr}`)
  const exitAt = /exit-at-ms=(\d+)/.exec(run.stderr)
  if (!exitAt) throw new Error(`no exit-at line in stderr: ${run.stderr}`)
  return { ...run, peakRssMb: Number(kb[1]) / 1024, exitAtMs: Number(exitAt[1]) }
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
