/** Bad usage, shared by the commands: an error that ends the CLI with status 2 and a pointer to `--help`. */
import { parseArgs, type ParseArgsConfig } from 'node:util'

export class UsageError extends Error {}

export function parseCommandLine(argv: string[], options: ParseArgsConfig['options']): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

export const table = (rows: Array<[string, string]>): string[] => {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`.trimEnd())
}
