// jest's globalSetup: the run's temporary directory. Every test, and every process a test starts that inherits
// its environment, makes its temporary files under a fresh directory of its own (TMPDIR, which os.tmpdir() reads),
// so that tmp-teardown.mjs can tell whether the run left anything behind.
// The user's own history (~/.cache/wait-for-model, or under XDG_CACHE_HOME) is not the tests' to write: its state
// is noted here, and tmp-teardown.mjs fails the run if it changed. Processes that inherit this environment keep
// their default history under a cache directory of the run's own instead (XDG_CACHE_HOME, which the CLI reads
// before HOME); the tests that start the CLI also point it there themselves.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import process from 'node:process'
import { homeHistoryState } from './home-guard.mjs'

export default function setup() {
  process.env.WAIT_FOR_MODEL_TESTS_HOME_STATE = JSON.stringify(homeHistoryState(process.env))
  const cache = mkdtempSync(join(tmpdir(), 'wfm-tests-cache-'))
  process.env.WAIT_FOR_MODEL_TESTS_CACHE = cache
  process.env.XDG_CACHE_HOME = cache
  const dir = mkdtempSync(join(tmpdir(), 'wfm-tests-'))
  process.env.WAIT_FOR_MODEL_TESTS_TMPDIR = dir
  process.env.TMPDIR = dir
}
