import { execFileSync, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { NoOperationTraceWriter } from '@actions/workflow-parser'
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { runProcess } from '../helpers/support.js'

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
  // X.Y.Z once released, with its dated CHANGELOG section; X.Y.Z-dev before: the next release, still [Unreleased]
  const [, next, dev] = /^(\d+\.\d+\.\d+)(-dev)?$/.exec(pkg.version) ?? []
  expect(next).toBeDefined()
  expect(pkg.type).toBe('module')
  const changelog = text('CHANGELOG.md')
  expect(changelog).toMatch(/^## \[Unreleased\]$/m)
  const section = new RegExp(`^## \\[${escape(next)}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm')
  expect({ version: pkg.version, section: section.test(changelog) }).toEqual({ version: pkg.version, section: !dev })
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
  // and any chunk beside it (scripts/build.mjs)
  const chunks = readdirSync(new URL('dist/', root)).filter((f) => /^\d+\.cli\.js$/.test(f))
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

/** The quick start's console block: its commands (`$ …`) and the lines each source prints, in order. */
function quickStart(): { commands: string[]; simulator: string[]; gate: string[] } {
  const section = readme.slice(readme.indexOf('\n## Quick start\n'))
  const block = /^```console\n([\s\S]*?)^```$/m.exec(section)?.[1] ?? ''
  const lines = block.split('\n').filter(Boolean)
  return {
    commands: lines.filter((l) => l.startsWith('$ ')).map((l) => l.slice(2)),
    simulator: lines.filter((l) => l.startsWith('[simulated ')),
    gate: lines.filter((l) => !l.startsWith('$ ') && !l.startsWith('[simulated '))
  }
}

/** A line without what depends on timing: durations (`780ms`, `18.8s`, `5m58s`) and the count of probes. */
const untimed = (line: string): string =>
  line.replace(/\b\d+m\d+s\b|\b\d+(\.\d+)?(ms|s)\b/g, '<t>').replace(/\(\d+ probes?\)/, '(<n> probes)')

/** Whether `lines` appear in `within` in the same order (others may come between them). */
const inOrder = (lines: string[], within: string[]): boolean => {
  let at = 0
  for (const line of lines) {
    at = within.indexOf(line, at)
    if (at < 0) return false
    at++
  }
  return true
}

const quickBox = sandbox('wfm-docs-quick-')

it("the README's quick start prints what the README shows, times and counts aside", async () => {
  const { commands, simulator, gate } = quickStart()
  expect(commands).toEqual([
    expect.stringMatching(/^node dist\/cli\.js simulate .* &$/),
    expect.stringMatching(/^node dist\/cli\.js --url /),
    'kill %1'
  ])
  // as written, but on a free port: port 8000 may be taken here, and other suites run beside this one
  const port = await freePort()
  const args = (command: string): string[] =>
    command
      .replace(/( > \S+)? &$/, ` --port ${port}`)
      .replace('localhost:8000', `localhost:${port}`)
      .split(' ')
      .slice(1)
  const env = { PATH: process.env.PATH ?? '', HOME: quickBox.dir(), TMPDIR: quickBox.dir() }
  const server = spawn(process.execPath, args(commands[0]), {
    cwd: root.pathname,
    env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  quickBox.pids.push(server.pid!)
  let served = ''
  // its stdout is the engine's log, which the README sends to a file
  server.stdout.resume()
  server.stderr.on('data', (d: Buffer) => (served += d.toString()))
  const run = await runProcess(process.execPath, args(commands[1]), { cwd: root.pathname, env })
  server.kill()
  await new Promise((resolve) => server.once('close', resolve))
  const printed = (text: string): string[] =>
    text.replaceAll(`:${port}`, ':8000').split('\n').filter(Boolean).map(untimed)
  expect(run.code).toBe(0)
  expect(printed(served)).toEqual(simulator.map(untimed))
  const shown = gate.map(untimed)
  const got = printed(run.stdout + run.stderr)
  // the first and the last lines are always printed; each line the run printed is one the README shows, in its
  // order (an answer that lasts 2s, SGLang's /health 503 during its warm-up, may fall between two probes)
  expect([got[0], got.at(-1)]).toEqual([shown[0], shown.at(-1)])
  expect({ got, inOrder: inOrder(got, shown) }).toEqual({ got, inOrder: true })
  expect(got.length).toBeGreaterThanOrEqual(shown.length - 1)
}, 60_000)
