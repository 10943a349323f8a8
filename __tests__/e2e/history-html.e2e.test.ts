import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { sandbox } from '../helpers/sandbox.js'

/**
 * `wait-for-model history --html FILE` through dist/cli.js, opened in Debian's headless Chromium: the page's own
 * check counts the charts whose line was laid out with a size, and the DOM Chromium dumps carries that count.
 */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const box = sandbox('wfm-history-html-e2e-')

const browser = ['chromium', 'chromium-browser'].find((name) => spawnSync('which', [name]).status === 0)

const seeds = new URL('../fixtures/history/seeds-story.jsonl', import.meta.url).pathname

const run = (at: string, decode: number, env: Record<string, string>, key: string) =>
  JSON.stringify({
    v: 1,
    key,
    at,
    ready: true,
    reason: 'ready',
    elapsedSeconds: 210,
    startupSeconds: 200,
    engine: 'sglang',
    phases: [{ name: 'loading weights', seconds: 150 }],
    env,
    envReport: 'NCCL_*',
    ttftMs: 50,
    decodeTokensPerSecond: decode,
    smokeTokens: 64
  })

;(browser === undefined ? it.skip : it)(
  'writes one self-contained page whose charts headless Chromium draws, the variables that changed named',
  () => {
    // the seeds' story (three runs at 88.8 tokens/s with NCCL variables, then 62.9 without), as the docs' picture
    // of this page shows it (scripts/summary-images.mjs), and a second key
    writeFileSync(
      box.path('history.jsonl'),
      readFileSync(seeds, 'utf8') +
        [
          run('2026-08-04T11:00:00.000Z', 30, {}, 'other-key'),
          run('2026-08-04T12:00:00.000Z', 35, {}, 'other-key')
        ].join('\n') +
        '\n'
    )
    const page = box.path('history.html')
    execFileSync(process.execPath, [cli, 'history', '--file', box.path('history.jsonl'), '--html', page], {
      env: { PATH: process.env.PATH ?? '', HOME: box.dir(), XDG_CACHE_HOME: box.dir() },
      stdio: 'pipe'
    })
    const html = readFileSync(page, 'utf8')
    // self-contained: nothing to fetch when it is viewed
    expect(html).not.toMatch(/\b(src|href)=|url\(|@import/)
    expect(html).toContain('<code>NCCL_PROTO</code>')
    const dom = execFileSync(
      browser as string,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        `--user-data-dir=${box.path('chromium')}`,
        '--dump-dom',
        `file://${page}`
      ],
      { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] }
    )
    // two keys: start-up and decode rate for each, all four drawn
    expect(dom).toMatch(/<body data-charts-drawn="4">/)
    expect(dom.match(/<circle[^>]*class="env"/g)).toHaveLength(2)
  },
  120_000
)
