import { RankCount, ranksFromFlags } from '../../../src/wait/ranks.js'
import { sglang } from '../../../src/engines/sglang.js'
import { vllm } from '../../../src/engines/vllm.js'
import { answerWords } from '../../../src/report/answer-report.js'
import { failureMessage } from '../../../src/report/failure.js'
import { waitForModel } from '../../../src/wait/loop.js'
import type { ProbeResult } from '../../../src/http/probe.js'

const HOSTS = ['root@a', 'root@b']
const sglangRank = (tp: number, host?: string): string =>
  `${host === undefined ? '' : `[${host}] `}[2026-01-01 10:00:0${tp % 10} TP${tp}] Init torch distributed ends. elapsed=3.8 s, mem usage=0.98 GB`
const vllmRank = (rank: number, world: number, host?: string): string =>
  `${host === undefined ? '' : `[${host}] `}(Worker_TP${rank} pid=4${rank}) INFO 01-01 10:00:00 [parallel_state.py:1400] ` +
  `rank ${rank} in world size ${world} is assigned as DP rank 0, PP rank 0, PCP rank 0, TP rank ${rank}, EP rank 0`

describe('ranks across nodes', () => {
  it('SGLang: counts each TP rank once on whichever node, expecting tp_size × pp_size from server_args', () => {
    let t = 1_000
    const count = new RankCount(HOSTS, ['python -m sglang.launch_server --tp 4 --nnodes 2', 'x'], () => t)
    count.line("[2026-01-01 10:00:00] server_args=ServerArgs(model_path='/m', tp_size=4, pp_size=1, nnodes=2)")
    count.line(sglangRank(0))
    count.line(sglangRank(1))
    count.line(sglangRank(1)) // the same rank again is not another
    expect(count.missing('sglang', false)).toEqual({ joined: 2, expected: 4, missingOn: ['node 2 (root@b)'] })
    t = 2_500
    count.line(sglangRank(2, 'root@b'))
    expect(answerWords({ state: 'waiting', status: 200, ranks: count.missing('sglang', false) }).summary).toBe(
      'HTTP 200 — waiting for ranks: 3 of 4 joined; missing on node 2 (root@b)'
    )
    t = 4_000
    count.line(sglangRank(3, 'root@b'))
    expect(count.missing('sglang', false)).toBeUndefined()
    expect(count.joins('sglang')).toEqual([
      { host: 'root@a', ranks: 2, joinedMs: 1_000 },
      { host: 'root@b', ranks: 2, joinedMs: 4_000 }
    ])
  })

  it('a rank beyond the stated world is not counted, and endless distinct ranks are held to a bound', () => {
    const count = new RankCount(HOSTS, ['vllm serve m', 'vllm serve m --headless'], () => 0)
    count.line(vllmRank(0, 2))
    count.line(vllmRank(7, 2, 'root@b'))
    expect(count.missing('vllm', true)).toMatchObject({ joined: 1, expected: 2 })
    const flood = new RankCount(HOSTS, ['python -m sglang.launch_server', 'x'], () => 0)
    for (let tp = 0; tp < 70_000; tp++) flood.line(sglangRank(tp + 4))
    expect(flood.joins('sglang')?.reduce((n, j) => n + j.ranks, 0)).toBe(65_536)
  })

  it('SGLang: a tag beyond the sizes its server_args or flags state is not counted (TP ≥ tp_size, PP ≥ pp_size)', () => {
    const tagged = (tag: string, host?: string): string =>
      `${host === undefined ? '' : `[${host}] `}[2026-01-01 10:00:00 ${tag}] Init torch distributed ends. elapsed=1 s`
    const count = new RankCount(HOSTS, ['python -m sglang.launch_server --nnodes 2', 'x'], () => 0)
    count.line("[2026-01-01 10:00:00] server_args=ServerArgs(model_path='/m', tp_size=2, pp_size=2, nnodes=2)")
    for (const tag of ['PP0 TP0', 'PP0 TP1', 'PP0 TP2', 'PP2 TP0', 'PP9 TP9']) count.line(tagged(tag))
    count.line(tagged('PP1 TP0', 'root@b'))
    expect(count.missing('sglang', false)).toEqual({ joined: 3, expected: 4, missingOn: ['node 2 (root@b)'] })
    count.line(tagged('PP1 TP1', 'root@b'))
    expect(count.missing('sglang', false)).toBeUndefined()
    // before server_args is read, the start line's flags bound the tags; a tag no size bounds (EP) is counted
    const flagged = new RankCount(['this machine'], ['python -m sglang.launch_server --tp 2'], () => 0)
    for (const tag of ['TP0 EP0', 'TP2 EP2', 'TP9 EP9']) flagged.line(tagged(tag))
    expect(flagged.missing('sglang', false)).toEqual({ joined: 1, expected: 2, missingOn: [] })
    flagged.line(tagged('TP1 EP1'))
    expect(flagged.missing('sglang', false)).toBeUndefined()
    // a count given (ranks) does not let a stray tag fill it either
    const given = new RankCount(['this machine'], ['python -m sglang.launch_server --tp 2'], () => 0, 2)
    for (const tag of ['TP0', 'TP5']) given.line(tagged(tag))
    expect(given.missing('sglang', true)).toMatchObject({ joined: 1, expected: 2 })
  })

  it('vLLM: the world size its own lines state', () => {
    const count = new RankCount(HOSTS, ['vllm serve m', 'vllm serve m --headless'], () => 0)
    count.line(vllmRank(0, 4))
    count.line(vllmRank(1, 4))
    expect(count.missing('vllm', false)).toEqual({ joined: 2, expected: 4, missingOn: ['node 2 (root@b)'] })
    count.line(vllmRank(2, 4, 'root@b'))
    count.line(vllmRank(3, 4, 'root@b'))
    expect(count.missing(undefined, false)).toBeUndefined()
  })

  it("SGLang's --dp replicas multiply the count, unless DP attention splits the TP ranks", () => {
    for (const [attention, expected] of [
      ['False', 8],
      ['True', 4]
    ] as const) {
      const count = new RankCount(HOSTS, ['', ''], () => 0)
      count.line(`[T] server_args=ServerArgs(tp_size=4, pp_size=1, dp_size=2, enable_dp_attention=${attention})`)
      count.line('[2026-01-01 10:00:00 DP0 TP0] Init torch distributed ends. elapsed=1 s')
      expect(count.missing('sglang', false)).toMatchObject({ joined: 1, expected })
    }
  })

  it("names no node where one log holds other nodes' ranks (Ray, MPI)", () => {
    const count = new RankCount(HOSTS, ['', ''], () => 0)
    for (const r of [0, 1, 2]) count.line(vllmRank(r, 4))
    expect(count.missing('vllm', false)).toEqual({ joined: 3, expected: 4, missingOn: [] })
  })

  it('takes the count from the start line flags where the log has not said it yet', () => {
    expect(ranksFromFlags(vllm.log.ranks!, 'vllm serve m --tensor-parallel-size 8 -pp 2')).toBe(16)
    expect(ranksFromFlags(sglang.log.ranks!, 'python -m sglang.launch_server --tp=16 --nnodes 2')).toBe(16)
    expect(ranksFromFlags(sglang.log.ranks!, 'python -m sglang.launch_server --model m')).toBeUndefined()
    const count = new RankCount(HOSTS, ['python -m sglang.launch_server --tp 4', 'x'], () => 0)
    count.line(sglangRank(0))
    expect(count.missing(undefined, false)).toEqual({
      joined: 1,
      expected: 4,
      missingOn: ['node 1 (root@a)', 'node 2 (root@b)']
    })
  })

  it("holds while the head's ready line has not come through its log copy; nothing once it has, with no rank line", () => {
    const count = new RankCount(HOSTS, ['vllm serve m', 'vllm serve m --headless'], () => 0)
    expect(count.missing('vllm', false)).toEqual({ joined: 0, missingOn: [] })
    expect(answerWords({ state: 'waiting', status: 200, ranks: count.missing('vllm', false) }).summary).toBe(
      "HTTP 200 — waiting for ranks: 0 joined, the count not read yet from the nodes' logs"
    )
    expect(count.missing('vllm', true)).toBeUndefined()
    // TensorRT-LLM prints no ready line of its own: nothing to wait for
    expect(count.missing('trtllm', false)).toBeUndefined()
    // a count from the flags, and not one rank line by the ready line: worded otherwise, nothing held
    const flagged = new RankCount(HOSTS, ['vllm serve m -tp 4', 'x'], () => 0)
    expect(flagged.missing('vllm', false)).toMatchObject({ joined: 0, expected: 4 })
    expect(flagged.missing('vllm', true)).toBeUndefined()
  })

  it('TensorRT-LLM: the mgmn leader and worker lines of each MPI rank', () => {
    const count = new RankCount(HOSTS, ['mpirun trtllm-llmapi-launch trtllm-serve m', 'x'], () => 0)
    count.line('\x1b[33mrank0 run mgmn leader node with mpi_world_size: 2 ...\x1b[0m')
    expect(count.missing('trtllm', false)).toMatchObject({ joined: 1, expected: 2 })
    count.line('[root@b] \x1b[33mrank1 run mgmn worker node with mpi_world_size: 2 ...\x1b[0m')
    expect(count.missing('trtllm', false)).toBeUndefined()
  })
})

/** NCCL 2.28.9's `Init COMPLETE`, as the real capture in __tests__/fixtures/nccl/ has it. */
const ncclComplete = (host: string, pid: number, dev: number, rank: number, nranks: number, prefix = ''): string =>
  `${prefix}${host}:${pid}:${pid} [${dev}] NCCL INFO ncclCommInitRankConfig comm 0x4619d750 rank ${rank} ` +
  `nranks ${nranks} cudaDev ${dev} nvmlDev ${dev} busId 60 commId 0x76ddc9b74124a3ae - Init COMPLETE`

describe('a count given (ranks)', () => {
  it("an engine whose rank lines are not known: NCCL's Init COMPLETE, one per GPU of each process", () => {
    let t = 500
    const count = new RankCount(['this machine'], ['text-generation-launcher --num-shard 4'], () => t, 4)
    count.line(ncclComplete('gpu1', 700, 0, 0, 4).replace('- Init COMPLETE', '- Init START'))
    count.line(ncclComplete('gpu1', 700, 0, 0, 4))
    // a split of the same process on the same GPU, and its end, are no other rank
    count.line(ncclComplete('gpu1', 700, 0, 0, 2).replace('commId', 'parent 0x1 splitCount 1 color 0 key 0 commId'))
    count.line('gpu1:700:700 [0] NCCL INFO comm 0x4619d750 rank 0 nranks 4 cudaDev 0 busId 60 - Destroy COMPLETE')
    // one process that drives two GPUs joins on each
    count.line(ncclComplete('gpu1', 701, 1, 1, 4))
    count.line(ncclComplete('gpu1', 701, 2, 2, 4))
    expect(count.missing(undefined, true)).toEqual({ joined: 3, expected: 4, missingOn: [], countedBy: 'nccl' })
    expect(answerWords({ state: 'waiting', status: 200, ranks: count.missing(undefined, true) }).summary).toBe(
      "HTTP 200 — waiting for ranks: 3 of 4 joined (NCCL's Init COMPLETE lines)"
    )
    t = 900
    count.line(ncclComplete('gpu1', 702, 3, 3, 4))
    expect(count.missing(undefined, true)).toBeUndefined()
    expect(count.joins(undefined)).toEqual([{ host: 'this machine', ranks: 4, joinedMs: 900 }])
    expect(count.countedBy(undefined)).toBe('nccl')
  })

  it("a hostile log's made-up rank names count nothing past a name's length, and hold memory to a bound", () => {
    const count = new RankCount(['this machine'], ['x'], () => 0, 2)
    count.line(ncclComplete('h'.repeat(200), 700, 0, 0, 2))
    count.line(vllmRank(1, 2).replace('rank 1 ', `rank ${'0'.repeat(149)}1 `))
    expect(count.joins(undefined)).toBeUndefined()
    count.line(ncclComplete('h'.repeat(64), 700, 0, 0, 2))
    expect(count.missing(undefined, true)).toMatchObject({ joined: 1, expected: 2 })
  })

  it('without a count, NCCL lines count nothing; with one and no line at all, the wait says what to set', () => {
    const none = new RankCount(['this machine'], ['x'], () => 0)
    none.line(ncclComplete('gpu1', 700, 0, 0, 4))
    expect(none.joins(undefined)).toBeUndefined()
    const silent = new RankCount(['this machine'], ['x'], () => 0, 2)
    expect(answerWords({ state: 'waiting', status: 200, ranks: silent.missing(undefined, true) }).summary).toBe(
      "HTTP 200 — waiting for ranks: 0 of 2 joined (NCCL's Init COMPLETE lines); not one rank line read: the " +
        "engine's own are not known, and NCCL prints its lines only with NCCL_DEBUG=INFO in the server's environment"
    )
  })

  it("across nodes: the same host:pid on two nodes is two ranks, each node's named while short", () => {
    const count = new RankCount(HOSTS, ['x', 'y'], () => 0, 4)
    count.line(ncclComplete('localhost', 57, 0, 0, 4))
    count.line(ncclComplete('localhost', 58, 1, 1, 4))
    count.line(ncclComplete('localhost', 57, 0, 2, 4, '[root@b] '))
    expect(count.missing(undefined, true)).toMatchObject({ joined: 3, missingOn: ['node 2 (root@b)'] })
    count.line(ncclComplete('localhost', 58, 1, 3, 4, '[root@b] '))
    expect(count.missing(undefined, true)).toBeUndefined()
  })

  it("the engine's own lines count where known, the count given over its flags; a log that says another is a conflict", () => {
    const count = new RankCount(HOSTS, ['vllm serve m -tp 2', 'vllm serve m --headless'], () => 0, 4)
    for (const r of [0, 1]) count.line(vllmRank(r, 4))
    expect(count.missing('vllm', true)).toMatchObject({ joined: 2, expected: 4, countedBy: 'engine' })
    for (const r of [2, 3]) count.line(vllmRank(r, 4, 'root@b'))
    expect(count.missing('vllm', true)).toBeUndefined()

    const wrong = new RankCount(HOSTS, ['vllm serve m', 'vllm serve m --headless'], () => 0, 16)
    for (const r of [0, 1, 2, 3]) wrong.line(vllmRank(r, 8))
    const missing = wrong.missing('vllm', true)
    expect(missing?.conflict).toEqual({ said: 8, line: vllmRank(0, 8).slice(0, 160) })
    expect(answerWords({ state: 'fatal', status: 200, ranks: missing }).detail).toBe(
      `the head is ready, but the server's log says 8 ranks ("${vllmRank(0, 8).slice(0, 160)}"), and "ranks" asks ` +
        'for 16: give "ranks" the server\'s own count, or start the server with 16 ranks'
    )
    // fewer asked than the log says is a conflict too: ready on 4 of 8 would be a false ready
    const fewer = new RankCount(HOSTS, ['x', 'y'], () => 0, 4)
    fewer.line("[2026-01-01 10:00:00] server_args=ServerArgs(model_path='/m', tp_size=8, pp_size=1, nnodes=2)")
    for (const r of [0, 1, 2, 3]) fewer.line(sglangRank(r))
    expect(fewer.missing('sglang', true)?.conflict?.said).toBe(8)
  })
})

/** The wait's settings for these tests, and a head that lists the model on every probe. */
const LOOP = {
  expect: { status: [[200, 299]], model: 'kimi' },
  intervalMs: 1_000,
  timeoutMs: 60_000,
  requestTimeoutMs: 5_000,
  progressIntervalMs: 30_000,
  wrongModelAfterMs: 0,
  probeGapMs: 1_000,
  generationFailedAfter: { ms: 60_000, attempts: 10 }
} satisfies Parameters<typeof waitForModel>[0]
const LISTED = {
  kind: 'http',
  status: 200,
  body: '{"data":[{"id":"kimi"}]}',
  json: { data: [{ id: 'kimi' }] },
  headers: {},
  latencyMs: 1
} as unknown as ProbeResult

describe('the wait across nodes', () => {
  it('holds a ready head until every rank joined, then is ready at the next probe', async () => {
    let joined = 2
    let t = 0
    const clock = {
      now: () => t,
      wallMs: () => t,
      sleep: async (ms: number) => void (t += ms)
    }
    const said: string[] = []
    const outcome = await waitForModel(LOOP, {
      probe: async () => LISTED,
      ranksMissing: () => {
        if (t >= 3_000) joined = 4
        return joined >= 4 ? undefined : { joined, expected: 4, missingOn: ['node 2 (root@b)'] }
      },
      clock,
      onEvent: (e) => said.push(answerWords(e.assessment.answer).summary)
    })
    expect(outcome.ready).toBe(true)
    expect(t).toBeGreaterThanOrEqual(3_000)
    expect(said[0]).toMatch(/waiting for ranks: 2 of 4 joined; missing on node 2 \(root@b\)$/)
  })

  it('ends at once, log-error, where the count given is not the one the log says', async () => {
    let t = 0
    const clock = { now: () => t, wallMs: () => t, sleep: async (ms: number) => void (t += ms) }
    const conflict = { said: 8, line: 'rank 0 in world size 8 is assigned as DP rank 0' }
    const outcome = await waitForModel(LOOP, {
      probe: async () => LISTED,
      ranksMissing: () => ({ joined: 4, expected: 16, missingOn: [], conflict }),
      clock
    })
    expect({ ready: outcome.ready, reason: outcome.reason, t }).toEqual({ ready: false, reason: 'log-error', t: 0 })
    expect(
      failureMessage(outcome, { url: new URL('http://h/v1/models'), expect: { status: [[200, 299]] }, timeoutMs: 1 })
    ).toMatch(/^Stopped after 0ms and 1 probe: the head is ready, but the server's log says 8 ranks \("rank 0 in/)
  })
})
