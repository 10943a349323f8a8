import { readFileSync, writeFileSync } from 'node:fs'
import * as core from '@actions/core'
import { annotate, group, info, jobSummary, setFailed, setOutputs, setSecret } from '../../../src/action/github.js'
import { sandbox } from '../../helpers/sandbox.js'

/**
 * src/action/github.ts imports two of @actions/core's own files by their path, to keep core's index (and the
 * undici it loads) out of the action. These tests fail when core changes what that relies on.
 */
const corePackage = JSON.parse(
  readFileSync(new URL('../../../node_modules/@actions/core/package.json', import.meta.url), 'utf8')
) as { exports: object }

/** What `write` prints to stdout, with core's random output delimiters made alike. */
async function stdoutOf(write: () => unknown): Promise<string> {
  const chunks: string[] = []
  const original = process.stdout.write
  process.stdout.write = ((chunk: string) => chunks.push(String(chunk)) > 0) as typeof process.stdout.write
  try {
    await write()
  } finally {
    process.stdout.write = original
  }
  return chunks.join('')
}

const sameDelimiters = (text: string): string => text.replace(/ghadelimiter_[0-9a-f-]+/g, 'ghadelimiter_X')

const box = sandbox('wait-for-model-github-')
const saved = { output: process.env.GITHUB_OUTPUT, exitCode: process.exitCode }
afterEach(() => {
  if (saved.output === undefined) delete process.env.GITHUB_OUTPUT
  else process.env.GITHUB_OUTPUT = saved.output
  process.exitCode = saved.exitCode
})

describe("the runner's commands, written through core's files", () => {
  it('are needed because core exports only its index (were that to change, import the files by package path)', () => {
    expect(Object.keys(corePackage.exports)).toEqual(['.'])
  })

  it('write what core writes: masks, annotations, lines, groups and failure', async () => {
    const ours = await stdoutOf(async () => {
      setSecret('sk-1234')
      annotate('warning', 'slow %25\nstart', 'Slow: startup, 100%')
      annotate('notice', 'history is off')
      annotate('debug', 'probe: HTTP 200')
      info('Ready after 3.0s')
      await group('Last 2 lines of model-server.log', async () => info('1: loading'))
      setFailed('Timed out', 'Model server not ready (timeout)')
    })
    const theirs = await stdoutOf(async () => {
      core.setSecret('sk-1234')
      core.warning('slow %25\nstart', { title: 'Slow: startup, 100%' })
      core.notice('history is off')
      // core.debug writes only the command; the runner shows it with debug logging on
      core.debug('probe: HTTP 200')
      core.info('Ready after 3.0s')
      await core.group('Last 2 lines of model-server.log', async () => core.info('1: loading'))
      // core.setFailed takes no title: it is core.error with the exit code set
      process.exitCode = 1
      core.error('Timed out', { title: 'Model server not ready (timeout)' })
    })
    expect(ours).toBe(theirs)
    expect(ours).toContain('::error title=Model server not ready (timeout)::Timed out')
    expect(ours).toContain('::warning title=Slow%3A startup%2C 100%25::slow %2525%0Astart')
  })

  it('write outputs to GITHUB_OUTPUT as core.setOutput does', async () => {
    const file = box.path('output')
    process.env.GITHUB_OUTPUT = file
    writeFileSync(file, '')
    await setOutputs({ ready: 'true', models: '["a\\nb"]', 'model-id': 'line one\nline two' })
    const ours = readFileSync(file, 'utf8')
    writeFileSync(file, '')
    core.setOutput('ready', 'true')
    core.setOutput('models', '["a\\nb"]')
    core.setOutput('model-id', 'line one\nline two')
    expect(sameDelimiters(ours)).toBe(sameDelimiters(readFileSync(file, 'utf8')))
  })

  it('write the set-output command where there is no GITHUB_OUTPUT file', async () => {
    delete process.env.GITHUB_OUTPUT
    const ours = await stdoutOf(() => setOutputs({ ready: 'false' }))
    const theirs = await stdoutOf(() => core.setOutput('ready', 'false'))
    expect(ours).toBe(theirs)
  })

  it("hand out core's own summary writer", async () => {
    expect(await jobSummary()).toBe(core.summary)
  })
})
