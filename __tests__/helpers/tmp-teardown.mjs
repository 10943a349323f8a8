// jest's globalTeardown: fails the run when a test left something in the run's temporary directory (see
// tmp-setup.mjs), naming what; then removes the directory either way, so that no run leaves /tmp fuller.
import { readdirSync, rmSync } from 'node:fs'
import process from 'node:process'

export default function teardown() {
  const dir = process.env.WAIT_FOR_MODEL_TESTS_TMPDIR
  if (!dir) return
  const left = readdirSync(dir)
  rmSync(dir, { recursive: true, force: true })
  if (left.length > 0)
    throw new Error(`The tests left ${left.length} temporary file(s) behind, in ${dir}: ${left.join(', ')}`)
}
