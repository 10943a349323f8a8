#!/usr/bin/env node
/**
 * `npm run images` (after `npm run build`): the pictures of the job summary in the README and of the
 * `history --html` page in docs/startup-profile.md, docs/images/*.png.
 *
 * The job summaries are each a real run of the packaged action: dist/index.js and then its post step dist/post.js, run as the runner
 * runs them (INPUT_* variables, the GITHUB_OUTPUT / GITHUB_STATE / GITHUB_STEP_SUMMARY files), the action
 * starting a stand-in vLLM that replays a recorded start-up log at its recorded pace (__tests__/fixtures/
 * replay-log.mjs), then serves the model as vLLM does. The summary Markdown they wrote is rendered as GitHub renders it (marked for GitHub's Markdown,
 * github-markdown-css for its look, Mermaid's own bundle for the chart, all loaded from node_modules by file URL)
 * and photographed by headless Chromium (Debian's `chromium`). Nothing comes from the network.
 *
 * The history page (history-page.png) is the one `node dist/cli.js history --html` writes from the seeds' story,
 * __tests__/fixtures/history/seeds-story.jsonl (three runs at 88.8 tokens/s with NCCL variables, then 62.9 without:
 * the runs the history page's e2e test opens too), photographed the same way; it takes seconds.
 *
 *   node scripts/summary-images.mjs [--pace N] [--keep DIR] [--only NAME.png]
 *
 * --pace N replays the summaries' log N times faster (to try a change of style quickly; the pictures' figures then disagree
 * with the log's own stamps, so commit only pictures made at the default pace 1: about 7 minutes); --keep DIR also
 * leaves the Markdown and the HTML in DIR; --only makes one of the pictures.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import process from 'node:process'
import { fileURLToPath, pathToFileURL, URL } from 'node:url'
import { marked } from 'marked'

const root = fileURLToPath(new URL('..', import.meta.url))
const at = (...parts) => join(root, ...parts)
const flag = (name) => {
  const i = process.argv.indexOf(name)
  return i < 0 ? undefined : process.argv[i + 1]
}
const keep = flag('--keep')
const pace = Number(flag('--pace') ?? 1)
const WIDTH = 860

/**
 * The runs pictured, both of vLLM serving Kimi K2.5 on two GPUs as recorded: one that loads (5m49s) and serves,
 * one that runs out of GPU memory while loading its weights (its summary shows the last lines of its log).
 */
const RUNS = [
  { image: 'summary-ready.png', log: 'vllm-v0.16.1rc1.log', inputs: {} },
  { image: 'summary-failure.png', log: 'vllm-v0.16.1rc1-oom-fail.log', inputs: {} }
]
/** The history pictured: a file of runs, as `history --html` reads it. */
const PAGES = [{ image: 'history-page.png', history: '__tests__/fixtures/history/seeds-story.jsonl' }]
/** The job's name, which GitHub shows above its summary. */
const JOB = 'model-tests'

function chromium() {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim()
    } catch {
      // not this one
    }
  }
  throw new Error(
    'no Chromium on PATH: apt-get install -y chromium fonts-noto-color-emoji (the ✅ and ❌ of the summary)'
  )
}

/** vLLM's port 8000 when it is free here (as on a runner), else any free one. */
async function port() {
  try {
    return await listenOn(8000)
  } catch {
    return listenOn(0)
  }
}

async function listenOn(wanted) {
  const server = createServer()
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(wanted, '127.0.0.1', resolve)
  })
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Reads the `name<<delimiter` / value / `delimiter` records @actions/core appends to GITHUB_OUTPUT and GITHUB_STATE. */
function fileCommands(text) {
  const result = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i])
    if (!m) continue
    const end = lines.indexOf(m[2], i + 1)
    if (end < 0) break
    result[m[1]] = lines.slice(i + 1, end).join('\n')
    i = end
  }
  return result
}

function node(entry, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'inherit'] })
    let stdout = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout }))
  })
}

/** One job: the action's step and its post step, as the runner runs them; the job summary they wrote. */
async function job(run, dir) {
  const on = await port()
  const files = { GITHUB_OUTPUT: 'output', GITHUB_STATE: 'state', GITHUB_STEP_SUMMARY: 'summary' }
  const env = { PATH: process.env.PATH ?? '', HOME: dir, RUNNER_TEMP: dir, TMPDIR: dir }
  for (const [name, file] of Object.entries(files)) writeFileSync((env[name] = join(dir, file)), '')
  const inputs = {
    url: `http://localhost:${on}/v1/models`,
    model: 'kimi',
    // the replayed server lingers 30s once it serves: the post step stops it, as on a runner
    start: `exec node ${JSON.stringify(at('__tests__/fixtures/replay-log.mjs'))} ${JSON.stringify(at('__tests__/fixtures/logs', run.log))} ${pace} ${on} 30 /shared/kimi-k2.5-int4`,
    timeout: '20m',
    // no history: a picture of the first run, and nothing written outside this job's folder
    'history-file': '',
    ...run.inputs
  }
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  const main = await node(at('dist/index.js'), env)
  const state = fileCommands(readFileSync(env.GITHUB_STATE, 'utf8'))
  const post = { ...env }
  for (const [name, value] of Object.entries(state)) post[`STATE_${name}`] = value
  await node(at('dist/post.js'), post)
  process.stdout.write(`${run.image}: the step exited ${main.code}\n`)
  return readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8')
}

/** The summary as GitHub shows it below a job: a box titled with the job, the Markdown inside. */
function page(markdown, title) {
  const module = (path) => pathToFileURL(at('node_modules', path)).href
  const renderer = new marked.Renderer()
  // GitHub draws a ```mermaid block as the chart; everything else as Markdown
  renderer.code = ({ text, lang }) =>
    lang === 'mermaid'
      ? `<pre class="mermaid">${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</pre>`
      : `<pre><code>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</code></pre>`
  const body = marked.parse(markdown, { gfm: true, renderer })
  return `<!doctype html>
<html><head><meta charset="utf-8">
<link rel="stylesheet" href="${module('github-markdown-css/github-markdown-light.css')}">
<style>
  html, body { margin: 0; background: #f6f8fa; }
  .job { width: ${WIDTH - 32}px; margin: 16px; background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; }
  .job > header { padding: 12px 16px; border-bottom: 1px solid #d1d9e0; font: 600 14px -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
  .markdown-body { padding: 16px 24px 8px; font-size: 14px; }
  .markdown-body pre.mermaid { background: none; padding: 0; }
  /* GitHub scrolls a long line of a code block sideways; a picture cannot, so it wraps it */
  .markdown-body pre, .markdown-body pre code { white-space: pre-wrap; overflow-wrap: anywhere; }
</style>
<script src="${module('mermaid/dist/mermaid.min.js')}"></script>
</head><body><div class="job"><header>${title} summary</header><article class="markdown-body">${body}</article></div>
<script>
  mermaid.initialize({ startOnLoad: false, theme: 'default', gantt: { useWidth: ${WIDTH - 90} } })
  mermaid.run().then(() => { document.body.dataset.height = Math.ceil(document.querySelector('.job').getBoundingClientRect().bottom + 16) })
</script></body></html>
`
}

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--hide-scrollbars',
  '--allow-file-access-from-files'
]

function shoot(browser, html, png, dir) {
  const file = join(dir, 'summary.html')
  writeFileSync(file, html)
  const url = pathToFileURL(file).href
  const flags = [...CHROMIUM_FLAGS, `--user-data-dir=${join(dir, 'chromium')}`]
  const budget = '--virtual-time-budget=15000'
  const dom = execFileSync(browser, [...flags, budget, '--dump-dom', url], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore']
  })
  const height = Number(/data-height="(\d+)"/.exec(dom)?.[1])
  if (!Number.isFinite(height)) throw new Error('the page did not finish drawing its chart')
  execFileSync(
    browser,
    [...flags, budget, '--force-device-scale-factor=2', `--window-size=${WIDTH},${height}`, `--screenshot=${png}`, url],
    { stdio: 'ignore' }
  )
}

/**
 * The page as `history --html` writes it, photographed whole: a copy of it with a line of script that writes its
 * height into the DOM tells how tall the window must be (the page's policy lets inline script run, nothing else).
 */
function historyImage(browser, page, dir) {
  const history = join(dir, 'history.jsonl')
  writeFileSync(history, readFileSync(at(page.history)))
  const file = join(dir, 'history.html')
  execFileSync(process.execPath, [at('dist/cli.js'), 'history', '--file', history, '--html', file], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CACHE_HOME: dir },
    // its count of runs on stderr names the temporary file: not worth a line here
    stdio: 'pipe'
  })
  const measured = join(dir, 'measured.html')
  const html = readFileSync(file, 'utf8')
  const measure =
    "<script>addEventListener('load',()=>{document.body.dataset.height=String(Math.ceil(document.documentElement.scrollHeight))})</script>"
  writeFileSync(measured, html.replace('</body>', `${measure}</body>`))
  const flags = [...CHROMIUM_FLAGS, `--user-data-dir=${join(dir, 'chromium')}`, `--window-size=${WIDTH},800`]
  const dom = execFileSync(browser, [...flags, '--dump-dom', pathToFileURL(measured).href], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore']
  })
  const height = Number(/data-height="(\d+)"/.exec(dom)?.[1])
  if (!Number.isFinite(height)) throw new Error('the history page did not finish its layout')
  if (!/data-charts-drawn="2"/.test(dom)) throw new Error('the history page did not draw its two charts')
  execFileSync(
    browser,
    [
      ...flags.filter((f) => !f.startsWith('--window-size')),
      '--force-device-scale-factor=2',
      `--window-size=${WIDTH},${height}`,
      `--screenshot=${at('docs/images', page.image)}`,
      pathToFileURL(file).href
    ],
    { stdio: 'ignore' }
  )
}

const browser = chromium()
if (!existsSync(at('dist/index.js'))) throw new Error('no dist/index.js: npm run build first')
mkdirSync(at('docs/images'), { recursive: true })
const only = flag('--only')
for (const page of PAGES.filter((p) => only === undefined || p.image === only)) {
  const dir = mkdtempSync(join(tmpdir(), 'wait-for-model-images-'))
  try {
    historyImage(browser, page, dir)
    process.stdout.write(`docs/images/${page.image}\n`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
for (const run of RUNS.filter((r) => only === undefined || r.image === only)) {
  const dir = mkdtempSync(join(tmpdir(), 'wait-for-model-images-'))
  try {
    const markdown = await job(run, dir)
    const html = page(markdown, JOB)
    if (keep !== undefined) {
      mkdirSync(keep, { recursive: true })
      writeFileSync(join(keep, run.image.replace(/\.png$/, '.md')), markdown)
      writeFileSync(join(keep, run.image.replace(/\.png$/, '.html')), html)
    }
    shoot(browser, html, at('docs/images', run.image), dir)
    process.stdout.write(`docs/images/${run.image}\n`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
