/**
 * The one place where the CLI reads an InputError (src/inputs/): a bad input is bad usage, the input named as the
 * user gave it.
 */
import { InputError } from '../inputs/settings.js'
import { UsageError } from './usage.js'

/** `e` as bad usage when it is an InputError, its input named by `given` (a flag, an INPUT_* variable); else `e`. */
export function asUsageError(e: unknown, given: (input: string) => string): unknown {
  if (!(e instanceof InputError)) return e
  return new UsageError(e.message.replace(`Input "${e.input}"`, given(e.input)))
}
