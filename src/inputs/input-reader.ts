/**
 * Reads one input at a time, as text, a duration or a script, and names the input in any error:
 * a parser of one value throws a ProblemError (or a plain Error), which becomes the input's InputError.
 */
import { INPUT_DEFAULTS, type InputName } from './input-names.js'
import { InputError, ProblemError } from './input-error.js'
import { DURATION_FORM, parseDuration } from './parse.js'
import { hasControlChars, printable } from '../runtime/text.js'

const MAX_INPUT_LENGTH = 64 * 1024

export type InputReader = ReturnType<typeof inputReader>

/**
 * `get` returns '' for an unset input. `input`: the raw text, or the default when blank; `field`: through a parser;
 * `text`: trimmed one-line text, undefined when blank; `script`: the same, which may span lines.
 */
export function inputReader(get: (name: InputName) => string) {
  const input = (name: InputName): string => {
    const raw = get(name) ?? ''
    if (raw.length > MAX_INPUT_LENGTH)
      throw new InputError(name, { problem: `is ${raw.length} characters long; the limit is ${MAX_INPUT_LENGTH}` })
    return raw.trim() === '' ? INPUT_DEFAULTS[name] : raw
  }
  const field = <T>(name: InputName, parse: (text: string) => T): T => {
    try {
      return parse(input(name))
    } catch (e) {
      if (e instanceof InputError) throw e
      throw new InputError(name, e instanceof ProblemError ? e.problem : { problem: (e as Error).message })
    }
  }
  return {
    input,
    field,
    text(name: InputName): string | undefined {
      const value = input(name).trim()
      // the api-key is never shown, not even in its own error
      if (hasControlChars(value))
        throw new InputError(
          name,
          name === 'api-key'
            ? { problem: 'the key contains a control character' }
            : { value: printable(value), problem: 'contains a control character' }
        )
      return value === '' ? undefined : value
    },
    script(name: InputName): string | undefined {
      const value = input(name).trim()
      // scripts may span lines; other control characters are refused
      if (hasControlChars(value, '\t\n')) throw new InputError(name, { problem: 'contains a control character' })
      return value === '' ? undefined : value
    },
    duration: (name: InputName, minMs: number): number =>
      field(name, (t) => {
        const ms = parseDuration(t)
        if (ms < minMs)
          throw new ProblemError({
            value: printable(t),
            problem: 'is too short',
            form: `at least ${minMs}ms, as ${DURATION_FORM}`
          })
        return ms
      })
  }
}
