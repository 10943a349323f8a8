import { asUsageError } from '../../../src/cli/usage.js'
import { InputError } from '../../../src/inputs/input-error.js'

describe('asUsageError', () => {
  const e = new InputError('fail-pattern', { problem: 'is not a valid JavaScript regular expression (x)' })
  const message = (error: InputError, given: 'flag' | 'variable' = 'flag'): string =>
    (asUsageError(error, () => given) as Error).message

  it('names the flag, as the action names the input', () => {
    expect(e.message).toBe('Input "fail-pattern": is not a valid JavaScript regular expression (x)')
    expect(message(e)).toBe('--fail-pattern: is not a valid JavaScript regular expression (x)')
  })

  it('names the variable a shell sets when the value came from one', () => {
    expect(message(e, 'variable')).toBe('INPUT_FAIL_PATTERN: is not a valid JavaScript regular expression (x)')
  })

  it('words the accepted form after the value', () => {
    const bad = new InputError('timeout', { value: 'soon', form: 'a duration such as 15s' })
    expect(message(bad)).toBe('--timeout: "soon" is not a duration such as 15s')
  })

  it('leaves any other error as it is', () => {
    const other = new Error('x')
    expect(asUsageError(other)).toBe(other)
  })
})
