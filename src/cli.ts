#!/usr/bin/env node
/** The `wait-for-model` command: the same gate as the action, for shells, ssh sessions and scripts. */
import { runCli } from './cli/command-line.js'
import { dropOutputToClosedPipes } from './runtime/closed-pipes.js'
import { keepMemoryFlat } from './runtime/memory.js'

keepMemoryFlat()
dropOutputToClosedPipes([process.stdout, process.stderr])
process.exitCode = await runCli(process.argv.slice(2), process)
// As the action (src/index.ts): nothing left pending may hold the command once it has said its last word.
process.exit()
