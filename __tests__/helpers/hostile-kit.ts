/**
 * The hostile-content suites' kit (__tests__/e2e/hostile-content.e2e.test.ts and hostile-output.e2e.test.ts, split in two so that two jest workers
 * share them): each file's temporary folder and loopback servers, the packaged action run with its peak memory
 * measured, and the figures of a run (CONTENT_FIGURES=<file> appends them; docs/guarantees.md shows a run's).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { appendFileSync, existsSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { type ActionRun, runAction } from '../../src/simulator/runner.js'
import { loopback } from './loopback.js'
import { sandbox } from './sandbox.js'
import { measureLoad } from './bounds.js'
import { entry, type MeasuredRun, measuredBy, peakRssHook } from './support.js'

export const cli = new URL('../../dist/cli.js', import.meta.url).pathname
export const MiB = 1024 * 1024

export const list = (ids: string[]): string => JSON.stringify({ object: 'list', data: ids.map((id) => ({ id })) })
export const send = (res: ServerResponse, status: number, body: string): void =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(body)

/** A process to watch with `pid`, ended when the test is done. */
export function sleeper(): { pid: number; end(): void } {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' })
  return { pid: child.pid as number, end: () => child.kill() }
}

/** One file's kit: call it at the top of the file (it registers the file's hooks). */
export function hostileKit(prefix: string) {
  const box = sandbox(prefix, 'file')
  const dir = box.dir()
  const net = loopback('file')
  const figures: string[] = []
  const measured = (what: string, r: MeasuredRun): void =>
    void figures.push(
      `| ${what} | ${Math.round(r.peakRssMb)} MB | ${(r.wallMs / 1000).toFixed(1)} s | ${Buffer.byteLength(r.summary)} B | ${r.stdout.length} B |`
    )
  afterAll(() => {
    const file = process.env.CONTENT_FIGURES
    if (file === undefined) return
    // the two files' rows in one table
    if (!existsSync(file))
      appendFileSync(file, '| case | peak RSS | wall | summary | stdout |\n|---|---|---|---|---|\n')
    appendFileSync(file, figures.map((f) => `${f}\n`).join(''))
  })

  /** Runs dist/index.js, measures its peak memory, and kills it (failing the test) if it outlives `killMs`. */
  async function run(
    inputs: Record<string, string>,
    env: Record<string, string> = {},
    { killMs = 20_000, onStart }: { killMs?: number; onStart?: (child: ChildProcess) => void } = {}
  ): Promise<MeasuredRun & { killed: boolean }> {
    let killed = false
    let timer: NodeJS.Timeout | undefined
    const stretch = measureLoad()
    const result: ActionRun = await runAction({
      entry,
      inputs,
      env: { NODE_OPTIONS: `--import ${peakRssHook}`, ...env },
      onStart(child) {
        timer = setTimeout(() => ((killed = true), child.kill('SIGKILL')), killMs)
        onStart?.(child)
      }
    })
    clearTimeout(timer)
    // a server `start` launched outlives the action by design: the suite ends it
    if (result.outputs.pid) box.pids.push(Number(result.outputs.pid))
    // a process killed here reported nothing: it fails on `killed`, and on its figures
    const unmeasured = { peakRssMb: Infinity, exitAtMs: Infinity, originMs: NaN }
    return {
      ...result,
      killed,
      ...(/peak-rss-kb=/.test(result.stderr) ? measuredBy(result.stderr) : unmeasured),
      stretch: stretch()
    }
  }
  return { box, dir, net, run, measured }
}
