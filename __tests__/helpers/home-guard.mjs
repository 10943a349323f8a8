// What the user's own wait-for-model history folders hold (each file's size and modification time), read before the
// tests run and after (tmp-setup.mjs, tmp-teardown.mjs): a test that wrote there fails the run.
import { lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** The folders the CLI keeps its default history in for this environment: under XDG_CACHE_HOME, and under HOME. */
function homeHistoryFolders(env) {
  const folders = []
  if (env.XDG_CACHE_HOME) folders.push(join(env.XDG_CACHE_HOME, 'wait-for-model'))
  if (env.HOME) folders.push(join(env.HOME, '.cache', 'wait-for-model'))
  return [...new Set(folders)]
}

/** `{ folder: { file: "size mtime" } | null }`; null for a folder that does not exist. */
export function homeHistoryState(env) {
  return Object.fromEntries(homeHistoryFolders(env).map((folder) => [folder, folderState(folder)]))
}

/** `{ file: "size mtime" }`, or null when the folder does not exist. */
export function folderState(folder) {
  let names
  try {
    names = readdirSync(folder)
  } catch {
    return null
  }
  const files = {}
  for (const name of names.sort()) {
    const s = lstatSync(join(folder, name))
    files[name] = `${s.size} ${s.mtimeMs}`
  }
  return files
}

/** The folders whose state differs between `before` and `after`. */
export function changedFolders(before, after) {
  return Object.keys(before).filter((folder) => JSON.stringify(before[folder]) !== JSON.stringify(after[folder]))
}
