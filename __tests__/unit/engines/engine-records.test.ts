/**
 * Every engine's record complete, and everything else an engine needs (docs/development.md, "Adding an engine"):
 * each field of the record, its label, its sources; a place in the log detection order when its log is known, a
 * log fixture, the simulator, and the docs' endpoint table.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { NO_LINE } from '../../../src/engines/engine-record.js'
import { type Engine, ENGINE_NAMES, ENGINE_RECORDS, ENGINES, LOG_DETECTION_ORDER } from '../../../src/engines/index.js'
import { GENERATION_ROUTES, MODEL_LIST_SHAPES } from '../../../src/engines/model-lists.js'
import { SIMULATED_ENGINES } from '../../../src/simulator/engines.js'

const root = new URL('../../../', import.meta.url)
const text = (path: string): string => readFileSync(new URL(path, root), 'utf8')
const knowsReadyLine = (engine: Engine): boolean => ENGINES[engine].log.ready !== NO_LINE
const ENGINE_FILES = readdirSync(new URL('src/engines/', root)).filter((f) => /^[a-z][a-z-]*\.ts$/.test(f))

describe('the engine records', () => {
  it('are one file each, named for the engine, each listed once in the index', () => {
    const mechanisms = [
      'cites',
      'index',
      'load',
      'match',
      'readiness',
      'streams',
      'engine-record',
      'log-markers',
      'model-lists'
    ].map((f) => `${f}.ts`)
    expect(ENGINE_FILES.filter((f) => !mechanisms.includes(f)).sort()).toEqual(
      ENGINE_NAMES.map((e) => `${e}.ts`).sort()
    )
    expect(new Set(ENGINE_NAMES).size).toBe(ENGINE_NAMES.length)
  })

  it('each hold every required field: a label, log lines, model lists, readiness, generation, sources', () => {
    const shapes = MODEL_LIST_SHAPES.map((s) => s.name)
    const routes = GENERATION_ROUTES.map((r) => r.name)
    for (const r of ENGINE_RECORDS) {
      const missing = [
        r.label.trim() === '' && 'label',
        !(r.log.signature instanceof RegExp) && 'log.signature',
        !(r.log.ready instanceof RegExp) && 'log.ready',
        !Array.isArray(r.log.phases) && 'log.phases',
        r.log.fatal.length === 0 && 'log.fatal',
        (r.modelLists.length === 0 || r.modelLists.some((s) => !shapes.includes(s))) && 'modelLists',
        !Array.isArray(r.readiness) && 'readiness',
        r.readiness.some((c) => c.path === '' || c.because === '') && 'readiness (path, because)',
        typeof r.servesOneModel !== 'boolean' && 'servesOneModel',
        r.generation.some((g) => !routes.includes(g)) && 'generation',
        // an engine that generates text streams it, and the other way round
        r.generation.length > 0 !== (r.stream !== undefined) && 'stream',
        (r.sources.length === 0 || r.sources.some((s) => s.trim() === '')) && 'sources'
      ].filter(Boolean)
      expect([r.name, missing]).toEqual([r.name, []])
    }
  })

  it('each have a label of their own', () => {
    const labels = ENGINE_RECORDS.map((r) => r.label)
    expect(new Set(labels).size).toBe(labels.length)
  })

  it('with known log lines are each in the detection order, once; the others match no line', () => {
    // a router's log names it without a line that says its model serves (production-stack)
    const knowsLines = (e: Engine): boolean => knowsReadyLine(e) || ENGINES[e].log.signature !== NO_LINE
    expect(ENGINE_NAMES.filter((e) => knowsLines(e) !== LOG_DETECTION_ORDER.includes(e))).toEqual([])
    expect(new Set(LOG_DETECTION_ORDER).size).toBe(LOG_DETECTION_ORDER.length)
    // An engine without a recorded start-up (NIM, LocalAI, KServe) has no ready line to wait for: the schedule
    // then never waits on one, and its log matches no line.
    for (const r of ENGINE_RECORDS.filter((r) => !knowsLines(r.name)))
      expect([r.name, r.log.signature.test('INFO any line at all'), r.log.phases]).toEqual([r.name, false, []])
  })

  it('with known log lines each have a log fixture of their own', () => {
    const fixtures = readdirSync(new URL('__tests__/fixtures/logs/', root))
    expect(ENGINE_NAMES.filter((e) => knowsReadyLine(e) && !fixtures.some((f) => f.startsWith(e)))).toEqual([])
  })

  it('are every one imitated by the simulator', () => {
    const simulated = Object.keys(SIMULATED_ENGINES)
    expect(ENGINE_NAMES.filter((e) => !simulated.includes(e))).toEqual([])
  })

  it("each have a row in the docs' endpoint table", () => {
    const rows = text('docs/endpoints.md')
      .split('\n')
      .filter((line) => line.startsWith('| '))
      .map((line) => line.split('|')[1].trim())
    expect(ENGINE_RECORDS.filter((r) => !rows.includes(r.label)).map((r) => r.name)).toEqual([])
  })

  it('are added as the checklist says, and it names every place an engine needs', () => {
    const checklist = text('docs/development.md').split('## Adding an engine')[1] ?? ''
    const places = [
      'src/engines/<engine>.ts',
      'src/engines/index.ts',
      'LOG_DETECTION_ORDER',
      '__tests__/fixtures/logs/',
      'src/simulator/engines.ts',
      'endpoints.md'
    ]
    expect(places.filter((p) => !checklist.includes(p))).toEqual([])
  })
})
