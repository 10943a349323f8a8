import { inputVariable, isInputVariable, shellInputVariable, unknownInput } from '../../../src/inputs/variables.js'
import { INPUT_NAMES } from '../../../src/inputs/input-names.js'

describe('input variables', () => {
  it("are named as the runner names them: upper case, hyphens kept, spaces as underscores (core's getInput)", () => {
    expect(inputVariable('fail-pattern')).toBe('INPUT_FAIL-PATTERN')
    expect(inputVariable('url')).toBe('INPUT_URL')
    expect(inputVariable('some input')).toBe('INPUT_SOME_INPUT')
  })
  it('have a form a shell can set, hyphens as underscores', () => {
    expect(shellInputVariable('fail-pattern')).toBe('INPUT_FAIL_PATTERN')
    expect(shellInputVariable('fail-on-regression')).toBe('INPUT_FAIL_ON_REGRESSION')
  })
  it('are told apart from the other variables of a step', () => {
    expect(['INPUT_API-KEY', 'INPUT_API_KEY', 'PATH', 'MY_INPUT_X'].filter(isInputVariable)).toEqual([
      'INPUT_API-KEY',
      'INPUT_API_KEY'
    ])
  })
  it('name an input action.yml does not declare, with the closest one it does', () => {
    const env = { PATH: '/bin', INPUT_URL: 'http://h/', 'INPUT_FAIL-ON-REGRESSION': 'true' }
    expect(unknownInput(env, INPUT_NAMES)).toBeUndefined()
    expect(unknownInput({ ...env, 'INPUT_FAIL-ON-REGRESION': 'true' }, INPUT_NAMES)).toBe(
      'Input "fail-on-regresion" is not an input of this action (action.yml): did you mean "fail-on-regression"?'
    )
    // an input this action no longer has
    expect(unknownInput({ ...env, 'INPUT_MATCH-REGEX': 'ready' }, INPUT_NAMES)).toMatch(
      /^Input "match-regex" is not an input of this action \(action\.yml\): did you mean "match"\?$/
    )
  })
})
