/** The CLI run in-process with real streams: what it printed on each, and its exit code. */
import { PassThrough } from 'node:stream'
import { runCli } from '../../src/cli/command-line.js'

export async function runInProcess(
  argv: string[],
  env: NodeJS.ProcessEnv
): Promise<{ code: number; stdout: string; stderr: string }> {
  let out = ''
  let err = ''
  const stdout = new PassThrough().on('data', (d: Buffer) => (out += d.toString()))
  const stderr = new PassThrough().on('data', (d: Buffer) => (err += d.toString()))
  const code = await runCli(argv, { env, stdout, stderr })
  return { code, stdout: out, stderr: err }
}
