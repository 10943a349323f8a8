import { cliInputMessage } from '../../../src/cli/input-error.js'
import { InputError } from '../../../src/inputs/input-error.js'

describe('cliInputMessage', () => {
  const e = new InputError('match-regex', { problem: 'is not a valid JavaScript regular expression (x)' })

  it('names the flag, as the action names the input', () => {
    expect(e.message).toBe('Input "match-regex": is not a valid JavaScript regular expression (x)')
    expect(cliInputMessage(e)).toBe('--match-regex: is not a valid JavaScript regular expression (x)')
  })

  it('names the variable a shell sets when the value came from one', () => {
    expect(cliInputMessage(e, 'variable')).toBe('INPUT_MATCH_REGEX: is not a valid JavaScript regular expression (x)')
  })

  it('words the accepted form after the value', () => {
    const bad = new InputError('timeout', { value: 'soon', form: 'a duration such as 15s' })
    expect(cliInputMessage(bad)).toBe('--timeout: "soon" is not a duration such as 15s')
  })
})
