/**
 * `wait-for-model history --html FILE`: one self-contained page (inline SVG and style, a script that only checks
 * its own charts; nothing from the network) with, per history key, its start-up and decode-rate charts (environment
 * changes marked), the last run's phases and the table of runs.
 */
import type { RunRecord } from '../history/record.js'
import { envDrift } from '../history/stats.js'

const esc = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

const W = 640
const H = 200
const PAD = 40

/** One line chart; `changed[i]` marks a run whose environment changed (a red ring, its variables in a tooltip). */
function svgChart(title: string, unit: string, values: Array<number | undefined>, changed: string[][]): string {
  const shown = values.flatMap((v, i) => (v === undefined ? [] : [{ v, i }]))
  if (shown.length === 0) return ''
  const top = Math.max(...shown.map((p) => p.v)) * 1.15 || 1
  const x = (i: number): number => PAD + (values.length === 1 ? 0 : (i * (W - 2 * PAD)) / (values.length - 1))
  const y = (v: number): number => H - PAD + -(v / top) * (H - 2 * PAD)
  const points = shown.map((p) => `${x(p.i).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ')
  const marks = shown
    .map((p) => {
      const env = changed[p.i]
      const ring = env.length > 0
      return (
        `<circle cx="${x(p.i).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="${ring ? 6 : 3}" class="${ring ? 'env' : 'pt'}">` +
        `<title>${esc(`${p.v} ${unit}${ring ? `; changed: ${env.join(', ')}` : ''}`)}</title></circle>`
      )
    })
    .join('')
  return (
    `<figure><figcaption>${esc(title)}</figcaption>` +
    `<svg class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(title)}">` +
    `<line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" class="axis"/>` +
    `<line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}" class="axis"/>` +
    `<text x="4" y="${PAD}" class="tick">${esc(String(Math.round(top)))}</text>` +
    `<text x="4" y="${H - PAD}" class="tick">0</text>` +
    `<polyline points="${points}" class="line"/>${marks}</svg></figure>`
  )
}

function keySection(key: string, runs: readonly RunRecord[]): string {
  const changed = runs.map((r, i) => envDrift(runs.slice(0, i), r).map((d) => d.name))
  const startup = runs.map((r) => (r.ready ? (r.startupSeconds ?? r.elapsedSeconds) : undefined))
  const decode = runs.map((r) => (r.ready ? r.decodeTokensPerSecond : undefined))
  const last = runs[runs.length - 1]
  const phases = last.phases.length
    ? `<h3>Phases of the last run</h3><table><tr><th>phase</th><th>seconds</th></tr>${last.phases
        .map((p) => `<tr><td>${esc(p.name)}</td><td>${p.seconds}</td></tr>`)
        .join('')}</table>`
    : ''
  const changes = runs
    .map((r, i) =>
      changed[i].length ? `<li>${esc(r.at)}: ${changed[i].map((n) => `<code>${esc(n)}</code>`).join(', ')}</li>` : ''
    )
    .join('')
  const rows = runs
    .map(
      (r, i) =>
        `<tr${changed[i].length ? ' class="changed"' : ''}><td>${esc(r.at)}</td><td>${r.ready ? 'ready' : esc(r.reason)}</td>` +
        `<td>${r.startupSeconds ?? r.elapsedSeconds}</td><td>${r.decodeTokensPerSecond ?? ''}</td><td>${r.ttftMs ?? ''}</td>` +
        `<td>${esc(r.gpu ? `${r.gpu.count} × ${r.gpu.model}` : '')}</td><td>${esc([r.engine, r.engineVersion].filter(Boolean).join(' '))}</td>` +
        `<td>${esc(changed[i].join(', '))}</td></tr>`
    )
    .join('')
  return (
    `<section><h2>${esc(key)}</h2>` +
    svgChart('Start-up (s)', 's', startup, changed) +
    svgChart('Decode rate (tokens/s)', 'tokens/s', decode, changed) +
    (changes ? `<h3>Environment changes</h3><ul>${changes}</ul>` : '') +
    phases +
    `<h3>Runs</h3><table><tr><th>at</th><th>outcome</th><th>start-up s</th><th>decode tokens/s</th><th>TTFT ms</th>` +
    `<th>GPUs</th><th>engine</th><th>env changed</th></tr>${rows}</table></section>`
  )
}

const STYLE =
  'body{font-family:sans-serif;margin:2em;max-width:60em}svg{background:#fafafa}.axis{stroke:#888}' +
  '.line{fill:none;stroke:#1f6feb;stroke-width:2}.pt{fill:#1f6feb}.env{fill:#fff;stroke:#d1242f;stroke-width:3}' +
  '.tick{font-size:11px;fill:#555}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}' +
  '.changed{background:#fff0f0}'

/** Counts the charts whose line has a size once laid out: a test reads it back from the page's DOM. */
const CHECK =
  "addEventListener('load',()=>{const n=[...document.querySelectorAll('svg.chart polyline')]" +
  '.filter(p=>{const b=p.getBBox();return b.width>0||b.height>0}).length;document.body.dataset.chartsDrawn=String(n)})'

export function historyHtml(runs: readonly RunRecord[]): string {
  const keys = [...new Set(runs.map((r) => r.key))]
  const sections = keys
    .map((k) =>
      keySection(
        k,
        runs.filter((r) => r.key === k)
      )
    )
    .join('')
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>wait-for-model history</title>` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">` +
    `<style>${STYLE}</style></head><body><h1>wait-for-model history</h1>${sections || '<p>No runs.</p>'}` +
    `<script>${CHECK}</script></body></html>\n`
  )
}
