/** `diagnostics`: commands run after a failed wait, each in its own log group, each under a time limit. */

export interface DiagnosticsRunner {
  /** Runs `body` inside a collapsible log group. */
  group(title: string, body: () => Promise<void>): Promise<void>
  /** Runs one program, its output going to the log; resolves with its exit code. */
  exec(program: string, args: string[]): Promise<number>
  log(line: string): void
  /** Aborted when the job is cancelled: the command running then is killed, and no other one starts. */
  cancel?: AbortSignal
}

/** Long enough for `nvidia-smi` on a busy machine; short enough that a wedged GPU driver cannot hold the job. */
export const DIAGNOSTIC_LIMIT_S = 60

export async function runDiagnostics(commands: readonly string[], runner: DiagnosticsRunner): Promise<void> {
  for (const command of commands) {
    if (runner.cancel?.aborted) return
    await runner.group(`Diagnostics: ${command}`, async () => {
      try {
        // coreutils `timeout` limits each command; -k kills what ignores SIGTERM.
        const code = await runner.exec('timeout', ['-k', '5', String(DIAGNOSTIC_LIMIT_S), '/bin/sh', '-c', command])
        if (runner.cancel?.aborted) runner.log('(stopped: the job was cancelled)')
        else if (code === 124) runner.log(`(stopped after ${DIAGNOSTIC_LIMIT_S}s)`)
        else if (code !== 0) runner.log(`(exit code ${code})`)
      } catch (e) {
        runner.log(`(could not run: ${(e as Error).message})`)
      }
    })
  }
}

/**
 * Runs a program with its output on `out`; resolves with its exit code. It leads a process group of its own, killed
 * whole (the shell and whatever it started) when `cancel` aborts: a diagnostic must not hold a cancelled job.
 */
export function runCommand(
  program: string,
  args: string[],
  out: NodeJS.WritableStream,
  cancel: AbortSignal
): Promise<number> {
  // node:child_process only when diagnostics run
  const { spawn } = process.getBuiltinModule('node:child_process')
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    const kill = (): void => {
      // a process that left the group may still hold the pipes: stop reading them
      child.stdout.destroy()
      child.stderr.destroy()
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // the group has ended already
      }
    }
    if (cancel.aborted) kill()
    else cancel.addEventListener('abort', kill, { once: true })
    child.stdout.pipe(out, { end: false })
    child.stderr.pipe(out, { end: false })
    child.once('error', (e) => {
      cancel.removeEventListener('abort', kill)
      reject(e)
    })
    child.once('close', (code) => {
      cancel.removeEventListener('abort', kill)
      resolve(code ?? 1)
    })
  })
}
