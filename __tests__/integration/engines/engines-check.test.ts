import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ENGINES } from '../../../src/engines/index.js'
import { sandbox } from '../../helpers/sandbox.js'

/**
 * `npm run engines:check -- <engine> <checkout>` through tsx, against a checkout made of the cited texts: all found
 * is exit 0; one text gone from its file is exit 1 naming it. (CI runs it against the real llama.cpp source that
 * node-llama-cpp ships: .ci/run.)
 */
const root = new URL('../../..', import.meta.url).pathname
const box = sandbox('wfm-engines-check-')

function checkout(dir: string, leaveOut?: string): void {
  const files = new Map<string, string[]>()
  for (const c of ENGINES.llamacpp.cites ?? [])
    if (c.text !== leaveOut) files.set(c.path, [...(files.get(c.path) ?? []), c.text])
  for (const [path, texts] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), `// a file of the source\n${texts.join('\n')}\n`)
  }
}

const run = (args: string[]) =>
  spawnSync(
    process.execPath,
    [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/engines-check.mjs'), ...args],
    {
      encoding: 'utf8',
      timeout: 60_000,
      // tsx keeps a cache in the temporary folder: this test's own
      env: { ...process.env, TMPDIR: box.dir() }
    }
  )

describe('engines:check', () => {
  it('every cited text there: exit 0; one gone: exit 1, naming it; an unknown engine: exit 2', () => {
    const whole = box.path('whole')
    checkout(whole)
    const ok = run(['llama.cpp', whole])
    expect([ok.status, ok.stdout.trim().split('\n').at(-1)]).toEqual([
      0,
      `llama.cpp: all ${ENGINES.llamacpp.cites?.length} cited texts are in ${whole}`
    ])
    const gone = box.path('gone')
    checkout(gone, 'return "sleeping";')
    const bad = run(['llamacpp', gone])
    expect(bad.status).toBe(1)
    expect(bad.stdout).toContain('MISSING tools/server/server-models.h: "return \\"sleeping\\";"')
    expect(run(['nosuch', whole]).status).toBe(2)
  }, 120_000)
})
