// jest's globalSetup: the run's temporary directory. Every test, and every process a test starts that inherits
// its environment, makes its temporary files under a fresh directory of its own (TMPDIR, which os.tmpdir() reads),
// so that tmp-teardown.mjs can tell whether the run left anything behind.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import process from 'node:process'

export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'wfm-tests-'))
  process.env.WAIT_FOR_MODEL_TESTS_TMPDIR = dir
  process.env.TMPDIR = dir
}
