import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { inputVariable } from '../../../src/inputs/variables.js'
import { runnerInputVariable } from '../../../src/simulator/runner.js'

/** The runner stand-in keeps its own copy of the runner's INPUT_ naming: held here to the action's reading of it. */
describe("the runner stand-in's input variables", () => {
  const inputs = Object.keys(
    (parse(readFileSync(new URL('../../../action.yml', import.meta.url), 'utf8')) as { inputs: object }).inputs
  )

  it('names each input as the runner does: upper case, spaces as underscores, hyphens kept', () => {
    expect(runnerInputVariable('url')).toBe('INPUT_URL')
    expect(runnerInputVariable('fail-pattern')).toBe('INPUT_FAIL-PATTERN')
    expect(runnerInputVariable('some input')).toBe('INPUT_SOME_INPUT')
  })

  it("is the variable the action reads, for every one of action.yml's inputs and a few other names", () => {
    expect(inputs.length).toBeGreaterThan(10)
    for (const name of [...inputs, 'url', 'some input', 'Mixed-Case name', 'a  b', 'ünïcode'])
      expect(runnerInputVariable(name)).toBe(inputVariable(name))
  })
})
