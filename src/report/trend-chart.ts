/** The last runs of a history key as Mermaid xychart-beta charts (GitHub renders them): start-up and decode rate. */
import type { TrendPoint } from '../facts/outcome.js'

const num = (n: number): string => String(Math.round(n * 10) / 10)

/** Each run's label: its place from the newest (`now`, `-1`, …), `env` where its environment changed. */
function labels(points: readonly TrendPoint[]): string {
  const n = points.length
  return points
    .map((p, i) => `"${i === n - 1 ? 'now' : String(i - n + 1)}${p.envChanged.length > 0 ? ' env' : ''}"`)
    .join(', ')
}

function chart(title: string, axis: string, points: readonly TrendPoint[], values: number[]): string[] {
  const top = Math.max(...values) * 1.15
  return [
    '```mermaid',
    'xychart-beta',
    `  title "${title}"`,
    `  x-axis [${labels(points)}]`,
    `  y-axis "${axis}" 0 --> ${num(top > 0 ? top : 1)}`,
    `  line [${values.map(num).join(', ')}]`,
    '```'
  ]
}

/**
 * Markdown for the trend, with the changed variables named below it; empty with fewer than two runs. A run without
 * the figure is drawn at 0 (xychart has no gaps).
 */
export function trendMarkdown(points: readonly TrendPoint[]): string {
  if (points.length < 2) return ''
  const lines = ['#### Trend of this history key', '']
  if (points.some((p) => p.startupSeconds !== undefined))
    lines.push(
      ...chart(
        'Start-up (s)',
        'seconds',
        points,
        points.map((p) => p.startupSeconds ?? 0)
      ),
      ''
    )
  if (points.some((p) => p.decodeTokensPerSecond !== undefined))
    lines.push(
      ...chart(
        'Decode rate (tokens/s)',
        'tokens/s',
        points,
        points.map((p) => p.decodeTokensPerSecond ?? 0)
      ),
      ''
    )
  const n = points.length
  for (const [i, p] of points.entries())
    if (p.envChanged.length > 0)
      lines.push(
        `- ${i === n - 1 ? 'now' : String(i - n + 1)} env: ${p.envChanged.map((v) => `\`${v}\``).join(', ')} changed`
      )
  return `${lines.join('\n').trimEnd()}\n`
}
