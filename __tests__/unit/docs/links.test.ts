import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

/** The README is a landing page, and every relative link in it and in docs/ leads somewhere that exists. */
const root = new URL('../../..', import.meta.url).pathname
const pages = [
  'README.md',
  'SECURITY.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
]

/** Markdown outside fenced code blocks, where `[text](target)` is a link and not, say, YAML. */
const prose = (markdown: string): string => markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '')

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string): string =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')

const anchorsOf = (markdown: string): Set<string> =>
  new Set([...prose(markdown).matchAll(/^#{1,6} +(.+)$/gm)].map(([, heading]) => anchor(heading.trim())))

/** Each relative link of `page` (a path from the root) that leads nowhere, with the reason. */
function brokenLinks(page: string, markdown: string): string[] {
  const broken: string[] = []
  for (const [, target] of prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:: not a file of this repository
    const [path, fragment] = target.split('#', 2)
    const file = path === '' ? join(root, page) : join(root, dirname(page), path)
    if (!existsSync(file)) {
      broken.push(`${page}: ${target} (no ${relative(root, file)})`)
      continue
    }
    if (fragment !== undefined && !(statSync(file).isFile() && anchorsOf(readFileSync(file, 'utf8')).has(fragment)))
      broken.push(`${page}: ${target} (no heading #${fragment} in ${relative(root, file)})`)
  }
  return broken
}

it('keeps the README a landing page of at most 300 lines, with the rest in docs/', () => {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length
  expect(lines).toBeLessThanOrEqual(300)
  expect(pages).toEqual(expect.arrayContaining(['docs/README.md', 'docs/how-it-decides.md', 'docs/development.md']))
})

it('has no relative link in README.md or docs/ to a file or heading that does not exist', () => {
  const links = pages.flatMap((page) => [...prose(readFileSync(join(root, page), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)])
  expect(links.length).toBeGreaterThan(30)
  expect(pages.flatMap((page) => brokenLinks(page, readFileSync(join(root, page), 'utf8')))).toEqual([])
})

it('links every docs page from the docs index', () => {
  const index = readFileSync(join(root, 'docs/README.md'), 'utf8')
  const unlinked = pages.filter((p) => p.startsWith('docs/') && p !== 'docs/README.md')
  expect(unlinked.filter((p) => !index.includes(`](${p.slice('docs/'.length)})`))).toEqual([])
})

it('reports a link to a missing file or heading, and not one to a heading that exists', () => {
  const page = 'docs/how-it-decides.md'
  expect(
    brokenLinks(
      page,
      '[a](missing.md) [b](guarantees.md#no-such-heading) [c](guarantees.md#the-fault-matrix-measured) [d](#how-fast-it-sees-readiness) [e](https://example.com/x)\n```yaml\n[f](ignored.md)\n```\n'
    )
  ).toEqual([
    'docs/how-it-decides.md: missing.md (no docs/missing.md)',
    'docs/how-it-decides.md: guarantees.md#no-such-heading (no heading #no-such-heading in docs/guarantees.md)'
  ])
})
