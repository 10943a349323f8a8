import { existsSync, readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { freePort } from '../../src/simulator/server.js'
import { codeBlocks, fakeTools, leftBehind, localised, pidsIn } from '../helpers/recipes.js'
import { sandbox } from '../helpers/sandbox.js'
import { type ProcessRun, runProcess } from '../helpers/support.js'

/**
 * docs/other-ci.md's recipes, run as written against the simulator: GitLab CI's script and after_script, the
 * Buildkite step's command (with a fake buildkite-agent) and the Jenkinsfile's sh steps, each as its CI system runs it;
 * each leaves no server running and nothing listening on its port once its always-run block has run.
 */
const stopped = { running: [], listening: false }
const box = sandbox('wfm-other-ci-')
// each recipe starts Node three or four times: on a loaded two-core machine, more than jest's default 30s
const RECIPE_MS = 90_000

/** One shell, as the CI system starts it, in the job's directory with the fakes first on PATH. */
async function shell(args: string[], script: string): Promise<ProcessRun> {
  const dir = box.dir()
  const run = await runProcess(args[0], [...args.slice(1), script], {
    cwd: dir,
    env: { PATH: `${fakeTools(dir)}:${process.env.PATH}`, HOME: dir, XDG_CACHE_HOME: dir, TMPDIR: dir }
  })
  box.pids.push(...pidsIn(box.path('pids')))
  return run
}

const summary = (): string => readFileSync(box.path('wait-for-model.md'), 'utf8')

/** A Buildkite step's commands as the agent runs them: `$$` is `$` once `buildkite-agent pipeline upload` read the file. */
const uploaded = (commands: string[]): string => commands.join('\n').replace(/\$\$/g, '$')

/** The summary of a ready wait for the simulated vLLM: the action's heading and table, and the model it matched. */
function expectReadySummary(markdown: string): void {
  expect(markdown).toMatch(/^### wait-for-model\n\n\| \| \|\n\|---\|---\|\n\| Result \| ✅ ready \|\n/)
  expect(markdown).toContain('| Matched model | `Qwen/Qwen3-0.6B` |')
  // it waited: the simulator answers 200 only after its 1.5s of loading
  expect(Number(/\| Elapsed \| ([\d.]+) s \|/.exec(markdown)?.[1])).toBeGreaterThanOrEqual(1.2)
}

describe('docs/other-ci.md', () => {
  it(
    'GitLab CI: the script waits and writes the summary, after_script prints it and stops the server, the artifacts keep it',
    async () => {
      const [block] = codeBlocks('other-ci.md', 'GitLab CI')
      expect(block.lang).toBe('yaml')
      const jobs = parse(block.body) as Record<string, Record<string, unknown>>
      const [job] = Object.values(jobs)
      expect(job.artifacts).toEqual({ when: 'always', paths: ['wait-for-model.md', 'vllm.log'] })
      const port = await freePort()
      const lines = (name: string): string => localised((job[name] as string[]).join('\n'), port, box.path('pids'))
      // GitLab runs before_script and script in one shell that stops at the first failing command
      const main = await shell(['bash', '-e', '-c'], `${lines('before_script')}\n${lines('script')}`)
      expect({ code: main.code, stderr: main.code === 0 ? '' : main.stderr }).toEqual({ code: 0, stderr: '' })
      expect(main.stderr).toMatch(/^Ready after \d+\.\ds/m)
      // the server outlived the script, for the tests in it; after_script (its own shell) stops it
      expect(await leftBehind(box.path('pids'), port)).toEqual({ running: pidsIn(box.path('pids')), listening: true })
      const after = await shell(['bash', '-e', '-c'], lines('after_script'))
      expect({ code: after.code, stderr: after.code === 0 ? '' : after.stderr }).toEqual({ code: 0, stderr: '' })
      expect(after.stdout).toBe(summary())
      expectReadySummary(summary())
      expect(existsSync(box.path('vllm.log'))).toBe(true)
      expect(await leftBehind(box.path('pids'), port)).toEqual(stopped)
    },
    RECIPE_MS
  )

  it(
    'Buildkite: a ready wait annotates the build with the summary in green, the step passes, its trap stops the server',
    async () => {
      const [block] = codeBlocks('other-ci.md', 'Buildkite')
      const step = (parse(block.body) as { steps: Array<Record<string, unknown>> }).steps[0]
      expect(step.artifact_paths).toEqual(['wait-for-model.md', 'vllm.log'])
      const port = await freePort()
      // the agent's default shell: bash -e -c, the commands joined by newlines
      const r = await shell(['bash', '-e', '-c'], localised(uploaded(step.command as string[]), port, box.path('pids')))
      expect({ code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ code: 0, stderr: '' })
      expectReadySummary(summary())
      expect(await leftBehind(box.path('pids'), port)).toEqual(stopped)
      expect(readFileSync(box.path('calls.log'), 'utf8')).toBe(
        `buildkite-agent annotate --style success --context wait-for-model\n${summary()}\n--end--\n`
      )
    },
    RECIPE_MS
  )

  it(
    'Buildkite: a wait that fails annotates in red with the reason, the step fails with its status, the server is stopped',
    async () => {
      const [block] = codeBlocks('other-ci.md', 'Buildkite')
      const step = (parse(block.body) as { steps: Array<{ command: string[] }> }).steps[0]
      const port = await freePort()
      // the server lists another model: the wait times out (in 2s, not 20m)
      const script = localised(uploaded(step.command), port, box.path('pids'), [
        [/--model Qwen\/Qwen3-0.6B --port/, '--model other/model --port'],
        ['--timeout 20m', '--timeout 2s']
      ])
      const r = await shell(['bash', '-e', '-c'], script)
      expect(r.code).toBe(1)
      expect(summary()).toMatch(/\| Result \| ❌ not ready \(timeout\) \|/)
      expect(summary()).toMatch(/Timed out after 2\.\ds/)
      expect(await leftBehind(box.path('pids'), port)).toEqual(stopped)
      expect(readFileSync(box.path('calls.log'), 'utf8')).toBe(
        `buildkite-agent annotate --style error --context wait-for-model\n${summary()}\n--end--\n`
      )
    },
    RECIPE_MS
  )

  it(
    'Jenkins: each sh step in its own shell, the server outliving its step; post stops it and keeps the summary',
    async () => {
      const [block] = codeBlocks('other-ci.md', 'Jenkins')
      expect(block.lang).toBe('groovy')
      const sh = (text: string): string[] =>
        [...text.matchAll(/^\s*sh '([^']*)'(?: *\/\/.*)?$/gm)].map(([, command]) => command)
      const [stages, post] = block.body.split(/^ {2}post \{$/m)
      expect(sh(stages)).toHaveLength(3)
      expect(post).toMatch(
        /^\n\s+always \{\n\s+sh '[^']*'\n\s+archiveArtifacts artifacts: 'wait-for-model\.md, vllm\.log', allowEmptyArchive: true/
      )
      const port = await freePort()
      // Jenkins runs each sh step as `sh -xe` with the step's text as a script
      const run = async (step: string): Promise<void> => {
        const r = await shell(['sh', '-xe', '-c'], localised(step, port, box.path('pids')))
        expect({ step, code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ step, code: 0, stderr: '' })
      }
      for (const step of sh(stages)) await run(step)
      expectReadySummary(summary())
      expect((await leftBehind(box.path('pids'), port)).listening).toBe(true)
      for (const step of sh(post)) await run(step)
      expect(await leftBehind(box.path('pids'), port)).toEqual(stopped)
    },
    RECIPE_MS
  )
})
