// jest's globalTeardown: fails the run when a test left something in the run's temporary directory (see
// tmp-setup.mjs), naming what, or changed the user's own history folders; then removes the run's directories
// either way, so that no run leaves /tmp fuller.
import { readdirSync, rmSync } from 'node:fs'
import process from 'node:process'
import { changedFolders, folderState } from './home-guard.mjs'

export default function teardown() {
  const problems = []
  const before = process.env.WAIT_FOR_MODEL_TESTS_HOME_STATE
  if (before) {
    const state = JSON.parse(before)
    // the same folders as before the run: those of the environment jest was started in
    const after = {}
    for (const folder of Object.keys(state)) after[folder] = folderState(folder)
    const changed = changedFolders(state, after)
    if (changed.length > 0)
      problems.push(`The tests wrote into the user's own history folder(s): ${changed.join(', ')}`)
  }
  const cache = process.env.WAIT_FOR_MODEL_TESTS_CACHE
  if (cache) rmSync(cache, { recursive: true, force: true })
  const dir = process.env.WAIT_FOR_MODEL_TESTS_TMPDIR
  if (dir) {
    const left = readdirSync(dir)
    rmSync(dir, { recursive: true, force: true })
    if (left.length > 0)
      problems.push(`The tests left ${left.length} temporary file(s) behind, in ${dir}: ${left.join(', ')}`)
  }
  if (problems.length > 0) throw new Error(problems.join('\n'))
}
