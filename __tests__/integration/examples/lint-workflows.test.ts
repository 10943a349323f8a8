import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { sandbox } from '../../helpers/sandbox.js'

/** `npm run lint:workflows` (actionlint, as .ci/run runs it): what it finds, what it lets through, and the project's own files. */
const script = new URL('../../../scripts/lint-workflows.mjs', import.meta.url).pathname
const box = sandbox('wait-for-model-lint-')

function lint(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [script, ...args], (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr })
    )
  )
}

const workflow = (runsOn: string, step: string): string =>
  `on: pull_request\njobs:\n  gate:\n    runs-on: ${runsOn}\n    steps:\n      - ${step}\n`

it('passes the workflows in .github/workflows/ and examples/', async () => {
  const r = await lint()
  expect(r.stderr).toBe('')
  expect(r.stdout).toMatch(/^actionlint: ([6-9]|\d\d+) workflows, 0 findings$/m)
  expect(r.code).toBe(0)
}, 30_000)

it('finds an untrusted expression in a script and a step output that does not exist', async () => {
  const file = box.path('bad.yml')
  writeFileSync(
    file,
    workflow('ubuntu-latest', 'run: echo "${{ github.event.pull_request.title }}"') +
      '      - run: echo "${{ steps.nope.outputs.x }}"\n'
  )
  const r = await lint(file)
  expect(r.code).toBe(1)
  expect(r.stderr).toMatch(
    /bad\.yml:6:\d+: "github\.event\.pull_request\.title" is potentially untrusted.*\[expression\]/
  )
  expect(r.stderr).toMatch(/bad\.yml:7:\d+: property "nope" is not defined.*\[expression\]/)
}, 30_000)

it('takes the self-hosted labels .github/actionlint.yaml declares, and no others', async () => {
  writeFileSync(box.path('gpu.yml'), workflow('[self-hosted, gpu, multi-gpu]', 'run: nvidia-smi'))
  expect((await lint(box.path('gpu.yml'))).code).toBe(0)
  writeFileSync(box.path('tpu.yml'), workflow('[self-hosted, tpu]', 'run: echo'))
  const r = await lint(box.path('tpu.yml'))
  expect(r.code).toBe(1)
  expect(r.stderr).toMatch(/label "tpu" is unknown.*\[runner-label\]/)
}, 30_000)

it('fails on a folder without workflows rather than passing on nothing', async () => {
  const empty = mkdtempSync(box.path('empty-'))
  const r = await lint(empty)
  expect(r.code).toBe(1)
  expect(r.stderr).toContain('no workflow in')
})
