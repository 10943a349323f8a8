import { inputVariable, isInputVariable, shellInputVariable } from '../../../src/inputs/variables.js'

describe('input variables', () => {
  it("are named as the runner names them: upper case, hyphens kept, spaces as underscores (core's getInput)", () => {
    expect(inputVariable('match-regex')).toBe('INPUT_MATCH-REGEX')
    expect(inputVariable('url')).toBe('INPUT_URL')
    expect(inputVariable('some input')).toBe('INPUT_SOME_INPUT')
  })
  it('have a form a shell can set, hyphens as underscores', () => {
    expect(shellInputVariable('match-regex')).toBe('INPUT_MATCH_REGEX')
    expect(shellInputVariable('fail-on-timeout')).toBe('INPUT_FAIL_ON_TIMEOUT')
  })
  it('are told apart from the other variables of a step', () => {
    expect(['INPUT_API-KEY', 'INPUT_API_KEY', 'PATH', 'MY_INPUT_X'].filter(isInputVariable)).toEqual([
      'INPUT_API-KEY',
      'INPUT_API_KEY'
    ])
  })
})
