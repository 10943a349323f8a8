import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { simulate } from '../../../src/simulator/server.js'
import { sandbox } from '../../helpers/sandbox.js'

/** `npm run local-action` runs src/index.ts from source with tsx; .env.example is the template it reads. */
const root = new URL('../../..', import.meta.url).pathname
const box = sandbox('local-action-')

it('runs the action from source against a simulated vLLM, with inputs from an env file made from .env.example', async () => {
  const server = await simulate({ engine: 'vllm', model: '/shared/kimi-k2.5-int4', loadMs: 500 })
  try {
    const envFile = box.path('.env')
    const example = readFileSync(join(root, '.env.example'), 'utf8')
    expect(example).toMatch(/^INPUT_URL=http:\/\/localhost:8000\/v1\/models$/m)
    writeFileSync(
      envFile,
      example
        .replace(/^INPUT_URL=.*$/m, `INPUT_URL=${server.baseUrl}/v1/models`)
        .replace(/^INPUT_INTERVAL=.*$/m, 'INPUT_INTERVAL=200ms')
    )
    const child = spawn('npm', ['run', '--silent', 'local-action'], {
      cwd: root,
      // TMPDIR: tsx, which runs the sources, keeps its cache there; in the sandbox, it goes with it
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? box.dir(), ENV_FILE: envFile, TMPDIR: box.dir() },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    const code = await new Promise((resolve) => child.on('close', resolve))
    expect(out).toMatch(/::set-output name=model-id::\/shared\/kimi-k2.5-int4/)
    expect(out).toMatch(/Ready after .*; model "\/shared\/kimi-k2.5-int4"/)
    expect(code).toBe(0)
  } finally {
    await server.close()
  }
}, 60_000)
