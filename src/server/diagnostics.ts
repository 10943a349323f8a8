/** `diagnostics`: commands run after a failed wait, each in its own log group, each under a time limit. */

export interface DiagnosticsRunner {
  /** Runs `body` inside a collapsible log group titled `title`. */
  group(title: string, body: () => Promise<void>): Promise<void>
  /** Runs one program with arguments, its output going to the log; resolves with its exit code. */
  exec(program: string, args: string[]): Promise<number>
  log(line: string): void
}

/** Long enough for `nvidia-smi` on a busy machine; short enough that a wedged GPU driver cannot hold the job. */
export const DIAGNOSTIC_LIMIT_S = 60

export async function runDiagnostics(commands: readonly string[], runner: DiagnosticsRunner): Promise<void> {
  for (const command of commands) {
    await runner.group(`Diagnostics: ${command}`, async () => {
      try {
        // coreutils `timeout`: @actions/exec has no time limit of its own; -k kills what ignores SIGTERM.
        const code = await runner.exec('timeout', ['-k', '5', String(DIAGNOSTIC_LIMIT_S), '/bin/sh', '-c', command])
        if (code === 124) runner.log(`(stopped after ${DIAGNOSTIC_LIMIT_S}s)`)
        else if (code !== 0) runner.log(`(exit code ${code})`)
      } catch (e) {
        runner.log(`(could not run: ${(e as Error).message})`)
      }
    })
  }
}
