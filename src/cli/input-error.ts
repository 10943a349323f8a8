/**
 * The one place where the CLI reads an InputError (src/inputs/): a bad input is bad usage, the input named as the
 * user gave it, a flag (`--url`) or a variable (`INPUT_URL`), and worded from the error's fields.
 */
import { InputError, problemText } from '../inputs/input-error.js'
import { shellInputVariable } from '../inputs/variables.js'
import { UsageError } from './usage.js'

/** `--timeout: "5x" is not a duration such as …`; `given`: where the bad value came from. */
export function cliInputMessage(e: InputError, given: 'flag' | 'variable' = 'flag'): string {
  const name = given === 'variable' ? shellInputVariable(e.input) : `--${e.input}`
  return `${name}: ${problemText(e.problem)}`
}

/** `e` as bad usage when it is an InputError, its input named by `given` (a flag, an INPUT_* variable); else `e`. */
export function asUsageError(
  e: unknown,
  given: (input: InputError['input']) => 'flag' | 'variable' = () => 'flag'
): unknown {
  if (!(e instanceof InputError)) return e
  return new UsageError(cliInputMessage(e, given(e.input)))
}
