import { simulate } from '../../../src/simulator/server.js'
import { freePort } from '../../../src/simulator/server.js'
import { RankCount } from '../../../src/wait/ranks.js'

/** The simulator as one node of a server across several: its lines counted as the gate counts them. */
describe('the simulator across nodes', () => {
  it("SGLang: the head's server_args and ranks, a worker's ranks, then a dummy /health that answers 200 always", async () => {
    const port = await freePort()
    const lines: string[] = []
    const head = await simulate({
      engine: 'sglang',
      model: 'kimi',
      loadMs: 200,
      port: await freePort(),
      node: { count: 2, rank: 0, ranks: 4 },
      onLog: (l) => lines.push(l)
    })
    const worker = await simulate({
      engine: 'sglang',
      model: 'kimi',
      loadMs: 200,
      port,
      node: { count: 2, rank: 1, ranks: 4, joinsAfterMs: 50 },
      onLog: (l) => lines.push(`[root@b] ${l}`)
    })
    try {
      await new Promise((r) => setTimeout(r, 300))
      const count = new RankCount(['root@a', 'root@b'], ['', ''], () => 0)
      lines.forEach((l) => count.line(l))
      expect(count.joins('sglang')?.map((n) => n.ranks)).toEqual([2, 2])
      expect(count.missing('sglang', true)).toBeUndefined()
      const health = await fetch(`http://127.0.0.1:${port}/health_generate`)
      expect(health.status).toBe(200)
    } finally {
      await Promise.all([head.close(), worker.close()])
    }
  })

  it('vLLM: a headless worker says so and prints its ranks; TensorRT-LLM: an mgmn worker line per rank', async () => {
    for (const [engine, first, rank] of [
      ['vllm', /headless multiproc executor/, /rank 3 in world size 4 is assigned as/],
      ['trtllm', /mpi_rank: 1/, /rank1 run mgmn worker node with mpi_world_size: 2/]
    ] as const) {
      const lines: string[] = []
      const worker = await simulate({
        engine,
        model: 'kimi',
        loadMs: 100,
        node: { count: 2, rank: 1, ranks: engine === 'vllm' ? 4 : 2, joinsAfterMs: 10 },
        onLog: (l) => lines.push(l)
      })
      await new Promise((r) => setTimeout(r, 100))
      await worker.close()
      expect(lines[0]).toMatch(first)
      expect(lines.join('\n')).toMatch(rank)
    }
  })

  it("LMDeploy (no rank lines of its own): each rank prints NCCL's Init COMPLETE line, only with NCCL_DEBUG=INFO", async () => {
    const nodeLines = async (ncclInfo: boolean): Promise<string[]> => {
      const lines: string[] = []
      const head = await simulate({
        engine: 'lmdeploy',
        model: 'kimi',
        loadMs: 200,
        port: await freePort(),
        node: { count: 2, rank: 0, ranks: 4, ncclInfo },
        onLog: (l) => lines.push(l)
      })
      const worker = await simulate({
        engine: 'lmdeploy',
        model: 'kimi',
        loadMs: 200,
        node: { count: 2, rank: 1, ranks: 4, joinsAfterMs: 50, ncclInfo },
        onLog: (l) => lines.push(`[root@b] ${l}`)
      })
      await new Promise((r) => setTimeout(r, 300))
      await Promise.all([head.close(), worker.close()])
      return lines
    }
    const lines = await nodeLines(true)
    const nccl = lines.filter((l) => l.includes('NCCL INFO'))
    // the real NCCL 2.28.9 line's shape (__tests__/fixtures/nccl/), each rank its own process, devices from 0 on each node
    const shape =
      /^(\[root@b\] )?[^\s:.]+:(\d+):\2 \[(\d)\] NCCL INFO ncclCommInitRankConfig comm 0x[0-9a-f]+ rank (\d) nranks 4 cudaDev \3 nvmlDev \3 busId [0-9a-f]+ commId 0x76ddc9b74124a3ae - Init COMPLETE$/
    expect(nccl.map((l) => shape.exec(l)?.slice(3, 5))).toEqual([
      ['0', '0'],
      ['1', '1'],
      ['0', '2'],
      ['1', '3']
    ])
    // one process here plays both nodes: a node's ranks are told apart by their pids
    expect(new Set(nccl.slice(0, 2).map((l) => shape.exec(l)?.[2])).size).toBe(2)
    const count = new RankCount(['root@a', 'root@b'], ['', ''], () => 0, 4)
    lines.forEach((l) => count.line(l))
    expect(count.joins(undefined)?.map((n) => n.ranks)).toEqual([2, 2])
    expect(count.countedBy(undefined)).toBe('nccl')
    expect(count.missing(undefined, true)).toBeUndefined()
    expect((await nodeLines(false)).filter((l) => l.includes('NCCL'))).toEqual([])
  })
})
