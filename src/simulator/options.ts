/** What the simulator is asked to do (the engine, the model, its load and faults) and what it gives back. */
import type { EngineName } from './engines.js'
import type { Pace } from './streams.js'

export interface SimulatorOptions {
  engine: EngineName
  model: string
  loadMs: number
  /** When the port opens, overriding the engine's own `opensAt` (the benchmark sets the refused phase exactly). */
  opensAfterMs?: number
  /** 0 picks a free port. */
  port?: number
  host?: string
  /** The engine dies this long after the start: the port closes and stays closed, as when the process exits. */
  crashAfterMs?: number
  /** Every generation request gets the engine's own error while the model list answers as usual. */
  generationFails?: boolean
  /**
   * llama.cpp's router mode and Ollama: the model is listed but not loaded until asked (`POST /models/load`;
   * Ollama's `POST /api/generate` without a prompt, which answers once it is loaded); the load takes `loadMs` from
   * that request. llama.cpp lists it with `status.value` unloaded → loading → loaded; Ollama's `/api/ps` lists it
   * only once loaded.
   */
  unloaded?: boolean
  /**
   * vLLM in dev mode (`VLLM_SERVER_DEV_MODE=1`, its sleep routes served): asleep until this long after the start,
   * or until `POST /wake_up`: its list and /health answer as when awake, `/is_sleeping` says true.
   */
  sleepsUntilMs?: number
  /** vLLM: its engine core dies this long after the start: /health 503, generations 500 EngineDeadError. */
  diesAfterMs?: number
  /** Triton (--exit-on-error=false): the model failed to load, with this reason in the repository index. */
  failsToLoad?: string
  /** Told when the port opens, when the model becomes ready, and when the engine crashes. */
  onEvent?(event: SimulatorEvent, atMs: number): void
  /** The pace of streamed generations (the smoke test's requests). */
  pace?: Pace
}

export type SimulatorEvent = 'listening' | 'ready' | 'crashed'

export interface SimulatedServer {
  port: number
  baseUrl: string
  /** Milliseconds since the epoch at which the engine counts as ready. */
  readyAt: number
  /** Settles when the simulated engine crashes (never without `crashAfterMs`); rejects if the port cannot be opened. */
  ended: Promise<'crashed'>
  /** HTTP requests received so far. */
  readonly requests: number
  close(): Promise<void>
}
