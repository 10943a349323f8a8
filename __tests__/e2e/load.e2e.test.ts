import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { simulate } from '../../src/simulator/server.js'
import { ANSWER_TIMEOUT_MS } from '../helpers/bounds.js'

/** `load: true` through dist/cli.js against the simulator's llama.cpp router and Ollama, which load only when asked. */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // in an environment of its own: no HOME, so no history in the user's cache
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH ?? '', TMPDIR: tmpdir() },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

const wait = (url: string, model: string, extra: string[]): string[] => [
  '--url',
  url,
  '--model',
  model,
  '--interval',
  '200ms',
  '--history-file',
  '',
  '--json',
  ...extra
]

// each case runs the CLI twice, the second up to its 20 s timeout: more than jest's default 30 s on a busy machine
describe('load on demand', () => {
  it('llama.cpp router: unloaded is not ready and says how; load: true loads it and waits until loaded', async () => {
    const server = await simulate({ engine: 'llamacpp', model: 'qwen3-8b', loadMs: 800, unloaded: true })
    try {
      const url = `${server.baseUrl}/v1/models`
      const without = await runCli(wait(url, 'qwen3-8b', ['--timeout', `${ANSWER_TIMEOUT_MS}ms`]))
      expect(without.code).toBe(1)
      expect(without.stderr).toContain('"qwen3-8b" is listed but not loaded')
      expect(without.stderr).toContain('set "load: true"')
      const r = await runCli(wait(url, 'qwen3-8b', ['--timeout', '20s', '--load', 'true']))
      expect(r.code).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({ ready: true, 'model-id': 'qwen3-8b' })
      expect(r.stderr).toContain('Asked the server to load "qwen3-8b": POST /models/load')
      expect(r.stderr).toMatch(/status "loading"/)
      expect(Number(JSON.parse(r.stdout)['elapsed-seconds'])).toBeGreaterThanOrEqual(0.8)
    } finally {
      await server.close()
    }
  }, 60_000)

  it('llama.cpp router: a load whose instance exits non-zero (unloaded, exit_code, failed) ends with load-failed at once', async () => {
    // before, the failed model, listed `unloaded` again, was asked to load on every probe until the timeout
    const server = await simulate({
      engine: 'llamacpp',
      model: 'qwen3-8b',
      loadMs: 500,
      unloaded: true,
      failsToLoad: 'exit 1'
    })
    try {
      const r = await runCli(wait(`${server.baseUrl}/v1/models`, 'qwen3-8b', ['--timeout', '20s', '--load', 'true']))
      expect(r.code).toBe(1)
      const out = JSON.parse(r.stdout) as Record<string, unknown>
      expect(out).toMatchObject({ ready: false, reason: 'load-failed' })
      expect(Number(out['elapsed-seconds'])).toBeLessThan(15)
      expect(r.stderr).toContain(
        'the engine says "qwen3-8b" failed to load (the model list: failed): its instance exited with status 1. Waiting will not load it'
      )
    } finally {
      await server.close()
    }
  })

  it('Ollama: /api/ps lists the model only once the load request (no prompt, keep_alive) has loaded it', async () => {
    const server = await simulate({ engine: 'ollama', model: 'llama3.2:latest', loadMs: 800, unloaded: true })
    try {
      const url = `${server.baseUrl}/api/ps`
      const without = await runCli(wait(url, 'llama3.2', ['--timeout', `${ANSWER_TIMEOUT_MS}ms`]))
      expect(JSON.parse(without.stdout)).toMatchObject({ ready: false, reason: 'timeout' })
      const r = await runCli(wait(url, 'llama3.2', ['--timeout', '20s', '--load', 'true']))
      expect(r.code).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({ ready: true, 'model-id': 'llama3.2:latest' })
      expect(r.stderr).toContain('Asked the server to load "llama3.2": POST /api/generate')
    } finally {
      await server.close()
    }
  }, 60_000)
})
