import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { INPUTS } from '../../../src/inputs/input-names.js'
import { OUTPUT_NAMES } from '../../../src/report/outputs.js'
import { waitHelpText } from '../../../src/cli/help.js'

/**
 * action.yml is the one source of the interface: the code's table of inputs (names, defaults), its outputs, the
 * CLI's --help, the README's tables and docs/inputs.md are held to it, name by name and in its order.
 */
const text = (path: string): string => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')
const action = parse(text('action.yml')) as {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>
  outputs: Record<string, { description: string }>
}
const declared = Object.entries(action.inputs).map(([name, i]) => ({ name, default: i.default ?? '' }))

/** The rows of the Markdown table whose header row starts with `| <first> |`: its cells, trimmed. */
function table(markdown: string, first: string): string[][] {
  const start = markdown.indexOf(`\n| ${first} |`)
  expect(start).toBeGreaterThan(0)
  const rows = markdown.slice(start + 1).split('\n')
  const end = rows.findIndex((l) => !l.startsWith('|'))
  return rows.slice(2, end).map((l) =>
    l
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim())
  )
}
const unquoted = (cell: string): string => cell.replace(/^`(.*)`$/, '$1')

it('declares at most 32 inputs, each described, only url required', () => {
  expect(declared.length).toBeLessThanOrEqual(32)
  for (const [name, input] of Object.entries(action.inputs)) {
    expect({ name, described: input.description.trim() !== '' }).toEqual({ name, described: true })
    expect({ name, required: input.required === true }).toEqual({ name, required: name === 'url' })
  }
})

it("the code's table of inputs: the same names, in the same order, with the same defaults", () => {
  expect(Object.entries(INPUTS).map(([name, i]) => ({ name, default: i.default }))).toEqual(declared)
})

it('the outputs: the same names, in the same order', () => {
  expect([...OUTPUT_NAMES]).toEqual(Object.keys(action.outputs))
})

it('--help lists every input as a flag, in that order, with its default', () => {
  const flags = [...waitHelpText().matchAll(/^ {2}--([a-z-]+) \S+ +(.*)$/gm)]
    .filter(([, name]) => name in action.inputs)
    .map(([, name, rest]) => ({ name, default: /\(default: (.*)\)$/.exec(rest)?.[1] ?? '' }))
  expect(flags).toEqual(declared)
})

it("the README's inputs table: every input, in that order, with its default and one short line", () => {
  const rows = table(text('README.md'), 'input')
  expect(rows.map(([name, value]) => ({ name: unquoted(name), default: unquoted(value) }))).toEqual(declared)
  for (const [name, , meaning] of rows) expect({ name, short: meaning.length <= 130 }).toEqual({ name, short: true })
})

it('docs/inputs.md: every input in detail, in that order, with its default', () => {
  const rows = table(text('docs/inputs.md'), 'input')
  expect(rows.map(([name, value]) => ({ name: unquoted(name), default: unquoted(value) }))).toEqual(declared)
})

it("the README's outputs table: every output, in that order", () => {
  expect(table(text('README.md'), 'output').map(([name]) => unquoted(name))).toEqual(Object.keys(action.outputs))
})
