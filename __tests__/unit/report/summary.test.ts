import { summaryBudget, summaryTail } from '../../../src/report/summary-budget.js'
import { summaryMarkdown } from '../../../src/report/summary.js'
import { envReport } from '../../../src/server/env-report.js'
import type { GateOutcome } from '../../../src/facts/outcome.js'

describe('summaryMarkdown', () => {
  it('fences the failure message so that backticks in a quoted body cannot close the fence', () => {
    const url = new URL('http://127.0.0.1:8000/')
    const one = {
      url,
      ready: false,
      reason: 'timeout',
      elapsedMs: 2_000,
      attempts: 2,
      models: [],
      timeline: [],
      last: {
        state: 'waiting',
        answer: { state: 'waiting', status: 503 },
        status: 503,
        excerpt: 'x\n```\n# injected heading'
      }
    } satisfies Partial<GateOutcome>
    const outcome: GateOutcome = { ...one, reason: 'timeout', results: [{ ...one, reason: 'timeout' }] }
    const md = summaryMarkdown(outcome, { url, expect: { status: [[200, 299]] }, timeoutMs: 2_000 })
    expect(md).toMatch(
      /\n````\nTimed out after[\s\S]*# injected heading\nThe server never answered over HTTP.\n````\n\n\| \| \|\n/
    )
  })
})

describe('summaryMarkdown of hostile content', () => {
  const url = new URL('http://127.0.0.1:8000/v1/models')
  const base = {
    url,
    ready: false,
    reason: 'timeout',
    elapsedMs: 2_000,
    attempts: 2,
    timeline: [],
    last: { state: 'waiting', answer: { state: 'waiting', status: 200 }, status: 200 }
  } satisfies Partial<GateOutcome>
  const ctx = { url, expect: { status: [[200, 299]] as const, model: 'kimi' }, timeoutMs: 2_000 }

  it('stays under 1 MiB with 60,000 models and a 1000-line log tail of long lines, and says what it left out', () => {
    const models = Array.from({ length: 60_000 }, (_, i) => `model-${i}`)
    const logTail = Array.from({ length: 1000 }, (_, i) => ({ number: i + 1, text: 'y'.repeat(2000) }))
    const one = { ...base, models, server: { logFile: '/tmp/server.log', logTail } }
    const outcome: GateOutcome = { ...one, reason: 'timeout', results: [{ ...one, reason: 'timeout' }] }
    const md = summaryMarkdown(outcome, ctx)
    expect(Buffer.byteLength(md)).toBeLessThan(128 * 1024)
    expect(md).toContain('`model-49`, and 59950 more')
    expect(md).toContain('1000: yyy')
  })

  it('says how many timeline changes were left out', () => {
    const timeline = [
      { elapsedMs: 0, answer: { state: 'down' as const, error: 'EFIRST', said: 'first' } },
      { elapsedMs: 9_000, answer: { state: 'down' as const, error: 'ELAST', said: 'last' }, dropped: 59 }
    ]
    const one = { ...base, models: [], timeline }
    const outcome: GateOutcome = { ...one, reason: 'timeout', results: [{ ...one, reason: 'timeout' }] }
    expect(summaryMarkdown(outcome, ctx)).toMatch(
      /\| first \(EFIRST\) \|\n\| … \| \*59 changes left out\* \|\n\| 9\.0s \| last \(ELAST\) \|/
    )
  })
})

describe('the job summary of a smoke test', () => {
  const url = new URL('http://127.0.0.1:30000/v1/models')
  const ctx = { url, expect: { status: [[200, 299]] as const }, timeoutMs: 60_000 }
  const base = { url, ready: true, reason: 'ready' as const, elapsedMs: 3_000, attempts: 2, models: [], timeline: [] }

  it('gives the medians, how the tokens were counted, the usual rate and the regression warning', () => {
    const smoke = {
      request: 'POST /v1/completions',
      requests: 3,
      measurements: [1, 2, 3].map(() => ({ ttftMs: 181, tokens: 64, source: 'usage.completion_tokens' as const })),
      ttftMs: 181.2,
      decodeTokensPerSecond: 62.94,
      source: 'usage.completion_tokens' as const
    }
    const outcome: GateOutcome = {
      ...base,
      smoke,
      results: [{ ...base, smoke }],
      profile: {
        phases: [],
        usualDecodeTokensPerSecond: 88.8,
        throughputRegression: 'Decode rate 62.9 tokens/s, 29.2% below the median of 88.8 tokens/s.'
      }
    }
    const md = summaryMarkdown(outcome, ctx)
    expect(md).toContain('| Time to first token (smoke test) | 181 ms (median of 3 requests) |')
    expect(md).toContain(
      "| Decode rate (smoke test) | 62.9 tokens/s (median of 3; tokens counted from the engine's usage.completion\\_tokens; usual 88.8 tokens/s) |"
    )
    expect(md).toContain('> ⚠️ Decode rate 62.9 tokens/s, 29.2% below the median of 88.8 tokens/s.')
  })

  it("says why it could not measure, the server's words kept literal", () => {
    const smoke = {
      request: 'POST /generate_stream',
      requests: 3,
      measurements: [],
      problem: { kind: 'stream-error' as const, said: 'CUDA out of memory <img src=x> **now**' }
    }
    const md = summaryMarkdown({ ...base, smoke, results: [{ ...base, smoke }] }, ctx)
    expect(md).toContain(
      "| Smoke test | ⚠️ The smoke test could not measure throughput: the engine's stream said: CUDA out of memory &lt;img src=x&gt; \\*\\*now\\*\\*. |"
    )
  })
})

describe('summaryBudget and summaryTail', () => {
  it('gives each part what the parts before it left, says once that the rest is left out, then gives nothing', () => {
    const part = summaryBudget(10_000)
    const section = `${'line of a section\n'.repeat(300)}`
    const written = [part(section), part(section), part(section)]
    expect(written[0]).toBe(section)
    expect(written[1]).toMatch(/the rest of this summary is left out/)
    expect(written[2]).toBe('')
    expect(Buffer.byteLength(written.join(''))).toBeLessThanOrEqual(10_000)
  })

  it("keeps the log's last lines that fit in a summary's share", () => {
    const lines = Array.from({ length: 100 }, (_, i) => ({ number: i + 1, text: 'x'.repeat(2_000) }))
    const kept = summaryTail(lines)
    expect(kept.length).toBeLessThan(lines.length)
    expect(kept.at(-1)).toBe(lines.at(-1))
    expect(kept.reduce((n, l) => n + `${l.number}: ${l.text}`.length + 1, 0)).toBeLessThanOrEqual(64 * 1024)
  })
})

describe("summaryMarkdown of the GPU workers' environment", () => {
  it("the seeds' case: the API process has NCCL_PROTO=LL NCCL_ALGO=Ring, its eight GPU workers neither", () => {
    const url = new URL('http://127.0.0.1:8000/v1/models')
    const names = ['NCCL_*']
    const one = {
      url,
      ready: true,
      reason: 'ready',
      elapsedMs: 300_000,
      attempts: 60,
      models: ['kimi'],
      timeline: [],
      server: {
        pid: 1190,
        envPid: 1200,
        envPort: 8000,
        env: envReport(names, { NCCL_PROTO: 'LL', NCCL_ALGO: 'Ring', NCCL_DEBUG: 'INFO' }),
        gpuWorkers: [1301, 1302, 1303, 1304, 1305, 1306, 1307, 1308].map((pid) => ({
          pid,
          env: envReport(names, { NCCL_DEBUG: 'INFO' })
        })),
        nccl: {
          version: '2.21.5+cuda12.4',
          processes: [0, 1, 2, 3, 4, 5, 6, 7].map((rank) => ({
            host: 'gpu-node-7',
            pid: 1301 + rank,
            rank,
            nranks: 8,
            env: {}
          })),
          unconfirmed: ['NCCL_ALGO', 'NCCL_PROTO']
        }
      }
    } satisfies Partial<GateOutcome>
    const outcome: GateOutcome = { ...one, results: [one] }
    const md = summaryMarkdown(outcome, { url, expect: { status: [[200, 299]] }, timeoutMs: 600_000 })
    const section = md.slice(md.indexOf('#### Server environment'))
    expect(section).toBe(
      [
        '#### Server environment',
        '',
        'Of process 1200, which listens on port 8000.',
        '',
        '| variable | value |',
        '|---|---|',
        '| `NCCL_ALGO` | `Ring` |',
        '| `NCCL_DEBUG` | `INFO` |',
        '| `NCCL_PROTO` | `LL` |',
        '',
        "⚠️ **GPU workers (the server's processes that hold GPU memory: pids 1301–1308)**",
        '',
        '- NCCL\\_ALGO: Ring in the API process (pid 1200), unset in 8 of 8 GPU workers (pids 1301–1308)',
        '- NCCL\\_PROTO: LL in the API process (pid 1200), unset in 8 of 8 GPU workers (pids 1301–1308)',
        '',
        "⚠️ **NCCL's own word (its NCCL\\_DEBUG=INFO lines in the server log, NCCL 2.21.5+cuda12.4; ranks 0–7)**",
        '',
        '- No NCCL line says a variable was taken from the environment.',
        '- Not confirmed by NCCL: NCCL\\_ALGO, NCCL\\_PROTO are set in env-report, and no NCCL line says they were ' +
          'taken from the environment (the processes that run NCCL may not have them, or this NCCL does not log them).',
        '',
        "*Each environment above is the process's at its start (/proc/PID/environ): a value a process sets later " +
          "(os.environ in Python) is not seen. With NCCL\\_DEBUG=INFO in the server's environment, NCCL logs what it " +
          'took, and that is read from the server log.*',
        ''
      ].join('\n')
    )
  })
})
