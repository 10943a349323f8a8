import { writeFileSync } from 'node:fs'
import { loopback } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { errors, runMeasured, runProcess } from '../helpers/support.js'

/**
 * Issue 26 item 9, through dist/: exports that stay inert (a shared history whose keys and phase names hold
 * workflow commands), an ambiguous match over 4000 long ids, and a fleet of 1000 URLs, within their bounds.
 */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const box = sandbox('wfm-bounded-lists-')
const net = loopback('file')
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '', HOME: box.dir(), TMPDIR: box.dir() })

describe('exports and lists bounded and inert (issue 26 item 9)', () => {
  it('history --format csv and table: a key or phase holding "\\n::error::x" stays in its field, inert', async () => {
    const file = box.path('history.jsonl')
    const run = (key: string, at: string, phase: string): string =>
      JSON.stringify({
        v: 1,
        key,
        at,
        ready: true,
        reason: 'ready',
        elapsedSeconds: 1,
        phases: [{ name: phase, seconds: 1 }]
      })
    writeFileSync(
      file,
      [
        run('k\n::error::from-key', '2026-01-01T00:00:00Z', 'load\r\n::warning::from-phase'),
        run('k2', '::error::from-at', 'p\u001b[2Jclear'),
        run('k3\u2028::error::ls', '2026-01-01T00:00:01Z', 'tab\there')
      ].join('\n') + '\n'
    )
    for (const format of ['csv', 'table']) {
      const r = await runProcess(process.execPath, [cli, 'history', '--file', file, '--format', format], { env: env() })
      expect(r.code).toBe(0)
      const lines = r.stdout.split(/\r?\n|\r|\u2028/).filter((l) => l !== '')
      // the header and one line per run: no field broke its line
      expect(lines).toHaveLength(4)
      for (const line of lines) expect(line.trimStart()).not.toMatch(/^::/)
      expect(r.stdout).not.toContain('\u001b')
      expect(r.stdout).toContain('k\\n::error::from-key')
      expect(r.stdout).toContain('load\\r\\n::warning::from-phase')
    }
  })

  it('an ambiguous match over 4000 long ids names the first 20 and a count: annotation, summary, check, --json', async () => {
    const ids = Array.from({ length: 4000 }, (_, i) => `org/kimi-${'x'.repeat(200)}-${i}`)
    const url = await net.http(
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ object: 'list', data: ids.map((id) => ({ id })) }))
    )
    const r = await runMeasured({ url: `${url}/v1/models`, model: 'kimi', timeout: '5s', 'history-file': '' })
    expect(r.outputs.reason).toBe('ambiguous-model')
    const [error] = errors(r.stdout)
    expect(error).toContain('fits 4000 listed models')
    expect(error).toContain('and 3980 more')
    expect(Buffer.byteLength(error)).toBeLessThan(8 * 1024)
    expect(Buffer.byteLength(r.summary)).toBeLessThan(32 * 1024)
    for (const line of r.stdout.split('\n')) expect(Buffer.byteLength(line)).toBeLessThan(8 * 1024)
    const check = await runProcess(process.execPath, [cli, 'check', '--url', `${url}/v1/models`, '--model', 'kimi'], {
      env: env()
    })
    for (const line of (check.stdout + check.stderr).split('\n')) expect(Buffer.byteLength(line)).toBeLessThan(8 * 1024)
    expect(check.stdout + check.stderr).toContain('and 3980 more')
    const json = await runProcess(
      process.execPath,
      [cli, '--url', `${url}/v1/models`, '--model', 'kimi', '--timeout', '5s', '--json'],
      { env: env() }
    )
    // the `models` output is the list as served, to its own bound of 1000 ids; the rest is small
    const { models, ...rest } = JSON.parse(json.stdout)
    expect(models.length).toBeLessThanOrEqual(1000)
    expect(Buffer.byteLength(JSON.stringify(rest))).toBeLessThan(8 * 1024)
    for (const line of json.stderr.split('\n')) expect(Buffer.byteLength(line)).toBeLessThan(8 * 1024)
    expect(json.stderr).toContain('and 3980 more')
  })

  it.each([
    ['refused', false],
    ['ready', true]
  ])('a fleet of 1000 URLs (%s) stays under 150 MB peak RSS', async (_what, ready) => {
    const url = ready
      ? await net.http((_req, res) => void res.writeHead(200).end('{"object":"list","data":[{"id":"kimi"}]}'))
      : 'http://127.0.0.1:9'
    const urls = Array.from({ length: 1000 }, (_, i) => `${url}/e${i}/v1/models`).join('\n')
    const r = await runMeasured({ url: urls, timeout: ready ? '30s' : '2s', 'history-file': '' })
    expect(r.outputs.ready).toBe(String(ready))
    process.stdout.write(`fleet of 1000 (${_what}): peak RSS ${r.peakRssMb.toFixed(0)} MB\n`)
    expect(r.peakRssMb).toBeLessThan(150)
  })
})
