/** A bad input in the CLI's words: named as the user gave it, a flag (`--url`) or a variable (`INPUT_URL`). */
import { type InputError, problemText } from '../inputs/input-error.js'
import { shellInputVariable } from '../inputs/variables.js'

/** `--timeout: "5x" is not a duration such as …`; `given`: where the bad value came from. */
export function cliInputMessage(e: InputError, given: 'flag' | 'variable' = 'flag'): string {
  const name = given === 'variable' ? shellInputVariable(e.input) : `--${e.input}`
  return `${name}: ${problemText(e.problem)}`
}
