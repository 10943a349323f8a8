/**
 * Every test's files and processes: a fresh temporary directory, removed afterwards, and the processes the test
 * started, ended afterwards. Nothing a test makes outlives it (the run's globalTeardown checks the temporary
 * directory is empty).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Sandbox {
  /** The directory: a fresh one for each test, or with `'file'` one for the suite, there from the call on. */
  dir(): string
  /** A path inside the directory. */
  path(...names: string[]): string
  /** Process ids to end when the test is over, with their process group where they lead one (servers started detached). */
  pids: number[]
}

export function sandbox(prefix: string, scope: 'test' | 'file' = 'test'): Sandbox {
  let dir = ''
  const pids: number[] = []
  const make = (): void => {
    dir = mkdtempSync(join(tmpdir(), prefix))
  }
  const clean = (): void => {
    for (const pid of pids.splice(0)) end(pid)
    rmSync(dir, { recursive: true, force: true })
  }
  if (scope === 'test') {
    beforeEach(make)
    afterEach(clean)
  } else {
    make()
    afterAll(clean)
  }
  return { dir: () => dir, path: (...names) => join(dir, ...names), pids }
}

function end(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL')
      return
    } catch {
      // not a group leader (then the process itself), or already gone
    }
  }
}
