import { spawn } from 'node:child_process'
import { openSync, readFileSync, writeFileSync } from 'node:fs'
import { runAction } from '../../src/simulator/runner.js'
import { procStat } from '../../src/server/proc.js'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors, runMeasured, runProcess } from '../helpers/support.js'
import { HANG_MS } from '../helpers/bounds.js'

/**
 * A fleet of servers as a runner runs it: dist/index.js with one `start` line per `url` line (eight simulated
 * vLLM servers started by the CLI's `simulate`, each pinned to its own GPU by CUDA_VISIBLE_DEVICES), then
 * dist/post.js with the state the main step saved.
 */
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const post = new URL('../../dist/post.js', import.meta.url).pathname
const box = sandbox('wfm-fleet-servers-e2e-')
const fakeDir = new URL('../fixtures/gpu/', import.meta.url).pathname

interface Result {
  url: string
  ready: boolean
  reason: string
  pid: number | null
  'log-file': string | null
  'startup-seconds': number | null
  'elapsed-seconds': number
  phases: Array<{ name: string; seconds: number }>
}

const alive = (pid: number): boolean => {
  const state = procStat(pid)?.state
  return state !== undefined && state !== 'Z'
}

/** Eight ports, and a `start` line for each: `simulate` on that port, pinned to GPU i, with its own arguments. */
/**
 * A free port below the kernel's ephemeral range: a simulated vLLM binds its port only once loaded, and until then
 * another suite's server, given a port by the kernel, could take it and answer there (`wrong-server`).
 */
async function quietPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    if (taken.has(port)) continue
    const free = await freePort('127.0.0.1', port).then(
      () => true,
      () => false
    )
    if (free) {
      taken.add(port)
      return port
    }
  }
}

async function fleet(args: (i: number) => string, n = 8) {
  const taken = new Set<number>()
  const ports: number[] = []
  for (let i = 0; i < n; i++) ports.push(await quietPort(taken))
  return {
    ports,
    url: ports.map((p) => `http://127.0.0.1:${p}/v1/models`).join('\n'),
    start: ports
      .map((p, i) => `CUDA_VISIBLE_DEVICES=${i} node ${cli} simulate --engine vllm --model kimi --port ${p} ${args(i)}`)
      .join('\n')
  }
}

const resultsOf = (outputs: Record<string, string>): Result[] => JSON.parse(outputs.results) as Result[]

describe('a fleet of servers, one per endpoint', () => {
  it('eight servers started by eight start lines: ready, each with its own figures, and each stopped at the job end', async () => {
    const { url, start, ports } = await fleet((i) => `--load ${300 + 150 * i}ms`)
    const run = await runMeasured({
      url,
      start,
      model: 'kimi',
      timeout: '60s',
      'env-report': 'CUDA_VISIBLE_DEVICES',
      // each its own log, one line per url line (the runner's RUNNER_TEMP, the default's folder, goes with the step)
      'log-file': ports.map((p) => box.path(`server-${p}.log`)).join('\n'),
      'history-file': box.path('history.jsonl')
    })
    const results = resultsOf(run.outputs)
    for (const r of results) if (r.pid !== null) box.pids.push(r.pid)
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    expect(results).toHaveLength(8)
    for (const [i, r] of results.entries()) {
      expect(r).toMatchObject({ url: `http://127.0.0.1:${ports[i]}/v1/models`, ready: true, reason: 'ready' })
      expect(r.pid).toEqual(expect.any(Number))
      expect(r['startup-seconds']).toEqual(expect.any(Number))
      // each its own log, its own phases (vLLM's, read from that server's own log)
      expect(readFileSync(r['log-file'] as string, 'utf8')).toContain(`on http://127.0.0.1:${ports[i]}`)
      expect(r.phases.map((p) => p.name)).toContain('loading weights')
      // each server's environment, its own GPU
      expect(run.stdout).toContain(`[${r.url}] Server environment (process`)
      expect(run.stdout).toMatch(
        new RegExp(`^\\[${r.url.replace(/[.?]/g, '\\$&')}\\]   CUDA_VISIBLE_DEVICES=${i}$`, 'm')
      )
    }
    expect(new Set(results.map((r) => r.pid)).size).toBe(8)
    expect(new Set(results.map((r) => r['log-file'])).size).toBe(8)
    // the summary: a row per endpoint with its server and its startup
    expect(run.summary).toMatch(/#### Endpoints \(8 of 8 ready\)/)
    expect(run.summary).toMatch(
      /\| endpoint \| result \| elapsed \| status \| model \| server \| startup \| GPU memory \|/
    )
    for (const r of results) expect(run.summary).toContain(`| pid ${r.pid} | ${r['startup-seconds']?.toFixed(1)} s |`)
    // each server's environment, side by side: every GPU but the first differs from the first server's
    expect(run.summary).toContain('#### Server environments')
    results.forEach((r, i) =>
      expect(run.summary).toMatch(
        new RegExp(`^\\| \`${r.url.replace(/[.?]/g, '\\$&')}\` \\| \\d+ \\| ${i === 0 ? '' : '⚠️ '}\`${i}\` \\|$`, 'm')
      )
    )
    // the history: one run recorded per endpoint, each under its own key
    const history = readFileSync(box.path('history.jsonl'), 'utf8').trim().split('\n')
    expect(history).toHaveLength(8)
    expect(new Set(history.map((l) => (JSON.parse(l) as { key: string }).key)).size).toBe(8)

    // the job-end step stops every one of them
    const env: Record<string, string> = {}
    for (const [name, value] of Object.entries(run.state)) env[`STATE_${name}`] = value
    const p = await runAction({ entry: post, inputs: {}, env })
    expect(p.code).toBe(0)
    expect(
      p.stdout.match(
        /^Server \d of 8 \(url line \d\): Stopped the server's process group \d+ .*: SIGTERM, gone after/gm
      ) ?? []
    ).toHaveLength(8)
    // each line and each summary section names whose server it is, by its url line
    results.forEach((r, i) => {
      expect(p.stdout).toContain(
        `Server ${i + 1} of 8 (url line ${i + 1}): Stopped the server's process group ${r.pid} `
      )
      expect(p.summary).toContain(`### wait-for-model: server ${i + 1} of 8 (url line ${i + 1}) stopped at the job end`)
      expect(alive(r.pid as number)).toBe(false)
    })
  }, 120_000)

  it('one that crashes during its load ends the wait at once, naming its URL, with its log tail', async () => {
    const { url, start, ports } = await fleet((i) => (i === 5 ? '--load 30s --crash-after 1s' : '--load 30s'))
    const run = await runMeasured({ url, start, model: 'kimi', timeout: '60s', 'history-file': '' })
    const results = resultsOf(run.outputs)
    for (const r of results) if (r.pid !== null) box.pids.push(r.pid)
    const crashed = `http://127.0.0.1:${ports[5]}/v1/models`
    expect(run.code).toBe(1)
    expect(run.outputs.ready).toBe('false')
    // the fatal line the engine printed as it died, else its exit
    expect(run.outputs.reason).toMatch(/^(log-error|server-exited)$/)
    expect(results[5]).toMatchObject({ url: crashed, ready: false, reason: run.outputs.reason })
    // the scalar outputs are the crashed one's: its pid, its log
    expect(run.outputs.pid).toBe(String(results[5].pid))
    const error = errors(run.stdout).join('\n')
    expect(error).toContain(crashed)
    expect(error).toMatch(/CUDA out of memory|exited/)
    expect(run.stdout).toContain(`Last `)
    expect(run.stdout).toContain(results[5]['log-file'] as string)
    // The others were stopped waiting for as soon as it failed (events, not wall time: each ended within a
    // moment of it on the step's own clock, and long before their 30 s loads), and none of them is ready.
    for (const [i, r] of results.entries()) {
      if (i === 5) continue
      expect(r).toMatchObject({ ready: false, reason: 'cancelled' })
      expect(r['elapsed-seconds']).toBeLessThan(results[5]['elapsed-seconds'] + 1)
    }
    expect(Number(run.outputs['elapsed-seconds'])).toBeLessThan(30)
    expect(run.exitAtMs).toBeLessThan(Number(run.outputs['elapsed-seconds']) * 1000 + HANG_MS)
    expect(run.summary).toMatch(/#### Endpoints \(0 of 8 ready\)/)
  }, 120_000)

  it("gpu-check reads each server's own GPUs from its start line: another's process on GPU 1 refuses the fleet, nothing starts", async () => {
    const { url, start, ports } = await fleet(() => '--load 1s', 2)
    const gpuState = box.path('gpu.json')
    writeFileSync(
      gpuState,
      JSON.stringify({
        gpus: [
          { index: 0, uuid: 'GPU-0000aaaa-0000-0000-0000-000000000000', name: 'NVIDIA H200', total: 143771 },
          { index: 1, uuid: 'GPU-1111bbbb-0000-0000-0000-000000000000', name: 'NVIDIA H200', total: 143771 }
        ],
        apps: [
          { pid: 4242, name: 'python3', mib: 70000, gpu: 'GPU-1111bbbb-0000-0000-0000-000000000000', always: true }
        ]
      })
    )
    const run = await runAction({
      entry,
      inputs: { url, start, model: 'kimi', 'gpu-check': 'fail', 'history-file': '' },
      env: { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: gpuState, CUDA_VISIBLE_DEVICES: '0,1' }
    })
    expect(run.code).toBe(1)
    expect(run.outputs.reason).toBe('gpu-busy')
    const results = resultsOf(run.outputs)
    // the refusal is the second server's (GPU 1), and the first, on a free GPU 0, was not started either
    expect(run.outputs.results).toContain(`http://127.0.0.1:${ports[1]}/v1/models`)
    expect(errors(run.stdout).join('\n')).toContain(`http://127.0.0.1:${ports[1]}/v1/models`)
    expect(errors(run.stdout).join('\n')).toMatch(/4242/)
    expect(results[0].ready).toBe(false)
    expect(results[0].pid ?? null).toBeNull()
    expect(run.stdout).not.toMatch(/Started the server/)
  })

  it('servers started elsewhere, a pid line and a log-file line each: one that is killed ends the wait naming its URL', async () => {
    const ports = await Promise.all([freePort(), freePort()])
    const logs = ports.map((p) => box.path(`elsewhere-${p}.log`))
    const servers = ports.map((p, i) =>
      spawn(
        process.execPath,
        [cli, 'simulate', '--engine', 'vllm', '--model', 'kimi', '--port', String(p), '--load', '60s'],
        {
          detached: true,
          stdio: ['ignore', openSync(logs[i], 'a'), openSync(logs[i], 'a')]
        }
      )
    )
    const pids = servers.map((c) => c.pid as number)
    box.pids.push(...pids)
    // the second one dies once it has begun to load (its first line is in its log)
    const killer = (async () => {
      while (!readFileSync(logs[1], 'utf8').includes('serving')) await new Promise((r) => setTimeout(r, 50))
      process.kill(pids[1], 'SIGKILL')
    })()
    const run = await runMeasured({
      url: ports.map((p) => `http://127.0.0.1:${p}/v1/models`).join('\n'),
      pid: pids.join('\n'),
      'log-file': logs.join('\n'),
      model: 'kimi',
      timeout: '60s',
      'history-file': ''
    })
    await killer
    const results = resultsOf(run.outputs)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'server-exited', pid: String(pids[1]) })
    expect(results.map((r) => [r.pid, r.reason])).toEqual([
      [pids[0], 'cancelled'],
      [pids[1], 'server-exited']
    ])
    expect(errors(run.stdout).join('\n')).toContain(`http://127.0.0.1:${ports[1]}/v1/models: `)
    // one given by pid is whoever started it's to stop: the job-end step has nothing to do
    expect(run.state).toEqual({})
    expect(alive(pids[0])).toBe(true)
  }, 120_000)

  it('the CLI the same: --start once per --url, paired in order', async () => {
    const { ports } = await fleet(() => '', 3)
    const args = ports.flatMap((p, i) => [
      '--url',
      `http://127.0.0.1:${p}/v1/models`,
      '--start',
      `node ${cli} simulate --engine vllm --model kimi --port ${p} --load ${200 * (i + 1)}ms`,
      '--log-file',
      box.path(`cli-${p}.log`)
    ])
    const run = await runProcess(
      process.execPath,
      [cli, ...args, '--model', 'kimi', '--timeout', '60s', '--history-file', '', '--json'],
      { env: { PATH: process.env.PATH ?? '', HOME: box.dir() } }
    )
    const out = JSON.parse(run.stdout) as { ready: boolean; results: Result[] }
    for (const r of out.results) if (r.pid !== null) box.pids.push(r.pid)
    expect(run.code).toBe(0)
    expect(out.ready).toBe(true)
    out.results.forEach((r, i) => {
      expect(r).toMatchObject({ url: `http://127.0.0.1:${ports[i]}/v1/models`, ready: true })
      expect(r['log-file']).toBe(box.path(`cli-${ports[i]}.log`))
      expect(readFileSync(r['log-file'] as string, 'utf8')).toContain(`on http://127.0.0.1:${ports[i]}`)
    })
    expect(run.stderr).toMatch(/3 of 3 endpoints ready/)
    // and the CLI's stop takes them all at once, a --pid each
    const pids = out.results.map((r) => r.pid as number)
    const stop = await runProcess(
      process.execPath,
      [cli, 'stop', ...pids.flatMap((p) => ['--pid', String(p)]), '--json'],
      {
        env: { PATH: process.env.PATH ?? '', HOME: box.dir() }
      }
    )
    expect(stop.code).toBe(0)
    const records = JSON.parse(stop.stdout) as Array<{ pid: number; outcome: string }>
    expect(records.map((r) => [r.pid, r.outcome])).toEqual(pids.map((p) => [p, 'exited']))
    for (const p of pids) expect(alive(p)).toBe(false)
  }, 60_000)

  it('a mismatch in the number of lines is an input error naming the counts, before anything runs', async () => {
    const { url } = await fleet(() => '', 3)
    const run = await runAction({
      entry,
      inputs: { url, start: 'node a.js\nnode b.js', model: 'kimi', 'history-file': '' }
    })
    expect(run.code).toBe(1)
    expect(errors(run.stdout).join('\n')).toMatch(/Input "start": has 2 lines and "url" has 3/)
    expect(run.stdout).not.toMatch(/Started the server/)
  })

  it('a script of several lines with several url lines is refused, not taken as a server per line', async () => {
    const { url } = await fleet(() => '', 2)
    const run = await runAction({
      entry,
      inputs: { url, start: 'export NCCL_DEBUG=INFO\nvllm serve kimi', model: 'kimi', 'history-file': '' }
    })
    expect(run.code).toBe(1)
    expect(errors(run.stdout).join('\n')).toMatch(/Input "start": line 1: "export NCCL_DEBUG=INFO" starts no server/)
    expect(run.stdout).not.toMatch(/Started the server/)
  })
})
