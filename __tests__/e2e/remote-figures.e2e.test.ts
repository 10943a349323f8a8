import { readFileSync, writeFileSync } from 'node:fs'
import { sandbox } from '../helpers/sandbox.js'
import { runMeasured } from '../helpers/support.js'
import { type SshNode, sshNode, sshNodesMissing } from '../helpers/ssh-nodes.js'

/**
 * The remote kind's figures, side by side with the local kind's on the same machine, through dist/: how late the
 * gate sees readiness, a server's death and a fatal log line, each against the moment the server itself wrote
 * down. Printed as a table; the bounds held are loose (a busy shared machine), the figures are what to read.
 */
const missing = sshNodesMissing()
const box = sandbox('wfm-remote-figures-', 'file')
const maybe = missing === undefined ? describe : describe.skip
if (missing !== undefined) it.skip(`remote figures: ${missing}`, () => undefined)
const RUNS = 3

/** A tiny model server: its port opens after 2 s, listing "kimi"; the moment it does is written to `at`. */
const readyServer = (port: number, at: string): string =>
  `exec ${process.execPath} -e "const fs=require('fs');setTimeout(()=>require('http').createServer((q,s)=>{s.setHeader('content-type','application/json');s.end(JSON.stringify({object:'list',data:[{id:'kimi',object:'model'}]}))}).listen(${port},'127.0.0.1',()=>fs.writeFileSync('${at}',String(Date.now()))),2000)"`
/** Dies 2 s after its start, the moment written first. */
const dyingServer = (at: string): string =>
  `exec ${process.execPath} -e "setTimeout(()=>{require('fs').writeFileSync('${at}',String(Date.now()));process.exit(3)},2000)"`
/** Writes a fatal line 2 s after its start (the moment written just before), and runs on. */
const fatalLine = (at: string): string =>
  `exec ${process.execPath} -e "setTimeout(()=>{require('fs').writeFileSync('${at}',String(Date.now()));console.log('FATAL-MARK')},2000);setInterval(()=>{},1000)"`

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

let node: SshNode | undefined
afterAll(() => node?.close())

maybe('figures: the remote kind beside the local one', () => {
  it('lag to ready, death to end, fatal line to end', async () => {
    node = await sshNode(box.dir(), 'fig')
    const rows: string[] = []
    const figures: Record<string, number[]> = {}
    for (const where of ['local', 'remote'] as const) {
      const remote = where === 'remote'
      for (const [name, make, extra] of [
        ['lag to ready', (p: number, at: string) => readyServer(p, at), {}],
        ['death to end', (_: number, at: string) => dyingServer(at), {}],
        ['fatal line to end', (_: number, at: string) => fatalLine(at), { 'fail-pattern': 'FATAL-MARK' }]
      ] as const) {
        const key = `${name} (${where})`
        figures[key] = []
        for (let i = 0; i < RUNS; i++) {
          const port = 19000 + Math.floor(Math.random() * 1000)
          const at = box.path(`at-${where}-${i}-${port}`)
          writeFileSync(at, '')
          const run = await runMeasured(
            {
              url: `http://localhost:${port}/v1/models`,
              model: 'kimi',
              start: make(port, at),
              interval: '200ms',
              timeout: '30s',
              'history-file': '',
              stop: 'never',
              ...(remote ? { host: (node as SshNode).host } : {}),
              ...extra
            },
            { HOME: box.dir(), ...(remote ? { WAIT_FOR_MODEL_SSH_COMMAND: (node as SshNode).sshCommand } : {}) }
          )
          if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
          const [result] = JSON.parse(run.outputs.results) as Array<{ 'elapsed-seconds': number }>
          const seen = run.originMs + result['elapsed-seconds'] * 1000
          const moment = Number(readFileSync(at, 'utf8'))
          figures[key].push(seen - moment)
        }
        rows.push(
          `| ${name} | ${where} | ${figures[key].map((x) => x.toFixed(0)).join(', ')} ms | ${median(figures[key]).toFixed(0)} ms |`
        )
      }
    }
    console.log(['| figure | kind | runs | median |', '|---|---|---|---|', ...rows].join('\n'))
    // loose: a death on the host is seen within 2 s, as locally
    expect(median(figures['death to end (remote)'])).toBeLessThan(2_000)
  }, 300_000)
})
