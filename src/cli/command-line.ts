/**
 * The command-line layer: argv and INPUT_* variables in; progress on stderr, outputs as JSON on stdout, and an
 * exit code out (0 ready, 1 not ready, 2 bad usage). The first word names the command (commands/), none the wait;
 * every flag of the wait comes from the action's inputs.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkCommand } from './commands/check.js'
import { demo } from './commands/demo.js'
import { historyCommand } from './commands/history.js'
import { simulateCommand } from './commands/simulate.js'
import { stopCommand } from './commands/stop.js'
import { waitCommand } from './commands/wait.js'
import { type CliIo, painter, UsageError } from './usage.js'

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const paint = painter(io)
  const say = (line: string): void => void io.stderr.write(`${line}\n`)
  try {
    if (argv[0] === 'simulate') return await simulateCommand(argv.slice(1), io, say)
    if (argv[0] === 'stop') return await stopCommand(argv.slice(1), io, say, paint)
    if (argv[0] === 'check') return await checkCommand(argv.slice(1), io)
    if (argv[0] === 'history') return await historyCommand(argv.slice(1), io, say)
    if (argv[0] === 'demo') return await demo(join(dirname(fileURLToPath(import.meta.url)), 'index.js'), io.stdout)
    return await waitCommand(argv, io, say, paint)
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    say(paint.red(`wait-for-model: ${e.message}`))
    say('Run "wait-for-model --help" for usage.')
    return 2
  }
}
