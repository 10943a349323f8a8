/**
 * A bad input, as data: which input, what is wrong with it and the form it accepts, so that each front end words
 * it its own way (the action names the input, the CLI its flag or variable: src/cli/usage.ts).
 */
import type { InputName } from './input-names.js'

/** The form of `pid` (and the CLI's `stop --pid`), named by the input and by the server reading it. */
export const PID_FORM = 'a process id (12345) or the path of a file holding one'

/** `"5x" is not a duration such as …`: the value (as a message shows it) is not the form the input accepts. */
interface NotTheForm {
  value: string
  problem?: undefined
  form: string
}

/** `["5x" ]is too short[: give at least 100ms, as …]`: what is wrong, and the form the input accepts where told. */
interface Described {
  value?: string
  problem: string
  form?: string
}

/**
 * What is wrong with an input's value, without the input's name. `value` is the value's text as a message shows it
 * (printable, any credential masked); `line`, in an input of one entry per line (a fleet's `url`), the line (from 1).
 */
export type InputProblem = (NotTheForm | Described) & { line?: number }

/** The problem in words: `line 2: "5x" is not …`. */
export function problemText({ value, problem, form, line }: InputProblem): string {
  const where = line === undefined ? '' : `line ${line}: `
  if (problem === undefined) return `${where}"${value}" is not ${form}`
  const what = value === undefined ? problem : `"${value}" ${problem}`
  return `${where}${what}${form === undefined ? '' : `: give ${form}`}`
}

/** A problem found by a parser of one value, which knows no input's name: the parser's caller adds it. */
export class ProblemError extends Error {
  constructor(
    readonly problem: InputProblem,
    options?: ErrorOptions
  ) {
    super(problemText(problem), options)
    this.name = 'ProblemError'
  }
}

/** Its message is the action's wording: `Input "timeout": "5x" is not a duration such as …`. */
export class InputError extends Error {
  constructor(
    readonly input: InputName,
    readonly problem: InputProblem
  ) {
    super(`Input "${input}": ${problemText(problem)}`)
    this.name = 'InputError'
  }
}
