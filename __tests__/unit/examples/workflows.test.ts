import { readdirSync, readFileSync } from 'node:fs'
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser'
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index'
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token'

/**
 * action.yml, the examples and the project's own CI workflow, checked with GitHub's own parser (the one behind
 * the Actions language service), and every use of this action checked against the inputs action.yml declares.
 */
const root = new URL('../../..', import.meta.url)
const read = (path: string): { name: string; content: string } => ({
  name: path,
  content: readFileSync(new URL(path, root), 'utf8')
})
const trace = new NoOperationTraceWriter()

const errorsOf = (result: { context: { errors: { getErrors(): Array<{ message: string }> } } }): string[] =>
  result.context.errors.getErrors().map((e) => e.message)

/** A token tree as plain data: mappings → objects, sequences → arrays, expressions → `${{ … }}`, scalars as they are. */
function plain(token: TemplateToken | undefined): unknown {
  const walk = (t: unknown): unknown => {
    if (typeof t !== 'object' || t === null) return t
    const o = t as { map?: Array<{ Key: unknown; Value: unknown }>; seq?: unknown[]; expr?: string }
    if (o.map) return Object.fromEntries(o.map.map(({ Key, Value }) => [String(walk(Key)), walk(Value)]))
    if (o.seq) return o.seq.map(walk)
    if (o.expr !== undefined) return `\${{ ${o.expr} }}`
    return t
  }
  return walk(JSON.parse(JSON.stringify(token ?? null)))
}

const action = (() => {
  const result = parseAction(read('action.yml'), trace)
  return {
    errors: errorsOf(result),
    template: result.value === undefined ? undefined : convertActionTemplate(result.context, result.value)
  }
})()

const workflows = [...readdirSync(new URL('examples/', root)).map((f) => `examples/${f}`), '.github/workflows/ci.yml']

/** This action as a step uses it: from the checkout (./) or by its repository name. */
const isThisAction = (uses: string): boolean => uses === './' || /^[^/]+\/wait-for-model@/.test(uses)

describe('action.yml', () => {
  it("is a valid node24 action by GitHub's schema", () => {
    expect(action.errors).toEqual([])
    expect(action.template?.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
    expect(action.template?.inputs?.map((i) => i.id)).toContain('url')
  })
})

describe.each(workflows)('%s', (path) => {
  const file = read(path)
  it('parses and converts without errors', async () => {
    const parsed = parseWorkflow(file, trace)
    expect(errorsOf(parsed)).toEqual([])
    expect(parsed.value).toBeDefined()
    const template = await convertWorkflowTemplate(parsed.context, parsed.value!)
    expect(template.errors ?? []).toEqual([])
    expect(template.jobs.length).toBeGreaterThan(0)
  })

  it('uses this action only with inputs action.yml declares, and always gives url', () => {
    const declared = new Set(action.template?.inputs?.map((i) => i.id))
    const required = action.template?.inputs?.filter((i) => i.required).map((i) => i.id) ?? []
    const parsed = parseWorkflow(file, trace)
    const jobs = (
      plain(parsed.value) as {
        jobs: Record<string, { steps?: Array<{ uses?: string; with?: Record<string, unknown> }> }>
      }
    ).jobs
    const uses = Object.values(jobs).flatMap((job) =>
      (job.steps ?? []).filter((s) => typeof s.uses === 'string' && isThisAction(s.uses))
    )
    expect(uses.length).toBeGreaterThan(0)
    for (const step of uses) {
      const given = Object.keys(step.with ?? {})
      expect(given.filter((name) => !declared.has(name))).toEqual([])
      expect(required.filter((name) => !given.includes(name))).toEqual([])
    }
  })
})
