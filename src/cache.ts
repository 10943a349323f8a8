/**
 * dist/cache.js: @actions/cache in a process of its own, started by the action's steps for `history-file:
 * actions-cache`, so that its modules load only then. `node cache.js restore KEY` or `save KEY`, run in the
 * history's folder; its last line is the result as JSON.
 */
import { cacheCall } from './history/cache-call.js'

const [op, key] = process.argv.slice(2)
const result = await cacheCall(op, key)
process.stdout.write(`${JSON.stringify(result)}\n`)
