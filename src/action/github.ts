/**
 * What the action tells the runner: outputs, masks, annotations, groups and the job summary, written by
 * @actions/core's own writers. They are imported from core's files rather than from its index, which also
 * loads an OIDC token client and, with it, all of undici, for tokens this action never asks for: about 45 ms
 * between "the server is ready" and the job going on, or 18 MB held for the whole wait had it loaded earlier.
 * The functions below do what core's do, over those writers.
 *
 * The files are named by their path under node_modules because core's package.json exports only its index
 * ("."): `@actions/core/lib/command.js` does not resolve. __tests__/unit/action/github.test.ts fails when core
 * changes that (then import by the package's own path) or when these functions stop writing what core's do.
 */
import { EOL } from 'node:os'
import { issue, issueCommand } from '../../node_modules/@actions/core/lib/command.js'

/**
 * Core's job summary writer, evaluated only when a summary is written ("eager" keeps it in the bundle file): its
 * module reads `fs.promises` as it loads, which brought node:fs/promises and node:readline in before the first
 * probe.
 */
export const jobSummary = async (): Promise<typeof import('../../node_modules/@actions/core/lib/summary.js').summary> =>
  (await import(/* webpackMode: "eager" */ '../../node_modules/@actions/core/lib/summary.js')).summary

/**
 * As core.setOutput for each output: the GITHUB_OUTPUT file, or the `set-output` command where there is none
 * (local runs).
 */
export const setOutputs = (outputs: Record<string, string>): Promise<void> =>
  writeFileCommand('OUTPUT', 'set-output', outputs)

/**
 * As core.saveState for each value: the GITHUB_STATE file, which the runner hands to the post step as `STATE_<name>`
 * variables (core.getState), or the `save-state` command where there is none.
 */
export const saveState = (values: Record<string, string>): Promise<void> =>
  writeFileCommand('STATE', 'save-state', values)

/**
 * Core's file writer brings node:crypto (for its delimiters), 3 MB and 5 ms on Node 24: it is evaluated only now,
 * once the wait is over ("eager" keeps it in the one bundle file).
 */
async function writeFileCommand(
  file: 'OUTPUT' | 'STATE',
  command: string,
  values: Record<string, string>
): Promise<void> {
  if (!process.env[`GITHUB_${file}`]) {
    for (const [name, value] of Object.entries(values)) {
      process.stdout.write(EOL)
      issueCommand(command, { name }, value)
    }
    return
  }
  const { issueFileCommand, prepareKeyValueMessage } = await import(
    /* webpackMode: "eager" */ '../../node_modules/@actions/core/lib/file-command.js'
  )
  for (const [name, value] of Object.entries(values)) issueFileCommand(file, prepareKeyValueMessage(name, value))
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
