/**
 * `wait-for-model --url URL …`: the wait, the action's gate for a shell. Progress on stderr, the outputs as JSON
 * on stdout (`--json`), the job summary's Markdown in a file (`--summary-file`); exit 0 ready, 1 not ready.
 */
import { writeOwnFile } from '../../runtime/own-files.js'
import pkg from '../../../package.json' with { type: 'json' }
import { gate } from '../../wait/gate.js'
import { conclude } from '../../wait/conclusion.js'
import { carryOut } from '../../wait/carry-out.js'
import { cancelOnSignals } from '../../runtime/halter.js'
import { defaultHistoryFile } from '../../history/store.js'
import { printable } from '../../runtime/text.js'
import { commandSafe } from '../../report/command-safe.js'
import { INSECURE_TLS_WARNING } from '../../report/annotation-titles.js'
import { redact } from '../../inputs/secrets.js'
import { systemClock } from '../../runtime/clock.js'
import { typedOutputs } from '../../report/outputs.js'
import { waitHelpText } from '../help.js'
import { asBadInput, inputOptions, settingsFrom } from '../settings-from.js'
import { type CliIo, type Painter, parseCommandLine, type Say, UsageError } from '../usage.js'

export async function waitCommand(argv: string[], io: CliIo, say: Say, paint: Painter): Promise<number> {
  const { values } = parseCommandLine(argv, {
    json: { type: 'boolean' },
    'summary-file': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'V' },
    ...inputOptions()
  })
  if (values.help) return (void io.stdout.write(waitHelpText()), 0)
  if (values.version) return (void io.stdout.write(`${pkg.version}\n`), 0)

  const settings = settingsFrom(values, io.env)
  const summaryFile = writableSummaryFile(values['summary-file'])
  const json = values.json === true
  const secrets = settings.secrets
  // the runner reads workflow commands from a step's stderr too
  const log = (line: string): void => say(commandSafe(redact(line, secrets)))
  if (settings.insecureTls) log(paint.yellow(`warning: ${INSECURE_TLS_WARNING}`))

  // Ctrl-C, a CI system's SIGTERM, a closed ssh session's SIGHUP: the wait ends cancelled, and still reports.
  const { cancel, release } = cancelOnSignals()
  try {
    const outcome = await gate(settings, {
      clock: systemClock,
      startedAt: 0,
      log,
      warn: (line) => log(paint.yellow(`warning: ${line}`)),
      env: io.env,
      cancel,
      defaultHistory: defaultHistoryFile(io.env, 'cli')
    }).catch((e: unknown) => {
      throw asBadInput(e, values, io.env)
    })
    return await carryOut(
      conclude(outcome, settings),
      settings,
      { cancel, clock: systemClock },
      {
        log,
        finalLine: (line, ready) => log(ready ? paint.green(line) : paint.red(line)),
        logTail: async (title, lines) => {
          log(`${title}:`)
          for (const line of lines) log(`  ${line}`)
        },
        group: async (title, body) => {
          log(`── ${title}`)
          await body()
        },
        commandOutput: io.stderr,
        outputs: async (values, summary) => {
          // The job summary's Markdown, for a CI system that shows or keeps a file (an artifact, an annotation).
          if (summaryFile !== undefined) writeOwnFile(summaryFile, summary())
          if (json) io.stdout.write(`${JSON.stringify(typedOutputs(values))}\n`)
        },
        verdict: ({ kind, message }) =>
          log(kind === 'warn' ? paint.yellow(`warning: ${message}`) : paint.red(`error: ${message}`))
      }
    )
  } finally {
    release()
  }
}

/** `--summary-file`: checked before the wait (created, or emptied), so that a path that cannot be written is bad usage. */
function writableSummaryFile(given: unknown): string | undefined {
  if (typeof given !== 'string') return undefined
  if (given.trim() === '') throw new UsageError('--summary-file: give the path of a file to write the summary to')
  try {
    writeOwnFile(given, '')
  } catch (e) {
    throw new UsageError(
      `--summary-file: cannot write ${printable(given)} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`
    )
  }
  return given
}
