import { PassThrough } from 'node:stream'
import { runCli } from '../../../src/cli/command-line.js'
import { loopback } from '../../helpers/loopback.js'

/* eslint-disable no-control-regex -- these tests look for the terminal's colour codes */

/** The CLI layer in-process, where a terminal can be imitated: colour on a TTY only, and never with NO_COLOR. */
const net = loopback('file')
let url: string
beforeAll(async () => {
  const server = await net.http((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[{"id":"kimi-k2"}]}')
  )
  url = `${server}/v1/models`
})

async function runWith(
  argv: string[],
  env: NodeJS.ProcessEnv,
  isTTY: boolean
): Promise<{ code: number; stdout: string; stderr: string }> {
  const collect = (s: PassThrough): (() => string) => {
    let text = ''
    s.on('data', (d: Buffer) => (text += d.toString()))
    return () => text
  }
  const stdout = Object.assign(new PassThrough(), { isTTY })
  const stderr = Object.assign(new PassThrough(), { isTTY })
  const out = collect(stdout)
  const err = collect(stderr)
  const code = await runCli(argv, { env, stdout, stderr })
  return { code, stdout: out(), stderr: err() }
}

it('colours the final line on a terminal', async () => {
  const r = await runWith(['--url', url, '--model', 'kimi'], {}, true)
  expect(r.code).toBe(0)
  expect(r.stderr).toMatch(/\n\u001b\[32mReady after [^(]+\(1 probe\); model "kimi-k2"[^\n]*\u001b\[0m\n$/)
})

it('never colours when NO_COLOR is set, even on a terminal', async () => {
  const r = await runWith(['--url', url, '--model', 'kimi'], { NO_COLOR: '1' }, true)
  expect(r.code).toBe(0)
  expect(r.stderr).toMatch(/\nReady after/)
  expect(r.stderr).not.toContain('\u001b[')
})

it('colours a usage error red on a terminal, and exits 2', async () => {
  const r = await runWith(['--url', url, '--interval', '1ms'], {}, true)
  expect(r.code).toBe(2)
  expect(r.stderr).toMatch(/^\u001b\[31mwait-for-model: --interval: "1ms" is too short/)
})
