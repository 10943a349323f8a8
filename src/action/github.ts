/**
 * What the action tells the runner (outputs, masks, annotations, groups, the job summary), with @actions/core's own
 * writers: imported from core's files, not its index, which also loads an OIDC client and all of undici. Core's
 * package.json exports only its index, hence the paths under node_modules; __tests__/unit/action/github.test.ts
 * fails when core changes that, or when these functions stop writing what core's do.
 */
import { EOL } from 'node:os'
import { issue, issueCommand } from '../../node_modules/@actions/core/lib/command.js'

/** Core's job summary writer, loaded only when a summary is written ("eager" keeps it in the bundle file). */
export const jobSummary = async (): Promise<typeof import('../../node_modules/@actions/core/lib/summary.js').summary> =>
  (await import(/* webpackMode: "eager" */ '../../node_modules/@actions/core/lib/summary.js')).summary

/** As core.setOutput for each output: the GITHUB_OUTPUT file, or the `set-output` command where there is none. */
export const setOutputs = (outputs: Record<string, string>): Promise<void> =>
  writeFileCommand('OUTPUT', 'set-output', outputs)

/**
 * As core.saveState for each value (the GITHUB_STATE file, the post step's `STATE_<name>`, or `save-state`), but
 * written at once, no await between a launch and its state: core's file writer is loaded by this call, beforehand.
 */
export const stateSaver = (): Promise<(values: Record<string, string>) => void> =>
  fileCommandWriter('STATE', 'save-state')

/** Core's file writer brings node:crypto (for its delimiters): loaded only once needed. */
async function writeFileCommand(
  file: 'OUTPUT' | 'STATE',
  command: string,
  values: Record<string, string>
): Promise<void> {
  ;(await fileCommandWriter(file, command))(values)
}

async function fileCommandWriter(
  file: 'OUTPUT' | 'STATE',
  command: string
): Promise<(values: Record<string, string>) => void> {
  if (!process.env[`GITHUB_${file}`])
    return (values) => {
      for (const [name, value] of Object.entries(values)) {
        process.stdout.write(EOL)
        issueCommand(command, { name }, value)
      }
    }
  const { issueFileCommand, prepareKeyValueMessage } = await import(
    /* webpackMode: "eager" */ '../../node_modules/@actions/core/lib/file-command.js'
  )
  return (values) => {
    for (const [name, value] of Object.entries(values)) issueFileCommand(file, prepareKeyValueMessage(name, value))
  }
}

/** As core.setSecret. */
export const setSecret = (secret: string): void => issueCommand('add-mask', {}, secret)

/** As core.warning, core.notice and core.error with a title (core escapes it), and core.debug. */
export const annotate = (kind: 'warning' | 'notice' | 'debug' | 'error', message: string, title?: string): void =>
  issueCommand(kind, title === undefined ? {} : { title }, message)

/** As core.setFailed, with a title. */
export function setFailed(message: string, title: string): void {
  process.exitCode = 1
  annotate('error', message, title)
}

/** As core.info. */
export const info = (line: string): void => void process.stdout.write(`${line}${EOL}`)

/** As core.group. */
export async function group<T>(name: string, body: () => Promise<T>): Promise<T> {
  issue('group', name)
  try {
    return await body()
  } finally {
    issue('endgroup')
  }
}

/** Lines a server wrote, in a group, stopped from acting as workflow commands (`::stop-commands::`). */
export async function untrustedGroup(
  title: string,
  lines: readonly string[],
  say: (line: string) => void
): Promise<void> {
  await group(title, async () => {
    const token = process.getBuiltinModule('node:crypto').randomUUID()
    info(`::stop-commands::${token}`)
    for (const line of lines) say(line)
    info(`::${token}::`)
  })
}
