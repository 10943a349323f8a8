import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * For tests that start model servers: a fresh temporary directory for each test, and after it the process group
 * of every server whose pid was pushed to `pids` ended (each server leads its own group, started detached).
 */
export function serverSandbox(prefix: string): { dir(): string; pids: number[] } {
  let dir = ''
  const pids: number[] = []
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix))
  })
  afterEach(() => {
    for (const pid of pids.splice(0)) {
      try {
        process.kill(-pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true })
  })
  return { dir: () => dir, pids }
}
