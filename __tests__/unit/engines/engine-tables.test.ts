/**
 * Every engine in every engine table: the master list (src/engines/engine-names.ts) against each table keyed by
 * engine, the simulator, the fixtures of its log and the docs' endpoint table. Adding an engine to the list and
 * forgetting a table fails here (or, for the Record tables, already in the compiler); src/engines/README.md is
 * the checklist this test holds.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { ENGINE_LABELS, ENGINE_NAMES } from '../../../src/engines/engine-names.js'
import { ENGINE_LOGS, engineLog, knowsReadyLine } from '../../../src/engines/log-markers.js'
import { ENGINE_READINESS } from '../../../src/engines/readiness.js'
import { ENGINE_STREAMS } from '../../../src/engines/streams.js'
import { SIMULATED_ENGINES } from '../../../src/simulator/engines.js'

const root = new URL('../../../', import.meta.url)
const text = (path: string): string => readFileSync(new URL(path, root), 'utf8')
const sorted = (names: readonly string[]): string[] => [...names].sort()

describe('the engine tables', () => {
  it('each keyed by engine names every engine of the master list, and no other', () => {
    const tables = { ENGINE_LABELS, ENGINE_READINESS, ENGINE_STREAMS }
    for (const [name, table] of Object.entries(tables))
      expect([name, sorted(Object.keys(table))]).toEqual([name, sorted(ENGINE_NAMES)])
  })

  it("the log table has one entry per engine, in the master list's order, under the engine's label", () => {
    expect(ENGINE_LOGS.map((e) => e.engine)).toEqual([...ENGINE_NAMES])
    for (const log of ENGINE_LOGS) expect([log.engine, log.label]).toEqual([log.engine, ENGINE_LABELS[log.engine]])
  })

  it('the simulator imitates every engine', () => {
    const simulated = Object.keys(SIMULATED_ENGINES)
    expect(ENGINE_NAMES.filter((e) => !simulated.includes(e))).toEqual([])
  })

  it('every engine whose log lines are known has a log fixture of its own; the others say they know none', () => {
    const fixtures = readdirSync(new URL('__tests__/fixtures/logs/', root))
    expect(ENGINE_NAMES.filter((e) => knowsReadyLine(e) && !fixtures.some((f) => f.startsWith(e)))).toEqual([])
    // An engine without a recorded start-up (NIM, LocalAI, KServe) has no ready line to wait for: the schedule
    // then never waits on one (see knowsReadyLine's users), and its entry matches no line of a log.
    for (const e of ENGINE_NAMES.filter((e) => !knowsReadyLine(e)))
      expect([e, engineLog(e).signature.test('INFO any line at all')]).toEqual([e, false])
  })

  it("the docs' endpoint table has a row for every engine", () => {
    const rows = text('docs/endpoints.md')
      .split('\n')
      .filter((line) => line.startsWith('| '))
      .map((line) => line.split('|')[1].trim())
    expect(ENGINE_NAMES.filter((e) => !rows.includes(ENGINE_LABELS[e]))).toEqual([])
  })

  it('the checklist names every file that holds an engine table', () => {
    const checklist = text('src/engines/README.md')
    const files = [
      'engine-names.ts',
      'log-markers.ts',
      'readiness.ts',
      'streams.ts',
      'model-lists.ts',
      'load.ts',
      'src/simulator/engines.ts',
      '__tests__/fixtures/logs/',
      'docs/endpoints.md'
    ]
    expect(files.filter((f) => !checklist.includes(f))).toEqual([])
  })
})
