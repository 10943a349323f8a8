import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { runProcess } from '../helpers/support.js'

/**
 * `wait-for-model simulate` through dist/cli.js prints its engine's own start-up log, so that `--start` with it shows
 * the phases and a fatal line; its duration flags take the inputs' forms.
 */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const box = sandbox('wait-for-model-simulate-')
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '', TMPDIR: tmpdir() })
const simulateCommand = (port: number, extra: string): string =>
  `"${process.execPath}" "${cli}" simulate --engine vllm --model /shared/kimi-k2.5-int4 --port ${port} ${extra}`

describe('wait-for-model simulate', () => {
  it('--start with it: the phases from its log, then ready', async () => {
    const port = await freePort()
    const r = await runProcess(
      process.execPath,
      [
        cli,
        '--url',
        `http://127.0.0.1:${port}/v1/models`,
        '--model',
        'kimi',
        '--start',
        simulateCommand(port, '--load 2s'),
        '--interval',
        '200ms',
        '--timeout',
        '60s',
        '--history-file',
        '',
        '--json'
      ],
      { env: { ...env(), RUNNER_TEMP: box.dir() } }
    )
    const out = JSON.parse(r.stdout) as { ready: boolean; pid: number; phases: Array<{ name: string }> }
    if (out.pid) box.pids.push(out.pid)
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('engine: vLLM (from its log)')
    expect(out.phases.map((p) => p.name)).toEqual([
      'starting',
      'initializing',
      'initializing distributed',
      'loading weights',
      'compiling',
      'allocating KV cache',
      'capturing CUDA graphs',
      'starting server'
    ])
  })

  it('--start with --crash-after: the wait stops on its CUDA out of memory line', async () => {
    const port = await freePort()
    const r = await runProcess(
      process.execPath,
      [
        cli,
        '--url',
        `http://127.0.0.1:${port}/v1/models`,
        '--start',
        simulateCommand(port, '--load 60s --crash-after 1s'),
        '--interval',
        '200ms',
        '--timeout',
        '60s',
        '--history-file',
        '',
        '--json'
      ],
      { env: { ...env(), RUNNER_TEMP: box.dir() } }
    )
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({ ready: false, reason: 'log-error' })
    expect(r.stderr).toMatch(/is a known fatal vLLM line: .*torch\.OutOfMemoryError: CUDA out of memory/)
  })

  it('--log-file: the log goes there, its own lines to stderr; --ttft takes a duration form (50ms)', async () => {
    const port = await freePort()
    const file = box.path('engine.log')
    const child = spawn(
      process.execPath,
      [
        cli,
        'simulate',
        '--engine',
        'tgi',
        '--model',
        'm',
        '--port',
        String(port),
        '--load',
        '1s',
        '--crash-after',
        '1500ms',
        '--ttft',
        '50ms',
        '--log-file',
        file
      ],
      { env: env(), stdio: ['ignore', 'pipe', 'pipe'] }
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const code = await new Promise((resolve) => child.on('close', resolve))
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toContain('[simulated tgi] serving "m"')
    const log = readFileSync(file, 'utf8').trimEnd().split('\n')
    expect(log[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z {2}INFO text_generation_launcher: Args/)
    expect(log).toContainEqual(expect.stringMatching(/router\/src\/server\.rs:\d+: Connected$/))
    expect(log.at(-1)).toMatch(/Shard 0 failed to start$/)
  })

  it('refuses a --ttft that is no duration, naming the forms; a bare number is milliseconds as before', async () => {
    const bad = await runProcess(
      process.execPath,
      [cli, 'simulate', '--engine', 'vllm', '--model', 'm', '--ttft', 'soon'],
      {
        env: env()
      }
    )
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--ttft: "soon" is not a duration/)
    const tooLong = await runProcess(
      process.execPath,
      [cli, 'simulate', '--engine', 'vllm', '--model', 'm', '--ttft', '11m'],
      {
        env: env()
      }
    )
    expect(tooLong.code).toBe(2)
    expect(tooLong.stderr).toMatch(/--ttft: "11m" is over 10 minutes/)
  })
})
