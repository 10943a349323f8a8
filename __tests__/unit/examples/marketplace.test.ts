import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { NoOperationTraceWriter } from '@actions/workflow-parser'
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index'

/**
 * What the Marketplace's publish form checks in action.yml, against the lists in GitHub's own action schema
 * (shipped with its workflow parser), and one owner placeholder wherever the docs and examples use the action.
 */
const root = new URL('../../..', import.meta.url)
/** The owner placeholder (docs/releases.md, "First publication"). */
const OWNER = 'OWNER'
const text = (path: string): string => readFileSync(new URL(path, root), 'utf8')

interface SchemaDefinition {
  'allowed-values'?: string[]
}
// the package's exports do not list its schema: read the file
const schema = JSON.parse(text('node_modules/@actions/workflow-parser/dist/action-v1.0.min.json')) as {
  definitions: Record<string, SchemaDefinition>
}
const allowed = (name: string): string[] => schema.definitions[name]['allowed-values'] ?? []

const parsed = parseAction({ name: 'action.yml', content: text('action.yml') }, new NoOperationTraceWriter())
const action = convertActionTemplate(parsed.context, parsed.value!)
const branding = (() => {
  // the converted template drops branding; read the two scalars from the file
  const block = /^branding:\n((?: {2}.*\n)+)/m.exec(text('action.yml'))?.[1] ?? ''
  const value = (key: string): string | undefined => new RegExp(`^ {2}${key}: '?([^'\\n]+)'?$`, 'm').exec(block)?.[1]
  return { icon: value('icon'), color: value('color') }
})()

describe('action.yml for the Marketplace', () => {
  it('parses without errors', () => {
    expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([])
  })

  it('has a name and a description under 125 characters (the publish form refuses longer ones)', () => {
    expect(action.name).toBe('Wait for Model')
    expect(action.description?.length).toBeGreaterThan(40)
    expect(action.description?.length).toBeLessThan(125)
  })

  it('has a branding icon and colour from the lists GitHub accepts, not the clock most wait actions use', () => {
    expect(allowed('branding-icon').length).toBeGreaterThan(200)
    expect(allowed('branding-color')).toContain('purple')
    expect(allowed('branding-icon')).toContain(branding.icon)
    expect(allowed('branding-color')).toContain(branding.color)
    expect(branding).toEqual({ icon: 'cpu', color: 'purple' })
  })
})

/** Every Markdown file under docs/, the README and the examples: where users copy `uses:` lines from. */
const documents = [
  'README.md',
  'CHANGELOG.md',
  'package.json',
  ...readdirSync(new URL('examples/', root)).map((f) => `examples/${f}`),
  ...(existsSync(new URL('docs/', root))
    ? readdirSync(new URL('docs/', root), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`)
    : [])
]

describe('the owner placeholder', () => {
  it.each(documents)('%s names the action only as OWNER/wait-for-model', (path) => {
    const content = text(path)
    const uses = [...content.matchAll(/uses:\s*['"]?([^\s'"#]+\/wait-for-model)@/g)].map((m) => m[1])
    expect(uses.filter((u) => u !== `${OWNER}/wait-for-model`)).toEqual([])
    // other spellings of a repository that hosts it: github.com/x/wait-for-model, github:x/wait-for-model
    const repos = [...content.matchAll(/(?:github\.com\/|github:)([\w.-]+)\/wait-for-model\b/g)].map((m) => m[1])
    expect(repos.filter((owner) => owner !== OWNER)).toEqual([])
  })

  it('is used by every example and explained where users start', () => {
    for (const path of documents.filter((p) => p.startsWith('examples/')))
      expect({ path, uses: text(path).includes(`uses: ${OWNER}/wait-for-model@v1`) }).toEqual({ path, uses: true })
    expect(text('docs/requirements.md')).toMatch(
      /`OWNER` is a placeholder:\s+replace it with the GitHub user or organisation/
    )
  })
})
