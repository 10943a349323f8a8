/** What a command of the CLI is given: the environment, and the streams it writes to. */
export interface CliIo {
  env: NodeJS.ProcessEnv
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
}

/** One line for people, on stderr. */
export type Say = (line: string) => void
