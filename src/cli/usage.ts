/**
 * Bad usage, shared by the commands: an error that ends the CLI with status 2 and a pointer to `--help`; a bad
 * input is one, named as the user gave it, a flag (`--url`) or a variable (`INPUT_URL`).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { InputError, problemText } from '../inputs/input-error.js'
import { shellInputVariable } from '../inputs/variables.js'

export class UsageError extends Error {}

export function parseCommandLine(argv: string[], options: ParseArgsConfig['options']): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

/**
 * `e` as bad usage when it is an InputError (`--timeout: "5x" is not a duration such as …`), its input named by
 * `given` (a flag, an INPUT_* variable); else `e`.
 */
export function asUsageError(
  e: unknown,
  given: (input: InputError['input']) => 'flag' | 'variable' = () => 'flag'
): unknown {
  if (!(e instanceof InputError)) return e
  const name = given(e.input) === 'variable' ? shellInputVariable(e.input) : `--${e.input}`
  return new UsageError(`${name}: ${problemText(e.problem)}`)
}
