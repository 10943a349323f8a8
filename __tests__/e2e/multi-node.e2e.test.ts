import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { runAction } from '../../src/simulator/runner.js'
import { procStat } from '../../src/server/proc.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors, savedServers } from '../helpers/support.js'
import { measureLoad } from '../helpers/bounds.js'
import { markedProcesses, type SshNode, sshNode, sshNodesMissing } from '../helpers/ssh-nodes.js'

/**
 * One server across several nodes (`host` and `start` with a line per node, the head first), through dist/: real
 * sshd in a network namespace per node, the simulator playing the head and the worker ranks of each engine (their
 * per-rank lines, SGLang's dummy health on workers, vLLM's headless workers, NCCL's lines for an engine without its
 * own), a fake nvidia-smi on each node.
 */
const post = new URL('../../dist/post.js', import.meta.url).pathname
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const fakeSmi = new URL('../fixtures/gpu/nvidia-smi', import.meta.url).pathname
const missing = sshNodesMissing()
const box = sandbox('wfm-multinode-e2e-')
const maybe = missing === undefined ? describe : describe.skip
if (missing !== undefined) it.skip(`multi-node tests: ${missing}`, () => undefined)

const alive = (pid: number): boolean => {
  const state = procStat(pid)?.state
  return state !== undefined && state !== 'Z'
}

let nodes: SshNode[] = []
afterEach(() => {
  nodes.forEach((n) => n.close())
  nodes = []
})

/**
 * `count` nodes, the first the head; node r's nvidia-smi shows its simulator (the one of `--node-rank r`) holding
 * 20000 + r MiB; `env[r]` is set in node r's sessions. The head's key and known_hosts reach every node.
 */
async function cluster(count: number, port: number, env: Record<string, string>[] = []): Promise<SshNode[]> {
  const made: SshNode[] = []
  for (let r = 0; r < count; r++) {
    const name = r === 0 ? 'head' : `worker${r}`
    const bin = box.path(name, 'bin')
    mkdirSync(bin, { recursive: true })
    const gpu = `GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e${r}`
    writeFileSync(
      `${bin}/nvidia-smi`,
      `#!/bin/sh
pid=999999
for d in /proc/[0-9]*; do
  case "$(tr '\\0' ' ' < $d/cmdline 2>/dev/null)" in *simulate*--port\\ ${port}\\ *--node-rank\\ ${r}\\ *) pid=\${d#/proc/};; esac
done
printf '{"gpus":[{"index":0,"uuid":"${gpu}","name":"NVIDIA H200","total":143771}],"apps":[{"pid":%s,"name":"python3","mib":${20000 + r},"gpu":"${gpu}"}]}' "$pid" > "$FAKE_NVIDIA_SMI"
exec ${process.execPath} ${fakeSmi} "$@"
`
    )
    chmodSync(`${bin}/nvidia-smi`, 0o755)
    const node = await sshNode(box.dir(), name, {
      PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`,
      FAKE_NVIDIA_SMI: box.path(name, 'gpu.json'),
      ...env[r]
    })
    nodes.push(node)
    made.push(node)
  }
  const known = made.map((_, r) => readFileSync(box.path(r === 0 ? 'head' : `worker${r}`, 'known_hosts'), 'utf8'))
  writeFileSync(box.path('head', 'known_hosts'), known.join(''))
  for (let r = 1; r < count; r++)
    writeFileSync(box.path(`worker${r}`, 'authorized_keys'), readFileSync(box.path('head', 'id.pub')))
  return made
}

/** Node `rank`'s start line: the simulator as that node of the engine's server. */
const simulate = (engine: string, port: number, rank: number, count: number, args: string): string =>
  `exec ${process.execPath} ${cli} simulate --engine ${engine} --model kimi --port ${port} --node-rank ${rank} ` +
  `--nnodes ${count} ${args}`

const envOf = (head: SshNode) => ({
  HOME: box.dir(),
  XDG_CACHE_HOME: box.path('cache'),
  WAIT_FOR_MODEL_SSH_COMMAND: head.sshCommand
})

const mainStep = (cluster: SshNode[], starts: string[], port: number, inputs: Record<string, string> = {}) =>
  runAction({
    entry,
    inputs: {
      url: `http://localhost:${port}/v1/models`,
      model: 'kimi',
      host: cluster.map((n) => n.host).join('\n'),
      start: starts.join('\n'),
      interval: '200ms',
      timeout: '60s',
      'history-file': '',
      ...inputs
    },
    env: envOf(cluster[0])
  })

/** The job-end step, from the main step's state. */
async function jobEnd(head: SshNode, state: Record<string, string>) {
  const env: Record<string, string> = envOf(head)
  for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value
  return runAction({ entry: post, inputs: {}, env })
}

maybe('one server across several nodes (real sshd per node, the simulator as each engine)', () => {
  it('two SGLang nodes: ready only once the late worker joined, after one generation; join times, GPU memory and the NCCL variable that differs; the job-end step stops both', async () => {
    const port = 19000 + Math.floor(Math.random() * 1000)
    const pair = await cluster(2, port, [{ NCCL_IB_HCA: 'mlx5_0', NCCL_DEBUG: 'INFO' }, { NCCL_DEBUG: 'INFO' }])
    const [head, worker] = pair
    const run = await mainStep(
      pair,
      [
        simulate('sglang', port, 0, 2, '--ranks 4 --load 1s'),
        // its ranks join well after the head is ready
        simulate('sglang', port, 1, 2, '--ranks 4 --load 1s --join-after 5s')
      ],
      port,
      { 'env-report': 'NCCL_*' }
    )
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    const [saved] = savedServers(run.state)
    const pids = [Number(run.outputs.pid), ...(saved.nodes as Array<{ pid: number }>).map((n) => n.pid)]
    box.pids.push(...pids)
    // the head was ready long before: the worker's ranks held it
    expect(run.stdout).toContain(`waiting for ranks: 2 of 4 joined; missing on node 2 (${worker.host})`)
    // and, SGLang's health missing a dead worker, a generation went out once they had joined
    expect(run.stdout).toMatch(/POST \/v1\/chat\/completions generated|POST \/v1\/completions generated/)
    const joins = [...run.stdout.matchAll(/^Node (\d) \(\S+\): 2 ranks, joined (\S+) after the start$/gm)]
    expect(joins.map((m) => m[1])).toEqual(['1', '2'])
    expect(run.summary).toMatch(/\| Ranks joined \| 4 of 4 \|/)
    expect(run.summary).toContain(`| Node 2 (${worker.host}) | 2 ranks, joined at`)
    expect(run.summary).toContain(`node 1 (${head.host}): 20000 MiB, node 2 (${worker.host}): 20001 MiB`)
    expect(run.stdout).toContain(`NCCL_IB_HCA: mlx5_0 on node 1 (${head.host}), unset on node 2 (${worker.host})`)
    expect(run.stdout).not.toMatch(/NCCL_DEBUG: /)
    expect(run.stdout).toContain(`Environment of node 2 (${worker.host}): NCCL_DEBUG=INFO`)
    console.log(`two SGLang nodes: ${joins.map((m) => `node ${m[1]} joined ${m[2]}`).join(', ')}`)

    const p = await jobEnd(head, run.state)
    expect(p.code).toBe(0)
    expect(pids.filter(alive)).toEqual([])
    expect(markedProcesses(saved.runMarker as string)).toEqual([])
  }, 120_000)

  it("a worker's dummy health 200 never counts: a head that is not ready keeps the wait waiting", async () => {
    const port = 19000 + Math.floor(Math.random() * 1000)
    const pair = await cluster(2, port)
    const [, worker] = pair
    let dummy = ''
    const asked = setInterval(() => {
      const got = spawnSync('ip', [
        'netns',
        'exec',
        worker.netns,
        'curl',
        '-s',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        `http://127.0.0.1:${port}/health`
      ])
      dummy ||= got.stdout.toString() === '200' ? '200' : ''
    }, 300)
    const run = await mainStep(
      pair,
      [
        simulate('sglang', port, 0, 2, '--ranks 2 --load 60s'),
        simulate('sglang', port, 1, 2, '--ranks 2 --load 60s --join-after 200ms')
      ],
      port,
      { timeout: '6s', stop: 'always' }
    )
    clearInterval(asked)
    if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
    expect(dummy).toBe('200')
    expect(run.outputs.ready).toBe('false')
    expect(run.outputs.reason).toBe('timeout')
    const p = await jobEnd(pair[0], run.state)
    expect(p.code).toBe(0)
  }, 120_000)

  it("two LMDeploy nodes, `ranks: 4` (its rank lines not known): held by NCCL's Init COMPLETE lines until the late worker's 2 ranks joined; `ranks: 6` of 4 times out naming both nodes short", async () => {
    const port = 19000 + Math.floor(Math.random() * 1000)
    const pair = await cluster(2, port)
    const [head, worker] = pair
    // NCCL prints its lines only with NCCL_DEBUG=INFO, set here on each node's start line
    const lmdeploy = (p: number, rank: number, args: string) =>
      `NCCL_DEBUG=INFO ${simulate('lmdeploy', p, rank, 2, `--ranks 4 --load 1s ${args}`)}`
    const joinMs = 5_000
    const run = await mainStep(pair, [lmdeploy(port, 0, ''), lmdeploy(port, 1, `--join-after ${joinMs}ms`)], port, {
      ranks: '4'
    })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    const [saved] = savedServers(run.state)
    box.pids.push(Number(run.outputs.pid), ...(saved.nodes as Array<{ pid: number }>).map((n) => n.pid))
    // the head was ready (healthy) after 1 s: the worker's ranks held the wait
    expect(Number(run.outputs['elapsed-seconds'])).toBeGreaterThanOrEqual(joinMs / 1000)
    expect(run.stdout).toContain(
      "HTTP 200 healthy — waiting for ranks: 2 of 4 joined (NCCL's Init COMPLETE lines); missing on node 2 " +
        `(${worker.host})`
    )
    const joins = [...run.stdout.matchAll(/^Node (\d) \(\S+\): 2 ranks, joined (\S+) after the start$/gm)]
    expect(joins.map((m) => m[1])).toEqual(['1', '2'])
    expect(run.summary).toMatch(/\| Ranks joined \| 4 of 4 \(NCCL's Init COMPLETE lines\) \|/)
    expect(run.summary).toContain(`| Node 2 (${worker.host}) | 2 ranks, joined at`)
    console.log(`two LMDeploy nodes by NCCL's lines: ${joins.map((m) => `node ${m[1]} joined ${m[2]}`).join(', ')}`)
    const p = await jobEnd(head, run.state)
    expect(p.code).toBe(0)
    expect(markedProcesses(saved.runMarker as string)).toEqual([])

    // six asked of four: a share of 3 a node, which neither holds
    const other = port + 1
    const short = await mainStep(pair, [lmdeploy(other, 0, ''), lmdeploy(other, 1, '--join-after 200ms')], other, {
      ranks: '6',
      timeout: '6s',
      stop: 'always'
    })
    if (short.outputs.pid) box.pids.push(Number(short.outputs.pid))
    expect(short.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expect(errors(short.stdout).join('\n')).toContain(
      `waiting for ranks: 4 of 6 joined (NCCL's Init COMPLETE lines); missing on node 1 (${head.host}), node 2 (${worker.host})`
    )
    const [shortSaved] = savedServers(short.state)
    const q = await jobEnd(head, short.state)
    expect(q.code).toBe(0)
    expect(markedProcesses(shortSaved.runMarker as string)).toEqual([])
  }, 120_000)

  it("four vLLM nodes (headless workers): ready once all 8 ranks joined; the headless workers outlive their head and the job-end step stops them; a worker's death ends the wait naming it within 2 s", async () => {
    const port = 19000 + Math.floor(Math.random() * 1000)
    const four = await cluster(4, port)
    const starts = [0, 1, 2, 3].map((r) =>
      simulate('vllm', port, r, 4, `--ranks 8 --load 1s${r === 3 ? ' --join-after 6s' : ''}`)
    )
    const run = await mainStep(four, starts, port)
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    expect(run.stdout).toContain(`missing on node 4 (${four[3].host})`)
    expect(run.summary).toMatch(/\| Ranks joined \| 8 of 8 \|/)
    const [saved] = savedServers(run.state)
    const headPid = Number(run.outputs.pid)
    const workers = (saved.nodes as Array<{ pid: number }>).map((n) => n.pid)
    box.pids.push(headPid, ...workers)
    const joins = [...run.stdout.matchAll(/^Node (\d) \(\S+\): 2 ranks, joined (\S+) after the start$/gm)]
    expect(joins.map((m) => m[1])).toEqual(['1', '2', '3', '4'])
    console.log(`four vLLM nodes: ${joins.map((m) => `node ${m[1]} joined ${m[2]}`).join(', ')}`)
    // the head dies; its headless workers go on holding their GPUs
    process.kill(headPid, 'SIGKILL')
    await new Promise((r) => setTimeout(r, 300))
    expect(workers.filter(alive)).toEqual(workers)
    const p = await jobEnd(four[0], run.state)
    expect(p.code).toBe(0)
    expect(workers.filter(alive)).toEqual([])
    expect(markedProcesses(saved.runMarker as string)).toEqual([])

    // node 3 dies while the head loads: the wait ends naming it
    const other = port + 1
    const stretch = measureLoad()
    const began = box.path('began')
    const dying = [0, 1, 2, 3].map((r) =>
      r === 2
        ? `echo $(($(date +%s%N) / 1000000)) > ${began}; ${simulate('vllm', other, r, 4, '--ranks 8 --load 30s --crash-after 3s')}`
        : simulate('vllm', other, r, 4, '--ranks 8 --load 30s')
    )
    const died = await mainStep(four, dying, other, { stop: 'always' })
    const endedAt = Date.now()
    if (died.outputs.pid) box.pids.push(Number(died.outputs.pid))
    expect(['server-exited', 'log-error']).toContain(died.outputs.reason)
    const host3 = four[2].host.replace(/\./g, '\\.')
    expect(errors(died.stdout).join('\n')).toMatch(new RegExp(`node 3 \\(${host3}\\)|\\[${host3}\\] `))
    const deathToEnd = endedAt - (Number(readFileSync(began, 'utf8')) + 3_000)
    console.log(`a worker's death to the wait's end: ${deathToEnd} ms (load stretch ${stretch().toFixed(2)})`)
    expect(deathToEnd).toBeLessThan(2_000 * stretch())
    const [diedSaved] = savedServers(died.state)
    const q = await jobEnd(four[0], died.state)
    expect(q.code).toBe(0)
    expect(markedProcesses(diedSaved.runMarker as string)).toEqual([])
  }, 120_000)
})
