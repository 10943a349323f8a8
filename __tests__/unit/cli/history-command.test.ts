import { writeFileSync } from 'node:fs'
import type { RunRecord } from '../../../src/history/record.js'
import { appendRun, prepareHistory } from '../../../src/history/store.js'
import { runInProcess as run } from '../../helpers/in-process-cli.js'
import { sandbox } from '../../helpers/sandbox.js'

/** `wait-for-model history` in-process, over real history files written by the store. */
const box = sandbox('wfm-history-cli-')

const ready: RunRecord = {
  v: 1,
  key: 'vllm-kimi',
  at: '2026-11-30T10:00:00.000Z',
  ready: true,
  reason: 'ready',
  elapsedSeconds: 431.2,
  startupSeconds: 440.5,
  engine: 'vllm',
  phases: [
    { name: 'weights', seconds: 380.1 },
    { name: 'graphs', seconds: 41.3 }
  ],
  env: { NCCL_DEBUG: 'INFO' },
  ttftMs: 183.5,
  decodeTokensPerSecond: 88.9,
  smokeTokens: 64,
  engineDecodeTokensPerSecond: 90.2,
  enginePromptMs: 150.4
}
const timedOut: RunRecord = {
  v: 1,
  key: 'sglang, "big"',
  at: '2026-11-30T11:00:00.000Z',
  ready: false,
  reason: 'timeout',
  elapsedSeconds: 1200,
  phases: []
}

async function historyFile(): Promise<string> {
  const file = box.path('history.jsonl')
  await appendRun(file, ready)
  await appendRun(file, timedOut)
  return file
}

describe('wait-for-model history', () => {
  it('prints every run as a table, oldest first, with the count on stderr', async () => {
    const file = await historyFile()
    const r = await run(['history', '--file', file], {})
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0].split(/\s+/)).toEqual([
      'at',
      'key',
      'ready',
      'reason',
      'elapsed-seconds',
      'startup-seconds',
      'engine',
      'ttft-ms',
      'decode-tokens-per-second',
      'engine-decode-tokens-per-second',
      'phases'
    ])
    expect(lines).toHaveLength(3)
    expect(lines[1]).toMatch(
      /^2026-11-30T10:00:00.000Z\s+vllm-kimi\s+true\s+ready\s+431.2\s+440.5\s+vllm\s+183.5\s+88.9\s+90.2\s+weights=380.1s; graphs=41.3s$/
    )
    expect(lines[2]).toMatch(/^2026-11-30T11:00:00.000Z\s+sglang, "big"\s+false\s+timeout\s+1200$/)
    // the columns line up: every row's reason starts where the header's does
    const at = lines[0].indexOf('reason')
    expect(lines.slice(1).map((l) => l.slice(at, at + 7).trim())).toEqual(['ready', 'timeout'])
    expect(r.stderr).toBe(`2 runs in ${file}.\n`)
  })

  it('gives JSON with numbers, booleans and phases as values, and keeps the environment out', async () => {
    const r = await run(['history', '--file', await historyFile(), '--format', 'json', '--key', 'vllm-kimi'], {})
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual([
      {
        at: '2026-11-30T10:00:00.000Z',
        key: 'vllm-kimi',
        ready: true,
        reason: 'ready',
        'elapsed-seconds': 431.2,
        'startup-seconds': 440.5,
        engine: 'vllm',
        'ttft-ms': 183.5,
        'decode-tokens-per-second': 88.9,
        'engine-decode-tokens-per-second': 90.2,
        phases: [
          { name: 'weights', seconds: 380.1 },
          { name: 'graphs', seconds: 41.3 }
        ]
      }
    ])
    expect(r.stderr).toMatch(/^1 run with key "vllm-kimi" \(of 2 runs\) in /)
  })

  it('gives CSV as RFC 4180 quotes it, a header row first', async () => {
    const r = await run(['history', '--file', await historyFile(), '--format', 'csv'], {})
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(
      'at,key,ready,reason,elapsed-seconds,startup-seconds,engine,ttft-ms,decode-tokens-per-second,engine-decode-tokens-per-second,phases\r\n' +
        '2026-11-30T10:00:00.000Z,vllm-kimi,true,ready,431.2,440.5,vllm,183.5,88.9,90.2,weights=380.1s; graphs=41.3s\r\n' +
        '2026-11-30T11:00:00.000Z,"sglang, ""big""",false,timeout,1200,,,,,,\r\n'
    )
  })

  it('reads the default file under XDG_CACHE_HOME, skips unreadable lines and says so', async () => {
    const dir = box.dir()
    const file = box.path('wait-for-model', 'history.jsonl')
    prepareHistory(file)
    await appendRun(file, ready)
    writeFileSync(file, `not json\n${JSON.stringify(timedOut)}\n`, { flag: 'a' })
    const r = await run(['history', '--format', 'json'], { XDG_CACHE_HOME: dir })
    expect(r.code).toBe(0)
    expect((JSON.parse(r.stdout) as Array<{ key: string }>).map((x) => x.key)).toEqual(['vllm-kimi', 'sglang, "big"'])
    expect(r.stderr).toBe(`2 runs in ${file}; 1 unreadable line skipped.\n`)
  })

  it('prints only the header for a file not there yet, and fails on one it cannot read', async () => {
    const none = await run(['history', '--file', box.path('none.jsonl')], {})
    expect(none.code).toBe(0)
    expect(none.stdout.trimEnd().split('\n')).toHaveLength(1)
    expect(none.stderr).toMatch(/^0 runs in /)
    const dir = await run(['history', '--file', box.dir()], {})
    expect(dir.code).toBe(1)
    expect(dir.stdout).toBe('')
    expect(dir.stderr).toMatch(/^wait-for-model: cannot read (.*) \(\1 is a directory, not a regular file\)\n$/)
  })

  it('refuses a format it does not know, and a missing file setting, before reading anything', async () => {
    const bad = await run(['history', '--format', 'xml'], {})
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^wait-for-model: --format: give one of table, json, csv \(not "xml"\)\n/)
    const nowhere = await run(['history'], {})
    expect(nowhere.code).toBe(2)
    expect(nowhere.stderr).toMatch(/--file: History is off: neither XDG_CACHE_HOME nor HOME is set/)
  })

  it('keeps a value from the file from breaking a table row or becoming a spreadsheet formula', async () => {
    const file = box.path('h.jsonl')
    await appendRun(file, { ...timedOut, key: '=HYPERLINK("x")\u001b[2J\nfake' })
    const table = await run(['history', '--file', file], {})
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(2)
    expect(table.stdout).not.toContain('\u001b')
    const csv = await run(['history', '--file', file, '--format', 'csv'], {})
    expect(csv.stdout.split('\r\n')[1]).toMatch(/^2026-11-30T11:00:00.000Z,"'=HYPERLINK\(""x""\)/)
  })
})
