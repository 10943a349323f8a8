/**
 * What we know of one engine, as one record (the shape every file beside this one fills in), and the pieces that
 * several engines' records share: PyTorch's fatal lines, tqdm's progress bars, the pattern no line matches.
 */

/** One record per engine: `src/engines/<engine>.ts`, listed in index.ts. */
export interface EngineRecord<Name extends string = string> {
  /** The `engine` input's name. */
  name: Name
  /** How people write it, in messages and in the docs. */
  label: string
  /** How the `engine` input and the CLI's help spell it, where not `name` (`llama.cpp`). */
  inputName?: string
  /** What it prints while it starts. */
  log: EngineLogLines
  /** The `owned_by` of its `/v1/models` entries, when it names the engine. */
  ownedBy?: string
  /** The shapes its model lists come in (model-lists.ts reads each shape, whatever the engine). */
  modelLists: readonly ModelListShapeName[]
  /** Its own readiness routes, asked in order once the model is listed; `[]`: its model list tells readiness itself. */
  readiness: readonly ReadinessCheck[]
  /** The answer that says a model failed to load (`reason=load-failed`). */
  loadFailure?: LoadFailureCheck
  /** Its generation answers' words once its engine died (`reason=engine-dead`). */
  deadAnswer?: RegExp
  /** It serves the models it was started with and no other: a list without the expected model will not change. */
  servesOneModel: boolean
  /** The one-token generation requests it answers (model-lists.ts picks one by the `url`'s path); `[]`: no text. */
  generation: readonly GenerationRouteName[]
  /** Its streamed generation for the smoke test, without a model-list URL that tells it; undefined: no text. */
  stream?: StreamName
  /** How it is asked to load a model on demand (`load: true`). */
  load?: LoadOnDemand
  /** Where each fact comes from: repository@version:path (or the docs' page), the recorded start-ups. */
  sources: readonly string[]
}

export interface EngineLogLines {
  /** Lines only this engine prints; the first such line names the engine when `engine` is `auto`. */
  signature: RegExp
  /**
   * The time stamp in a line, with named groups: Y M D h m s, f (fraction digits) or ms (and us). Absent parts count as
   * zero (vLLM and Triton print no year); only differences between stamps are used, so the time zone does not matter.
   */
  stamp?: RegExp
  /** The line that says the server is up and ready; it ends the last phase. */
  ready: RegExp
  /** Its startup phases, in the order the engine goes through them. */
  phases: readonly Phase[]
  fatal: readonly FatalLine[]
}

export interface FatalLine {
  pattern: RegExp
  /** A cause (out of memory, an NCCL error) is quoted in preference to a mere "failed to start". */
  cause: boolean
}

/** One startup phase of one engine. */
export interface Phase {
  phase: string
  /** A line that starts the phase. */
  start?: RegExp
  /** A progress line (named groups n and total; optionally tqdm's elapsed time): it starts the phase too. */
  progress?: RegExp
  /** What `progress` counts. */
  unit?: string
  /** A line that says the phase is over (otherwise it lasts until the next phase starts). */
  end?: RegExp
  /** The engine's own duration of the phase (named group took, in seconds unless group unit says otherwise). */
  took?: RegExp
}

/** What a ready answer of a readiness route is. */
export interface ReadyAnswer {
  /** Statuses that say ready (the body may still say otherwise, see `notReadyWhen`). */
  statuses: readonly number[]
  /** A JSON body with this field at this value says "not ready", whatever the status. */
  notReadyWhen?: { field: string; value: boolean }
}

export interface ReadinessCheck {
  /**
   * The route, after the server's base (the model-list URL without its path). `{model}` stands for the model's
   * name (the listed id the wait matched, else `model`), URL-encoded; `withoutModel` is asked when no name is known.
   */
  path: string
  withoutModel?: string
  method: 'GET' | 'POST'
  ready: ReadyAnswer
  /** At least this long between two of these requests to one server (the request itself is costly). */
  minGapMs: number
  /** At most one of these requests in flight to one server at a time. */
  oneAtATime: boolean
  /** Statuses that, after this route said ready, say the engine died (`reason=engine-dead`). */
  deadAfterReady?: readonly number[]
  /** With `load: true`, a not-ready answer is woken once by this request (`POST`). */
  wake?: string
  /** Why it is needed, for the docs and the debug log. */
  because: string
}

/** An answer that says a model failed to load: it will not heal by itself (`reason=load-failed`). */
interface LoadFailureCheck {
  path: string
  method: 'POST'
  minGapMs: number
  because: string
}

/** A load request: the path after the server's base, sent (`POST`) when the list shows the model waiting for one. */
interface LoadOnDemand {
  /**
   * `unloaded`: the model is listed but not loaded (asked by its listed id); `absent`: the list at `listPath` (the
   * models in memory) does not have it yet.
   */
  when: 'unloaded' | 'absent'
  listPath?: string
  path: string
  body(model: string): Record<string, unknown>
}

export type ModelListShapeName = 'openai' | 'ollama' | 'torchserve' | 'kserve-v1-list' | 'tgi-info' | 'model-status'
export type GenerationRouteName = 'openai' | 'ollama' | 'tgi'
export type StreamName = 'openai' | 'llamacpp' | 'tgi' | 'ollama'

/** A pattern no line matches: an engine whose log lines are not known (no recorded start-up of it was read). */
export const NO_LINE = /(?!)/

export const cause = (pattern: RegExp): FatalLine => ({ pattern, cause: true })
export const failure = (pattern: RegExp): FatalLine => ({ pattern, cause: false })

/** PyTorch's allocator and NCCL (through torch or the engines' own pynccl wrappers) word these alike everywhere. */
export const TORCH_FATAL: readonly FatalLine[] = [
  cause(/CUDA out of memory/),
  // Not the traceback's source line `raise RuntimeError(f"NCCL error: {error_str}")`.
  cause(/NCCL error(?:: | in: )(?!\{)/),
  cause(/DistBackendError/)
]

// tqdm: "Loading safetensors checkpoint shards:  45% Completed | 29/64 [01:02<01:10,  2.15s/it]" and the default
// bar "Capturing CUDA graphs (decode, FULL):  45%|████▌     | 23/51 [00:05<00:06,  4.12it/s]".
const TQDM_COUNT = String.raw`\s*\d+%(?: Completed)? ?\|[^|]*?\|?\s*(?<n>\d+)/(?<total>\d+)(?: \[(?<elapsed>\d+(?::\d\d)+)<)?`
export const tqdm = (desc: string): RegExp => new RegExp(`${desc}:${TQDM_COUNT}`)

/** A readiness route: by default asked with GET as often as the wait probes, and ready at 200. */
export const readinessRoute = (
  check: Pick<ReadinessCheck, 'path' | 'because'> & Partial<ReadinessCheck>
): ReadinessCheck => ({
  method: 'GET',
  ready: { statuses: [200] },
  minGapMs: 0,
  oneAtATime: false,
  ...check
})

/**
 * The log of an engine no recorded start-up of which has been read: it names nothing and says nothing of readiness
 * (its readiness routes do). Such engines run PyTorch underneath (NIM runs vLLM or SGLang): its fatal lines are theirs.
 */
export const UNKNOWN_LOG: EngineLogLines = { signature: NO_LINE, ready: NO_LINE, phases: [], fatal: TORCH_FATAL }
