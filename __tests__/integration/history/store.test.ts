import { spawn } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import ts from 'typescript'
import type { RunRecord } from '../../../src/history/record.js'
import {
  appendRun,
  defaultHistoryFile,
  historyKey,
  MAX_LINE_BYTES,
  parseHistory,
  prepareHistory,
  readHistory,
  runLine
} from '../../../src/history/store.js'
import { sandbox } from '../../helpers/sandbox.js'

const box = sandbox('wfm-history-')

let n = 0
const run = (over: Partial<RunRecord> = {}): RunRecord => ({
  v: 1,
  key: 'k',
  at: new Date(Date.UTC(2026, 6, 1) + n++ * 60_000).toISOString(),
  ready: true,
  reason: 'ready',
  elapsedSeconds: 100,
  startupSeconds: 300,
  engine: 'vllm',
  phases: [
    { name: 'loading weights', seconds: 200 },
    { name: 'capturing CUDA graphs', seconds: 40 }
  ],
  ...over
})

describe('the history file', () => {
  it('appends one line per run and reads them back in order', async () => {
    const file = box.path('history.jsonl')
    expect(await appendRun(file, run({ startupSeconds: 1 }))).toBe('appended')
    expect(await appendRun(file, run({ startupSeconds: 2, key: 'other' }))).toBe('appended')
    const text = readFileSync(file, 'utf8')
    expect(text.split('\n')).toHaveLength(3)
    expect(readHistory(file).runs.map((r) => [r.key, r.startupSeconds])).toEqual([
      ['k', 1],
      ['other', 2]
    ])
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  it('a missing file is an empty history', () => {
    expect(readHistory(box.path('none.jsonl'))).toEqual({ runs: [], skipped: 0 })
  })

  it('skips lines it cannot read and counts them (a torn line, a foreign line, a wrong shape)', async () => {
    const file = box.path('history.jsonl')
    writeFileSync(
      file,
      [
        JSON.stringify(run({ startupSeconds: 1 })),
        '{"key":"k","ready":tr',
        'not json at all',
        '{"key":"k","ready":"yes","elapsedSeconds":1,"phases":[]}',
        '',
        JSON.stringify(run({ startupSeconds: 2 }))
      ].join('\n') + '\n'
    )
    const h = readHistory(file)
    expect(h.skipped).toBe(3)
    expect(h.runs.map((r) => r.startupSeconds)).toEqual([1, 2])
    // appending after a torn last line without a newline still gives readable lines after it
    appendFileSync(file, '{"torn":')
    await appendRun(file, run({ startupSeconds: 3 }))
    expect(readHistory(file).runs.map((r) => r.startupSeconds)).toEqual([1, 2])
    expect(readHistory(file).skipped).toBe(4)
  })

  it('trims each key to its last 100 runs, keeping other keys and dropping unreadable lines', async () => {
    const file = box.path('history.jsonl')
    const lines = Array.from({ length: 103 }, (_, i) => JSON.stringify(run({ startupSeconds: i })))
    lines.splice(50, 0, JSON.stringify(run({ key: 'other', startupSeconds: 999 })), 'garbage')
    writeFileSync(file, lines.join('\n') + '\n')
    await appendRun(file, run({ startupSeconds: 103 }))
    const { runs, skipped } = readHistory(file)
    expect(skipped).toBe(0)
    const mine = runs.filter((r) => r.key === 'k').map((r) => r.startupSeconds)
    expect(mine).toHaveLength(100)
    expect(mine[0]).toBe(4)
    expect(mine[99]).toBe(103)
    expect(runs.filter((r) => r.key === 'other')).toHaveLength(1)
  })

  it('does not trim under a lock another process holds, and breaks a lock left behind by a dead one', async () => {
    const file = box.path('history.jsonl')
    writeFileSync(
      file,
      Array.from({ length: 5 }, (_, i) => JSON.stringify(run({ startupSeconds: i }))).join('\n') + '\n'
    )
    writeFileSync(`${file}.lock`, '')
    expect(await appendRun(file, run({ startupSeconds: 5 }), { keep: 2, lockWaitMs: 20 })).toBe('appended')
    expect(readHistory(file).runs).toHaveLength(6)
    const old = (Date.now() - 60_000) / 1000
    utimesSync(`${file}.lock`, old, old)
    await appendRun(file, run({ startupSeconds: 6 }), { keep: 2 })
    expect(readHistory(file).runs.map((r) => r.startupSeconds)).toEqual([5, 6])
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  it('a cancel while the lock is held elsewhere ends the wait for it at once, and nothing is recorded (issue 26 item 7)', async () => {
    const file = box.path('history.jsonl')
    writeFileSync(file, '')
    writeFileSync(`${file}.lock`, '')
    const cancel = new AbortController()
    // the wait sleeps on timers: this timer runs during it, which a blocking wait would not let it do
    setTimeout(() => cancel.abort(), 20)
    const appended = appendRun(file, run({ startupSeconds: 1 }), { lockWaitMs: 60_000, signal: cancel.signal })
    await expect(appended).resolves.toBe('cancelled')
    expect(readFileSync(file, 'utf8')).toBe('')
    // the other process's lock is left as it is
    expect(existsSync(`${file}.lock`)).toBe(true)
  })

  it('a lock held past the lock wait: the line is appended all the same, the trim left for later', async () => {
    const file = box.path('history.jsonl')
    writeFileSync(`${file}.lock`, '')
    expect(await appendRun(file, run({ startupSeconds: 1 }), { lockWaitMs: 0 })).toBe('appended')
    expect(readHistory(file).runs).toHaveLength(1)
    expect(existsSync(`${file}.lock`)).toBe(true)
  })

  it('keeps a line under PIPE_BUF: long values are cut, then the environment is left out', () => {
    const big = run({
      env: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`NCCL_VAR_${i}`, 'x'.repeat(500)])),
      envReport: 'NCCL_*'
    })
    const line = runLine(big) as string
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_LINE_BYTES)
    expect(JSON.parse(line).env).toBeUndefined()
    const cut = runLine(run({ env: { A: 'y'.repeat(5000) } })) as string
    expect(JSON.parse(cut).env.A).toHaveLength(200)
    expect(runLine(run({ key: 'z'.repeat(5000) }))).toBeUndefined()
  })

  it("keeps the GPU workers' and NCCL's values; drops them before the served process's when a line is too long", async () => {
    const file = box.path('history.jsonl')
    const workers = { env: { NCCL_PROTO: 'LL' }, envReport: 'NCCL_*', workersEnv: {}, ncclEnv: { NCCL_ALGO: 'Ring' } }
    await appendRun(file, run(workers))
    appendFileSync(file, `${JSON.stringify({ ...run(), workersEnv: { NCCL_PROTO: 1 } })}\n`)
    const h = readHistory(file)
    expect(h.runs).toEqual([expect.objectContaining(workers)])
    expect(h.skipped).toBe(1)
    const wide = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`NCCL_VAR_${i}`, 'x'.repeat(150)]))
    const line = JSON.parse(
      runLine(run({ env: { NCCL_PROTO: 'LL' }, envReport: 'NCCL_*', workersEnv: wide })) as string
    )
    expect(line.workersEnv).toBeUndefined()
    expect(line.env).toEqual({ NCCL_PROTO: 'LL' })
  })

  it('is off, with a notice, where it cannot be written', () => {
    const file = box.path('history.jsonl')
    expect(prepareHistory(box.path('deep', 'er', 'history.jsonl'))).toBeUndefined()
    writeFileSync(box.path('a-file'), '')
    expect(prepareHistory(box.path('a-file', 'history.jsonl'))).toMatch(
      /^History is off: cannot write .*a-file\/history\.jsonl \(E[A-Z]+: /
    )
    expect(prepareHistory(file)).toBeUndefined()
    expect(existsSync(file)).toBe(true)
  })

  it('lives under the runner tool cache for the action, and the user cache for the CLI', () => {
    expect(defaultHistoryFile({ RUNNER_TOOL_CACHE: '/opt/hostedtoolcache' }, 'action')).toEqual({
      path: '/opt/hostedtoolcache/wait-for-model/history.jsonl'
    })
    expect(defaultHistoryFile({}, 'action').notice).toMatch(/RUNNER_TOOL_CACHE is not set/)
    expect(defaultHistoryFile({ XDG_CACHE_HOME: '/x' }, 'cli')).toEqual({ path: '/x/wait-for-model/history.jsonl' })
    expect(defaultHistoryFile({ HOME: '/home/u' }, 'cli')).toEqual({
      path: '/home/u/.cache/wait-for-model/history.jsonl'
    })
    expect(defaultHistoryFile({}, 'cli').notice).toMatch(/neither XDG_CACHE_HOME nor HOME is set/)
  })

  it('keys by endpoint, model and start command, without writing them out', () => {
    const k = historyKey('http://localhost:8000/v1/models', 'kimi', 'HF_TOKEN=hf_secret vllm serve')
    expect(k).toMatch(/^[0-9a-f]{16}$/)
    expect(historyKey('http://localhost:8000/v1/models', 'kimi', undefined)).not.toBe(k)
    expect(historyKey('http://localhost:8000/v1/models', 'kimi', 'HF_TOKEN=hf_secret vllm serve')).toBe(k)
  })
})

describe('appends from several processes at once', () => {
  // The module imports only Node's own modules: compiled alone, it runs in plain child processes.
  /** The store and the modules it imports at run time, compiled beside each other as in src/. */
  function compiledModule(): string {
    const compile = (source: string, as: string): string => {
      const out = ts.transpileModule(readFileSync(new URL(`../../../src/${source}`, import.meta.url), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 }
      }).outputText
      mkdirSync(dirname(box.path(as)), { recursive: true })
      writeFileSync(box.path(as), out)
      return box.path(as)
    }
    compile('history/record.ts', 'history/record.js')
    compile('runtime/own-files.ts', 'runtime/own-files.js')
    return compile('history/store.ts', 'history/history.mjs')
  }
  const child = (
    module: string,
    file: string,
    opts: { id: number; key: string; count: number; keep: number }
  ): Promise<number | null> =>
    new Promise((resolve) => {
      const script = `
        const { appendRun } = await import(${JSON.stringify(module)})
        for (let i = 0; i < ${opts.count}; i++) {
          await appendRun(${JSON.stringify(file)}, { v: 1, key: ${JSON.stringify(opts.key)}, at: new Date().toISOString(), ready: true,
            reason: 'ready', elapsedSeconds: i, startupSeconds: ${opts.id} * 1000 + i, phases: [{ name: 'loading weights', seconds: i }],
            env: { NCCL_PROTO: 'LL', PAD: 'x'.repeat(${opts.id * 300}) }, envReport: 'NCCL_*' }, { keep: ${opts.keep} })
        }`
      const p = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' })
      p.on('exit', resolve)
    })
  const byProcess = (runs: RunRecord[], id: number): number[] =>
    runs.filter((r) => Math.floor((r.startupSeconds as number) / 1000) === id).map((r) => r.elapsedSeconds)

  it('lose no line and tear none, with lines of different lengths', async () => {
    const module = compiledModule()
    const file = box.path('history.jsonl')
    const ids = [1, 2, 3, 4, 5, 6]
    const codes = await Promise.all(
      ids.map((id) => child(module, file, { id, key: `k${id % 2}`, count: 40, keep: 1000 }))
    )
    expect(codes).toEqual(ids.map(() => 0))
    const { runs, skipped } = readHistory(file)
    expect(skipped).toBe(0)
    expect(runs).toHaveLength(240)
    // each process's lines, whole and in its own order
    for (const id of ids) expect(byProcess(runs, id)).toEqual([...Array(40).keys()])
  })

  it('lose no line while other processes trim the file again and again', async () => {
    const module = compiledModule()
    const file = box.path('history.jsonl')
    // Three processes append 40 runs each of key "busy", kept to 30: nearly every append rewrites the file.
    // Three others append 10 runs each of key "few", which stays within the 30 kept: all 30 must survive.
    const codes = await Promise.all([
      ...[1, 2, 3].map((id) => child(module, file, { id, key: 'busy', count: 40, keep: 30 })),
      ...[4, 5, 6].map((id) => child(module, file, { id, key: 'few', count: 10, keep: 30 }))
    ])
    expect(codes).toEqual([0, 0, 0, 0, 0, 0])
    const { runs, skipped } = readHistory(file)
    expect(skipped).toBe(0)
    expect(runs.filter((r) => r.key === 'busy')).toHaveLength(30)
    for (const id of [4, 5, 6]) expect(byProcess(runs, id)).toEqual([...Array(10).keys()])
    expect(existsSync(`${file}.lock`)).toBe(false)
  })
})

describe('figures that are not numbers (issue 26 item 6)', () => {
  const line = (fields: Record<string, unknown>): string =>
    JSON.stringify({ v: 1, key: 'k', at: 'x', ready: true, reason: 'ready', elapsedSeconds: 1, phases: [], ...fields })
  it.each([
    ['1e309 (Infinity)', '{"v":1,"key":"k","at":"x","ready":true,"reason":"ready","elapsedSeconds":1e309,"phases":[]}'],
    ['-1e308', line({ elapsedSeconds: -1e308 })],
    ['a negative startup', line({ startupSeconds: -5 })],
    [
      'an infinite phase',
      '{"v":1,"key":"k","at":"x","ready":true,"reason":"ready","elapsedSeconds":1,"phases":[{"name":"p","seconds":1e999}]}'
    ],
    ['a rate of 1e308', line({ decodeTokensPerSecond: 1e308 })],
    ["an engine's own rate of 1e308", line({ engineDecodeTokensPerSecond: 1e308 })],
    ["an engine's own negative prompt time", line({ enginePromptMs: -1 })],
    ['a startup of a thousand years', line({ startupSeconds: 3.2e10 })]
  ])('a line with %s is skipped, never used', (_what, text) => {
    const { runs, skipped } = parseHistory(`${line({ elapsedSeconds: 2 })}\n${text}\n`)
    expect(runs.map((r) => r.elapsedSeconds)).toEqual([2])
    expect(skipped).toBe(1)
  })
})
