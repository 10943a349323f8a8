import { trendMarkdown } from '../../../src/report/trend-chart.js'

describe('the trend chart of a history key', () => {
  it('draws start-up and decode rate as xychart-beta lines, marking the runs whose environment changed', () => {
    const md = trendMarkdown([
      { startupSeconds: 200, decodeTokensPerSecond: 88.8, envChanged: [] },
      { startupSeconds: 210, decodeTokensPerSecond: 88.7, envChanged: [] },
      { startupSeconds: 205.04, decodeTokensPerSecond: 62.9, envChanged: ['NCCL_PROTO'] }
    ])
    expect(md).toContain(
      [
        '```mermaid',
        'xychart-beta',
        '  title "Start-up (s)"',
        '  x-axis ["-2", "-1", "now env"]',
        '  y-axis "seconds" 0 --> 241.5',
        '  line [200, 210, 205]',
        '```'
      ].join('\n')
    )
    expect(md).toContain('  line [88.8, 88.7, 62.9]')
    expect(md).toContain('- now env: `NCCL_PROTO` changed')
  })

  it('draws nothing for a single run, and no decode chart without a smoke test', () => {
    expect(trendMarkdown([{ startupSeconds: 1, envChanged: [] }])).toBe('')
    const md = trendMarkdown([
      { startupSeconds: 1, envChanged: [] },
      { startupSeconds: 2, envChanged: [] }
    ])
    expect(md).toContain('Start-up (s)')
    expect(md).not.toContain('Decode rate')
  })
})
