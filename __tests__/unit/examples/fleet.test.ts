import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import type { InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { startGpus } from '../../../src/server/preflight.js'

/**
 * The fleet recipe (examples/vllm-fleet-8-gpus.yml; GitHub's parser and actionlint take the workflow with the other
 * examples): its inputs read as eight servers, each line's port its url's, each pinned to its own GPU.
 */
const root = new URL('../../..', import.meta.url).pathname

it('the eight-GPU fleet: a server per url line, on its own port and its own GPU', () => {
  const workflow = parse(readFileSync(join(root, 'examples/vllm-fleet-8-gpus.yml'), 'utf8')) as {
    jobs: { eval: { steps: Array<{ uses?: string; with?: Record<string, string> }> } }
  }
  const inputs = workflow.jobs.eval.steps.find((s) => String(s.uses ?? '').includes('wait-for-model'))?.with ?? {}
  const settings = parseSettings((name: InputName) => String(inputs[name] ?? ''), { os: 'linux', hasProc: true })
  expect(settings.servers).toHaveLength(8)
  settings.servers?.forEach((server, i) => {
    expect(server.start).toContain(`--port ${server.targets[0].url.port}`)
    expect(startGpus(server.start)).toBe(String(i))
  })
})
