import type { GateOutcome } from '../../../src/facts/outcome.js'
import { summaryMarkdown } from '../../../src/report/summary.js'

/** A failure's summary leads with its cause: the reason, the fatal line, the log's tail; the figures and charts after. */
describe('the summary of a failure', () => {
  const url = new URL('http://127.0.0.1:8000/v1/models')
  const ctx = { url, expect: { model: 'kimi', status: [[200, 299]] as Array<[number, number]> }, timeoutMs: 600_000 }
  const fatal = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.'
  const base = {
    url,
    ready: false,
    reason: 'log-error',
    elapsedMs: 5_300,
    attempts: 6,
    models: [],
    timeline: [{ elapsedMs: 100, answer: { state: 'down', error: 'ECONNREFUSED' } }],
    halt: { reason: 'log-error', detail: `the server's log says: ${fatal}` }
  } satisfies Partial<GateOutcome>
  const outcome = {
    ...base,
    results: [base],
    server: {
      pid: 4242,
      logFile: '/tmp/vllm.log',
      logTail: [
        { number: 41, text: 'INFO Loading weights took 2.26 seconds' },
        { number: 42, text: fatal }
      ]
    },
    profile: {
      engineLabel: 'vLLM',
      phases: [
        { name: 'initializing', seconds: 3.0, printed: false },
        { name: 'loading weights', seconds: 2.3, printed: true }
      ]
    }
  } as unknown as GateOutcome

  it('puts the reason, the failure message and the log tail before the table, the timeline and the chart', () => {
    const md = summaryMarkdown(outcome, ctx)
    const at = (text: string): number => {
      const i = md.indexOf(text)
      expect({ text, found: i >= 0 }).toEqual({ text, found: true })
      return i
    }
    const order = [
      '### wait-for-model',
      '**❌ Not ready (log-error)**',
      `Stopped after 5.3s and 6 probes, before the server was ready: the server's log says: ${fatal}`,
      `42: ${fatal}`,
      '| Result | ❌ not ready (log-error) |',
      '#### Timeline',
      '#### Startup phases',
      '```mermaid'
    ].map(at)
    expect(order).toEqual([...order].sort((a, b) => a - b))
    // the bars to the tenth of a second: 3.0 s, then 2.3 s, ending at 5.3 s
    expect(md).toContain('  loading weights 2.3s : 00:00:03.000, 00:00:05.300')
  })

  it('a ready run has no cause block: the table comes first', () => {
    const ready = { ...outcome, ready: true, reason: undefined, halt: undefined, results: [] } as unknown as GateOutcome
    const md = summaryMarkdown(ready, ctx)
    expect(md).toMatch(/^### wait-for-model\n\n\| \| \|\n/)
    expect(md).not.toContain('Not ready')
  })
})
