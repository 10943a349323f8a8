/** What the simulator is asked to do (the engine, the model, its load and faults) and what it gives back. */
import type { EngineName } from './engines.js'
import type { Pace } from './streams.js'

/** This process's part of a server across `count` nodes of `ranks` ranks in all (an even share on each). */
export interface NodePart {
  count: number
  /** 0: the head, which serves the API. */
  rank: number
  ranks: number
  /** When this node's ranks join; default: a twentieth of the load. */
  joinsAfterMs?: number
  /** NCCL_DEBUG=INFO in its environment: an engine without rank lines of its own shows NCCL's, as NCCL prints them. */
  ncclInfo?: boolean
}

export interface SimulatorOptions {
  engine: EngineName
  model: string
  loadMs: number
  /** Overrides the engine's own `opensAt` (the benchmark sets the refused phase exactly). */
  opensAfterMs?: number
  /** Loading answers before ready, as well as `loadMs`: a test bounds them by requests, which a busy machine keeps. */
  loadingAnswers?: number
  /** 0 picks a free port. */
  port?: number
  host?: string
  /** The port closes and stays closed, as when the process exits. */
  crashAfterMs?: number
  /** Every generation gets the engine's own error while the model list answers as usual. */
  generationFails?: boolean
  /** llama.cpp's router mode and Ollama: listed but not loaded until asked; the load takes `loadMs` from then. */
  unloaded?: boolean
  /** vLLM in dev mode: asleep until then or `POST /wake_up`, while its list and /health answer as when awake. */
  sleepsUntilMs?: number
  /** vLLM: its engine core dies this long after the start: /health 503, generations 500 EngineDeadError. */
  diesAfterMs?: number
  /**
   * The share of the model in GPU memory once loaded (0 to 1): Ollama's `/api/ps` `size_vram` of its `size`,
   * llama.cpp's `offloaded N/M layers to GPU` line. Undefined: neither says.
   */
  onGpu?: number
  /**
   * Triton (--exit-on-error=false): the model failed to load, with this reason in the repository index. llama.cpp's
   * router (`unloaded`): the load asked fails, its instance exiting with status 1.
   */
  failsToLoad?: string
  /** One node of a server across several: the head (rank 0) serves, the others are its workers (see nodes.ts). */
  node?: NodePart
  /** Each line of the engine's own start-up log (SIMULATED_LOGS), its fatal lines as it dies included. */
  onLog?(line: string): void
  onEvent?(event: SimulatorEvent, atMs: number): void
  /** Of streamed generations (the smoke test's requests). */
  pace?: Pace
}

export type SimulatorEvent = 'listening' | 'ready' | 'crashed'

export interface SimulatedServer {
  port: number
  baseUrl: string
  /** Milliseconds since the epoch. */
  readyAt: number
  /** Rejects if the port cannot be opened. */
  ended: Promise<'crashed'>
  readonly requests: number
  close(): Promise<void>
}
