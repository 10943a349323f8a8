/**
 * What the commands share: their streams and the colours of their lines, and bad usage, an error that ends the CLI
 * with status 2 and a pointer to `--help` (a bad input is one, named as the user gave it: `--url` or `INPUT_URL`).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { InputError, problemText } from '../inputs/input-error.js'
import { shellInputVariable } from '../inputs/variables.js'

export class UsageError extends Error {}

export function parseCommandLine(argv: string[], options: ParseArgsConfig['options']): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

/**
 * `e` as bad usage when it is an InputError (`--timeout: "5x" is not a duration such as …`), its input named by
 * `given` (a flag, an INPUT_* variable); else `e`.
 */
export function asUsageError(
  e: unknown,
  given: (input: InputError['input']) => 'flag' | 'variable' = () => 'flag'
): unknown {
  if (!(e instanceof InputError)) return e
  const name = given(e.input) === 'variable' ? shellInputVariable(e.input) : `--${e.input}`
  return new UsageError(`${name}: ${problemText(e.problem)}`)
}

export interface CliIo {
  env: NodeJS.ProcessEnv
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
}

/** One line for people, on stderr. */
export type Say = (line: string) => void

/** The colours of the CLI's lines for people: red fails, green is ready, yellow warns. */
export interface Painter {
  red(text: string): string
  green(text: string): string
  yellow(text: string): string
}

/** Colour only on a terminal, and never when NO_COLOR is set to anything (https://no-color.org). */
export function painter(io: Pick<CliIo, 'env' | 'stderr'>): Painter {
  const on = io.stderr.isTTY === true && !io.env.NO_COLOR
  const wrap = (code: number) => (text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text)
  return { red: wrap(31), green: wrap(32), yellow: wrap(33) }
}
