#!/usr/bin/env node
/** The `wait-for-model` command: the same gate as the action, for shells, ssh sessions and scripts. */
import { runCli } from './cli/command-line.js'
import { dropOutputToClosedPipes } from './runtime/closed-pipes.js'
import { keepMemoryFlat } from './runtime/memory.js'

keepMemoryFlat()
dropOutputToClosedPipes([process.stdout, process.stderr])
process.exitCode = await runCli(process.argv.slice(2), process)
// A pipe's reader may lag behind a long `--json` (a thousand model ids): exiting with writes still queued cut it
// short. Wait until both streams have handed everything to the kernel, at most 5 s (a reader that never reads must
// not hold the command).
await Promise.race([
  Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((r) => s.write('', () => r())))),
  new Promise<void>((r) => setTimeout(r, 5_000).unref())
])
// As the action (src/index.ts): nothing left pending may hold the command once it has said its last word.
process.exit()
