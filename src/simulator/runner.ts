/**
 * Runs the packaged action the way a GitHub runner does: `node dist/index.js` with `INPUT_*` variables and
 * real GITHUB_OUTPUT / GITHUB_STATE / GITHUB_STEP_SUMMARY files. Used by `npm run demo` and the end-to-end tests.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The runner's rule (`log-file` → INPUT_LOG-FILE); a unit test holds it equal to inputs/variables.ts. */
export const runnerInputVariable = (name: string): string => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`

export interface ActionRun {
  code: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  /** GITHUB_STATE, which the runner passes to the post step as `STATE_<name>`. */
  state: Record<string, string>
  summary: string
  wallMs: number
}

export interface RunActionOptions {
  entry: string
  inputs: Record<string, string>
  env?: Record<string, string>
  /** The demo shows the stdout live. */
  echo?: NodeJS.WritableStream
  node?: string
  /** E.g. to signal it as the runner does when a job is cancelled. */
  onStart?(child: ChildProcess): void
}

export async function runAction(options: RunActionOptions): Promise<ActionRun> {
  const dir = mkdtempSync(join(tmpdir(), 'wait-for-model-run-'))
  const outputFile = join(dir, 'output')
  const summaryFile = join(dir, 'summary')
  const stateFile = join(dir, 'state')
  writeFileSync(outputFile, '')
  writeFileSync(stateFile, '')
  writeFileSync(summaryFile, '')
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    RUNNER_TEMP: dir,
    // a runner's tool cache, where the action keeps its history by default: this run's own, removed after it
    RUNNER_TOOL_CACHE: join(dir, 'tool-cache'),
    // where this process keeps its temporary files, so the action's stay beside them (the tests check none are left)
    TMPDIR: tmpdir(),
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_STATE: stateFile,
    ...options.env
  }
  for (const [name, value] of Object.entries(options.inputs)) env[runnerInputVariable(name)] = value
  const started = performance.now()
  try {
    const child = spawn(options.node ?? process.execPath, [options.entry], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      options.echo?.write(d)
    })
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    options.onStart?.(child)
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject)
      child.on('close', resolve)
    })
    return {
      code,
      stdout,
      stderr,
      outputs: parseFileCommand(readFileSync(outputFile, 'utf8')),
      state: parseFileCommand(readFileSync(stateFile, 'utf8')),
      summary: readFileSync(summaryFile, 'utf8'),
      wallMs: performance.now() - started
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Reads the `name<<delimiter` / value / `delimiter` records that @actions/core appends to GITHUB_OUTPUT. */
function parseFileCommand(text: string): Record<string, string> {
  const result: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i])
    if (!m) continue
    const end = lines.indexOf(m[2], i + 1)
    if (end < 0) break
    result[m[1]] = lines.slice(i + 1, end).join('\n')
    i = end
  }
  return result
}
