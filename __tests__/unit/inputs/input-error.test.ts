import { InputError, ProblemError, problemText } from '../../../src/inputs/input-error.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import type { InputName } from '../../../src/inputs/input-names.js'

const errorFor = (inputs: Partial<Record<InputName, string>>): InputError => {
  try {
    parseSettings((name) => inputs[name] ?? '')
  } catch (e) {
    if (e instanceof InputError) return e
    throw e
  }
  throw new Error('no InputError')
}

describe('InputError', () => {
  it('words each shape of problem', () => {
    expect(problemText({ value: '5x', form: 'a duration' })).toBe('"5x" is not a duration')
    expect(problemText({ problem: 'is required', form: 'a URL' })).toBe('is required: give a URL')
    expect(problemText({ value: 'p', problem: 'is a FIFO', form: 'a file' })).toBe('"p" is a FIFO: give a file')
    expect(problemText({ problem: 'needs "model"' })).toBe('needs "model"')
    expect(problemText({ value: 'ftp://h/', form: 'a URL', line: 2 })).toBe('line 2: "ftp://h/" is not a URL')
    expect(new ProblemError({ value: '5x', form: 'a duration' }).message).toBe('"5x" is not a duration')
  })

  it('keeps the input, the value and the form it accepts, and words them as the action does', () => {
    const e = errorFor({ url: 'http://h/v1/models', timeout: 'soon' })
    expect(e.input).toBe('timeout')
    expect(e.problem).toMatchObject({ value: 'soon', form: expect.stringMatching(/^a duration such as 250ms/) })
    expect(e.message).toBe(`Input "timeout": "soon" is not ${e.problem.form}`)
  })

  it('keeps the line of a fleet URL, and a minimum in the form', () => {
    expect(errorFor({ url: 'http://a/\nftp://b/' }).problem).toMatchObject({ line: 2, value: 'ftp://b/' })
    const short = errorFor({ url: 'http://h/', interval: '10ms' })
    expect(short.problem).toMatchObject({ value: '10ms', problem: 'is too short' })
    expect(short.problem.form).toMatch(/^at least 100ms, as a duration such as/)
  })

  it('keeps a rule between inputs as its problem alone', () => {
    const e = errorFor({ url: 'http://h/', start: 'vllm serve m', pid: '123' })
    expect(e.input).toBe('pid')
    expect(e.problem).toEqual({
      problem: 'cannot be used with "start": the server "start" launches is the one watched'
    })
  })
})
