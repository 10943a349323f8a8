import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { NoOperationTraceWriter } from '@actions/workflow-parser'
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index'
import { sandbox } from '../helpers/sandbox.js'

/**
 * The README, `--help` and the package's manifest against action.yml, the one list of inputs and outputs; the
 * examples as docs/examples.md quotes them.
 */
const root = new URL('../..', import.meta.url)
const text = (path: string): string => readFileSync(new URL(path, root), 'utf8')
const readme = text('README.md')

const parsed = parseAction({ name: 'action.yml', content: text('action.yml') }, new NoOperationTraceWriter())
const action = convertActionTemplate(parsed.context, parsed.value!)
const inputs = (action.inputs ?? []).map((i) => ({ name: i.id, default: i.default?.toString() ?? '' }))
const outputNames = (action.outputs ?? []).map((o) => o.id)
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const npmTmp = sandbox('wfm-docs-npm-')

it('action.yml has inputs and outputs to document', () => {
  expect(inputs.map((i) => i.name)).toContain('url')
  expect(outputNames).toContain('elapsed-seconds')
})

it('the README documents every input with its default', () => {
  for (const input of inputs) {
    const row = new RegExp(
      `^\\| \`${escape(input.name)}\` \\| ${input.default === '' ? '' : `\`${escape(input.default)}\``} *\\| \\S`,
      'm'
    )
    expect({ input: input.name, documented: row.test(readme) }).toEqual({ input: input.name, documented: true })
  }
})

it('the README documents every output', () => {
  for (const name of outputNames)
    expect({ output: name, documented: new RegExp(`^\\| \`${escape(name)}\` \\| \\S`, 'm').test(readme) }).toEqual({
      output: name,
      documented: true
    })
})

it("--help lists exactly the action's inputs as flags, with the same defaults and a description each", () => {
  const help = execFileSync(process.execPath, [new URL('dist/cli.js', root).pathname, '--help'], { encoding: 'utf8' })
  // the block of the inputs; the command line's own flags (--json, --summary-file) follow under their own heading
  const options = help.split('\n\n').find((block) => block.startsWith('Options')) ?? ''
  const flags = [...options.matchAll(/^ {2}--([a-z-]+) \S+ +(.*)$/gm)].map(([, name, rest]) => ({
    name,
    default: /\(default: (.*)\)$/.exec(rest)?.[1] ?? '',
    described: rest.replace(/\(default: .*\)$/, '').trim() !== ''
  }))
  expect(flags.map(({ name, default: d }) => ({ name, default: d }))).toEqual(inputs)
  expect(flags.filter((f) => !f.described).map((f) => f.name)).toEqual([])
})

it('docs/examples.md quotes every example whole', () => {
  const examples = readdirSync(new URL('examples/', root))
  const explained = text('docs/examples.md')
  expect(examples.length).toBeGreaterThanOrEqual(5)
  for (const file of examples) {
    expect({ file, quoted: explained.includes(`\`\`\`yaml\n${text(`examples/${file}`)}\`\`\``) }).toEqual({
      file,
      quoted: true
    })
  }
})

it('the npm package exposes the CLI as the wait-for-model bin and ships the CLI alone (the action is used from git)', () => {
  const pkg = JSON.parse(text('package.json')) as { bin: Record<string, string>; version: string; type: string }
  expect(pkg.bin).toEqual({ 'wait-for-model': 'dist/cli.js' })
  expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/)
  expect(pkg.type).toBe('module')
  expect(text('CHANGELOG.md')).toContain(`## [${pkg.version}]`)
  const [packed] = JSON.parse(
    // npm keeps a compile cache under the temporary directory: a sandbox's, removed after the test
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: npmTmp.dir() }
    })
  ) as Array<{
    files: Array<{ path: string; mode: number }>
  }>
  const files = new Map(packed.files.map((f) => [f.path, f.mode]))
  // dist/cli.js is ESM: the package's own package.json ("type": "module") tells Node so, dist/package.json is not needed
  // and the chunks the CLI loads when a wait needs them (scripts/build.mjs)
  const chunks = readdirSync(new URL('dist/', root)).filter((f) => /^\d+\.cli\.js$/.test(f))
  expect(chunks.length).toBeGreaterThan(0)
  expect([...files.keys()].sort()).toEqual(
    [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      ...chunks.map((c) => `dist/${c}`),
      'dist/cli.js',
      'dist/licenses.txt',
      'package.json'
    ].sort()
  )
  // runnable through npm's bin link: executable, with a node shebang
  expect((files.get('dist/cli.js') ?? 0) & 0o111).toBe(0o111)
  expect(text('dist/cli.js').startsWith('#!/usr/bin/env node\n')).toBe(true)
})
