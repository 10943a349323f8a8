/** What a command of the CLI is given (the environment, the streams it writes to) and the colours of its lines. */
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
