import { readdirSync, readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser'
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index'
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token'

/**
 * action.yml, the examples and the project's own workflows (CI, release, CodeQL), checked with GitHub's own parser
 * (the one behind the Actions language service), and every use of this action checked against the inputs
 * action.yml declares; the release and Dependabot settings checked for what docs/releases.md says they do.
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

const inFolder = (folder: string): string[] => readdirSync(new URL(folder, root)).map((f) => `${folder}${f}`)
const workflows = [...inFolder('examples/'), ...inFolder('.github/workflows/')]
/** Where this action must appear: every example, and CI's job that runs it from the checkout. */
const usesThisAction = (path: string): boolean => path.startsWith('examples/') || path === '.github/workflows/ci.yml'

/** This action as a step uses it: from the checkout (./) or by its repository name. */
const isThisAction = (uses: string): boolean => uses === './' || /^[^/]+\/wait-for-model@/.test(uses)

describe('action.yml', () => {
  it("is a valid node24 action by GitHub's schema", () => {
    expect(action.errors).toEqual([])
    // the post step stops the server `start` launched when the job ends, however it ends
    expect(action.template?.runs).toMatchObject({
      using: 'node24',
      main: 'dist/index.js',
      post: 'dist/post.js',
      postIf: 'always()'
    })
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
    if (usesThisAction(path)) expect(uses.length).toBeGreaterThan(0)
    for (const step of uses) {
      const given = Object.keys(step.with ?? {})
      expect(given.filter((name) => !declared.has(name))).toEqual([])
      expect(required.filter((name) => !given.includes(name))).toEqual([])
    }
  })
})

/** A workflow as plain data, for the settings the parser's template does not keep. */
const workflowData = (path: string) => plain(parseWorkflow(read(path), trace).value) as Record<string, unknown>

describe('the project workflows', () => {
  it('includes CI, release and CodeQL', () => {
    expect(workflows).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        '.github/workflows/release.yml',
        '.github/workflows/codeql.yml'
      ])
    )
  })

  it('CI runs on the Node of .node-version (24, as the action) and uploads the expected dist/ when it differs', () => {
    expect(readFileSync(new URL('.node-version', root), 'utf8').trim()).toBe('24')
    const steps = (
      workflowData('.github/workflows/ci.yml').jobs as Record<string, { steps: Array<Record<string, unknown>> }>
    ).ci.steps
    expect(steps.find((s) => String(s.uses).startsWith('actions/setup-node@'))?.with).toEqual({
      'node-version-file': '.node-version'
    })
    const upload = steps.find((s) => String(s.uses).startsWith('actions/upload-artifact@'))
    expect(upload).toMatchObject({ if: expect.stringContaining('failure()'), with: { path: 'dist/' } })
  })

  it('release runs on vX.Y.Z tags only, checks dist/, creates the release and moves the major tag', () => {
    const release = workflowData('.github/workflows/release.yml')
    expect(release.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+'] } })
    const script = JSON.stringify(release.jobs)
    expect(script).toContain('npm run build')
    expect(script).toContain('git status --porcelain -- dist')
    expect(script).toContain('gh release create \\"$TAG\\" --verify-tag')
    expect(script).toContain('git push --force origin \\"refs/tags/$major\\"')
  })
})

describe('.github/dependabot.yml', () => {
  const config = parse(readFileSync(new URL('.github/dependabot.yml', root), 'utf8')) as {
    version: number
    updates: Array<{ 'package-ecosystem': string; directory: string; schedule: { interval: string }; groups?: object }>
  }

  it('updates npm packages and GitHub Actions weekly, grouped', () => {
    expect(config.version).toBe(2)
    expect(config.updates.map((u) => u['package-ecosystem']).sort()).toEqual(['github-actions', 'npm'])
    for (const update of config.updates) {
      expect(update).toMatchObject({ directory: '/', schedule: { interval: 'weekly' } })
      expect(Object.keys(update.groups ?? {}).length).toBeGreaterThan(0)
    }
  })

  it('groups the packages bundled into dist/, which are every import of src/ outside node:', () => {
    const npm = config.updates.find((u) => u['package-ecosystem'] === 'npm')!
    const bundled = (npm.groups as Record<string, { patterns: string[] }>).bundled.patterns
    const imports = new Set<string>()
    /** The package a specifier names: `undici/lib/x.js` → undici, `../../node_modules/@actions/core/lib/x.js` → @actions/core. */
    const packageOf = (specifier: string): string | undefined => {
      const bare = specifier.includes('node_modules/') ? specifier.split('node_modules/').pop()! : specifier
      if (bare.startsWith('.') || bare.startsWith('node:')) return undefined
      return bare
        .split('/')
        .slice(0, bare.startsWith('@') ? 2 : 1)
        .join('/')
    }
    const walk = (folder: URL): void => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(new URL(`${entry.name}/`, folder))
        else
          for (const m of readFileSync(new URL(entry.name, folder), 'utf8').matchAll(
            /(?:from |import\(\s*(?:\/\*[^*]*\*\/\s*)?)'([^']+)'/g
          ))
            imports.add(packageOf(m[1]) ?? '')
      }
    }
    walk(new URL('src/', root))
    imports.delete('')
    expect([...imports].sort()).toEqual([...bundled].sort())
  })
})

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, unknown> }
type Job = {
  steps?: Step[]
  env?: Record<string, unknown>
  strategy?: { matrix?: { include?: Array<Record<string, unknown>> } }
}
const jobsOf = (path: string): Record<string, Job> => (workflowData(path) as { jobs: Record<string, Job> }).jobs

/** The programs that are model servers: launched from a `run:` step, the gate could not watch them. */
const SERVER_COMMAND =
  /\b(vllm serve|sglang\.launch_server|llama-server|text-generation-launcher|tritonserver|ollama serve|lmdeploy serve|trtllm-serve)\b/

describe.each(workflows.filter((w) => w.startsWith('examples/')))('%s launches its server through the gate', (path) => {
  const jobs = jobsOf(path)

  it('starts every server with "start", or with nohup in a run step only for a gate given its pid and log-file', () => {
    for (const job of Object.values(jobs)) {
      const gates = (job.steps ?? []).filter((s) => typeof s.uses === 'string' && isThisAction(s.uses))
      const byPid = gates.some((g) => g.with?.pid !== undefined && g.with?.['log-file'] !== undefined)
      const watched = byPid || gates.some((g) => g.with?.start !== undefined)
      for (const step of job.steps ?? []) {
        const run = typeof step.run === 'string' ? step.run : ''
        // a server launched from a run step and not watched by its pid: a crash would wait out the whole timeout
        if (SERVER_COMMAND.test(run))
          expect({ run, background: /^nohup .*&$/m.test(run), byPid }).toEqual({ run, background: true, byPid: true })
        if (/\bnohup\b/.test(run)) expect(watched).toBe(true)
      }
    }
  })

  it('gives each job of a matrix its own port, and pins its GPUs with CUDA_VISIBLE_DEVICES', () => {
    for (const job of Object.values(jobs)) {
      const include = job.strategy?.matrix?.include
      if (include === undefined) continue
      const ports = include.map((entry) => new URL(String(entry.url)).port)
      expect(new Set(ports).size).toBe(ports.length)
      for (const entry of include)
        expect(String(entry.start ?? '')).toContain(`--port ${new URL(String(entry.url)).port}`)
      const envs = [job.env, ...(job.steps ?? []).map((s) => s.env)]
      expect(envs.some((env) => env !== undefined && 'CUDA_VISIBLE_DEVICES' in env)).toBe(true)
    }
  })

  it('leaves the server it started to the job-end step, with no stop step of its own, or stops it itself', () => {
    for (const job of Object.values(jobs)) {
      const gates = (job.steps ?? []).filter((s) => typeof s.uses === 'string' && isThisAction(s.uses))
      const starts = gates.filter((s) => s.with?.start !== undefined || s.with?.pid !== undefined)
      const kills = (job.steps ?? []).filter(
        (s) => typeof s.run === 'string' && /\bkill\b|wait-for-model stop\b/.test(s.run)
      )
      if (starts.length === 0) continue
      // `stop: job-end` (the default) stops the process group at the job end: a hand-written loop only repeats it.
      // An example that keeps the server (`stop: never`) says so and stops it with the CLI in an always() step; a
      // server given by `pid` is stopped at the job end only with `stop: always`.
      const kept = starts.some(
        (s) => s.with?.stop === 'never' || (s.with?.start === undefined && s.with?.stop !== 'always')
      )
      expect({ kept, kills: kills.length }).toEqual({ kept, kills: kept ? 1 : 0 })
      if (kept)
        expect(kills[0]).toMatchObject({ if: 'always()', run: expect.stringMatching(/wait-for-model stop --pid /) })
    }
  })
})
