import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { simulate } from '../../src/simulator/server.js'
import { runAction } from '../../src/simulator/runner.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, runProcess } from '../helpers/support.js'

/**
 * The same defaults everywhere: an input missing from the environment takes its action.yml default, history-file
 * ("auto") included, in the action (dist/index.js) and in the CLI (dist/cli.js); one set to '' is history off.
 */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const box = sandbox('wait-for-model-defaults-')

const historyLines = (file: string): Array<{ ready: boolean }> =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { ready: boolean })

describe('an input missing from the environment takes its action.yml default', () => {
  it('the action without INPUT_HISTORY-FILE keeps its history under RUNNER_TOOL_CACHE; with it empty, none', async () => {
    const server = await simulate({ engine: 'openai', model: 'm', loadMs: 0 })
    try {
      const inputs = { url: `${server.baseUrl}/v1/models`, model: 'm', interval: '100ms', timeout: '20s' }
      const cache = box.path('tool-cache')
      const file = join(cache, 'wait-for-model', 'history.jsonl')
      const given = await runAction({ entry, inputs, env: { RUNNER_TOOL_CACHE: cache } })
      expect(given.code).toBe(0)
      expect(historyLines(file)).toEqual([expect.objectContaining({ ready: true })])
      const off = await runAction({
        entry,
        inputs: { ...inputs, 'history-file': '' },
        env: { RUNNER_TOOL_CACHE: cache }
      })
      expect(off.code).toBe(0)
      expect(historyLines(file)).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  it('the CLI without INPUT_HISTORY-FILE keeps its history under XDG_CACHE_HOME; INPUT_HISTORY-FILE empty, none', async () => {
    const server = await simulate({ engine: 'openai', model: 'm', loadMs: 0 })
    try {
      const cache = box.path('xdg-cache')
      const file = join(cache, 'wait-for-model', 'history.jsonl')
      const env = {
        PATH: process.env.PATH ?? '',
        TMPDIR: tmpdir(),
        XDG_CACHE_HOME: cache,
        INPUT_URL: `${server.baseUrl}/v1/models`,
        INPUT_MODEL: 'm',
        INPUT_INTERVAL: '100ms'
      }
      const given = await runProcess(process.execPath, [cli], { env })
      expect(given.code).toBe(0)
      expect(historyLines(file)).toEqual([expect.objectContaining({ ready: true })])
      const off = await runProcess(process.execPath, [cli], { env: { ...env, 'INPUT_HISTORY-FILE': '' } })
      expect(off.code).toBe(0)
      expect(historyLines(file)).toHaveLength(1)
    } finally {
      await server.close()
    }
  })
})
