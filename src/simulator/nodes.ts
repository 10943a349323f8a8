/**
 * One server across several nodes, as each engine runs one: the head's extra lines (its ranks, the rank count) and
 * the workers (the other node ranks), which serve no API: SGLang's answer 200 always on a dummy health server,
 * vLLM's headless ones outlive their head, TensorRT-LLM's are MPI ranks that print one line each; any other engine's
 * ranks print only NCCL's own line, with NCCL_DEBUG=INFO.
 */
import { createServer, type Server } from 'node:http'
import { hostname } from 'node:os'
import type { EngineName } from './engines.js'
import type { NodePart, SimulatedServer, SimulatorOptions } from './options.js'
import { logLine, SIMULATED_LOGS, type SimulatedLog } from './engine-logs.js'

/** The node's own ranks: its even share of them, numbered on from the nodes before it. */
const ownRanks = (part: NodePart): number[] => {
  const share = Math.max(1, Math.floor(part.ranks / part.count))
  return Array.from({ length: share }, (_, i) => part.rank * share + i)
}

/** The PCI bus of each GPU of an eight-GPU H100 node, as NCCL prints it. */
const BUS_IDS = ['18000', '2a000', '3a000', '5d000', '9a000', 'ab000', 'ba000', 'db000']

/**
 * NCCL 2.28.9's line as a rank's communicator completes (src/init.cc; the capture in __tests__/fixtures/nccl/): each
 * rank a process of its own beside the launcher, on the node's GPU `device`, under the host name cut at its first dot.
 */
function ncclComplete(rank: number, device: number, nranks: number): string {
  const pid = process.pid + 1 + device
  const comm = (0x4619d750 + device * 0x10000).toString(16)
  return (
    `${hostname().split('.')[0]}:${pid}:${pid} [${device}] NCCL INFO ncclCommInitRankConfig comm 0x${comm} ` +
    `rank ${rank} nranks ${nranks} cudaDev ${device} nvmlDev ${device} busId ${BUS_IDS[device % BUS_IDS.length]} ` +
    'commId 0x76ddc9b74124a3ae - Init COMPLETE'
  )
}

/** The lines each rank prints as it joins, as the engine words them; NCCL's where the engine has none. */
function rankLines(engine: EngineName, part: NodePart): string[] {
  const ranks = ownRanks(part)
  switch (engine) {
    case 'sglang':
    case 'ktransformers':
      return ranks.map((r) => `[{T} TP${r}] Init torch distributed ends. elapsed=3.87 s, mem usage=0.98 GB`)
    case 'vllm':
      return ranks.map(
        (r) =>
          `(Worker_TP${r} pid=${4000 + r}) INFO {T} [parallel_state.py:1400] rank ${r} in world size ${part.ranks} ` +
          `is assigned as DP rank 0, PP rank 0, PCP rank 0, TP rank ${r}, EP rank 0, EPLB rank 0`
      )
    case 'trtllm':
      return ranks.map(
        (r) => `rank${r} run mgmn ${r === 0 ? 'leader' : 'worker'} node with mpi_world_size: ${part.ranks} ...`
      )
    default:
      return part.ncclInfo === true ? ranks.map((r, device) => ncclComplete(r, device, part.ranks)) : []
  }
}

/** The head's start-up log: the engine's own, its rank count said where the engine says it, its ranks' lines. */
export function headLog(engine: EngineName, part: NodePart): SimulatedLog {
  const log = SIMULATED_LOGS[engine]
  const joinShare = 0.04
  const lines = log.lines.map(([share, text]): readonly [number, string] =>
    /server_args=ServerArgs\(/.test(text)
      ? [share, text.replace(/\)$/, `, tp_size=${part.ranks}, nnodes=${part.count}, node_rank=0)`)]
      : [share, text]
  )
  const joined = rankLines(engine, part).map((text): readonly [number, string] => [joinShare, text])
  return { ...log, lines: [...lines, ...joined].sort((a, b) => a[0] - b[0]) }
}

/**
 * A worker node: its first lines, its ranks' lines when they join, then (SGLang) a health server that answers 200
 * whatever the head does; it never exits by itself (vLLM's headless workers outlive their head), only at
 * `crashAfterMs`, with the engine's fatal lines.
 */
export async function simulateWorker(options: SimulatorOptions, part: NodePart): Promise<SimulatedServer> {
  const { engine } = options
  const log = SIMULATED_LOGS[engine]
  const host = options.host ?? '127.0.0.1'
  const startedAt = Date.now()
  const timers: NodeJS.Timeout[] = []
  let dummy: Server | undefined
  const print = (text: string): void => {
    const at = new Date()
    options.onLog?.(
      logLine(log, text, { model: options.model, at, sinceMs: at.getTime() - startedAt, loadMs: options.loadMs })
    )
  }
  const first: Partial<Record<EngineName, string>> = {
    sglang: `[{T}] server_args=ServerArgs(model_path='{M}', tp_size=${part.ranks}, nnodes=${part.count}, node_rank=${part.rank})`,
    vllm: `INFO {T} [serve.py:120] Launching vLLM (v0.26.0) headless multiproc executor, with head node address 10.0.0.1 for torch.distributed process group.`,
    trtllm: 'mpi_rank: ' + String(ownRanks(part)[0])
  }
  const opening = first[engine]
  if (opening !== undefined) print(opening)
  const joinsAfterMs = part.joinsAfterMs ?? options.loadMs / 20
  // it lives until stopped, whatever its head does
  timers.push(setInterval(() => undefined, 60_000))
  timers.push(
    setTimeout(() => {
      rankLines(engine, part).forEach(print)
      if (engine !== 'sglang' && engine !== 'ktransformers') return
      // engine.py: node_rank >= 1 runs a health server that answers 200 always, on the head's host:port
      print(`[{T}] Starting dummy health check server at ${host}:${options.port ?? 0}`)
      dummy = createServer((_req, res) => res.end()).listen(options.port ?? 0, host)
    }, joinsAfterMs)
  )
  let stop = (): void => undefined
  const ended = new Promise<'crashed'>((resolve) => {
    stop = () => {
      timers.forEach(clearTimeout)
      dummy?.closeAllConnections()
      dummy?.close()
    }
    if (options.crashAfterMs !== undefined)
      timers.push(
        setTimeout(() => {
          log.fatal.forEach(print)
          stop()
          resolve('crashed')
        }, options.crashAfterMs)
      )
  })
  return {
    port: options.port ?? 0,
    baseUrl: `http://${host}:${options.port ?? 0}`,
    readyAt: startedAt + joinsAfterMs,
    ended,
    requests: 0,
    close: async () => stop()
  }
}
