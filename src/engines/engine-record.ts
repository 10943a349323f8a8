/** What we know of one engine, as one record (each file beside this one fills one in), and the pieces records share. */

export interface EngineRecord<Name extends string = string> {
  name: Name
  /** How people write it, in messages and in the docs. */
  label: string
  /** How the `engine` input spells it, where not `name` (`llama.cpp`). */
  inputName?: string
  log: EngineLogLines
  /** The `owned_by` of its `/v1/models` entries, when it names the engine. */
  ownedBy?: string
  /** Words only its answers hold (a proxy's own refusals): the first answer holding them names the engine. */
  answerSignature?: RegExp
  /** A response header only its answers carry (lowercase): the first answer holding it names the engine. */
  answerHeader?: string
  /** Its answers say this other engine (a router listing its backends' models as theirs), unless `ownRoute` tells. */
  listsAs?: string
  /** A route only it answers so: asked once an answer names `listsAs`, its answer tells this engine from that one. */
  ownRoute?: { path: string; answers(json: unknown): boolean }
  modelLists: readonly ModelListShapeName[]
  /** Its own readiness routes, asked in order once the model is listed; `[]`: its model list tells readiness itself. */
  readiness: readonly ReadinessCheck[]
  /** The answer that says a model failed to load (`reason=load-failed`). */
  loadFailure?: LoadFailureCheck
  /** Its generation answers' words once its engine died (`reason=engine-dead`). */
  deadAnswer?: RegExp
  /** It serves the models it was started with and no other: a list without the expected model will not change. */
  servesOneModel: boolean
  /** `[]`: it generates no text. */
  generation: readonly GenerationRouteName[]
  /** For the smoke test when the `url` does not tell; undefined: no text. */
  stream?: StreamName
  load?: LoadOnDemand
  /**
   * It may keep some layers on the CPU by itself (llama.cpp's `-ngl auto` fits what free memory holds): GPU memory
   * its processes hold shows some of the model there, never that all of it is.
   */
  splitsLayers?: boolean
  /** Only a real generation proves it ready (a router whose list and health are its own): it is always asked for one. */
  readyNeedsGeneration?: boolean
  /** Where each fact comes from: repository@version:path (or the docs' page), the recorded start-ups. */
  sources: readonly string[]
  /** Texts of its source the record relies on (log lines, routes), each in a file of its repository: `engines:check`. */
  cites?: readonly Cite[]
}

/** A text as the engine's source spells it (a format string, a route), and the file of its repository that holds it. */
export interface Cite {
  path: string
  text: string
}

export interface EngineLogLines {
  /** Lines only this engine prints; the first such line names the engine when `engine` is `auto`. */
  signature: RegExp
  /** Named groups Y M D h m s, f (fraction digits) or ms (and us); absent parts are zero: only differences are used. */
  stamp?: RegExp
  /** It ends the last phase. */
  ready: RegExp
  /** In the order the engine goes through them. */
  phases: readonly Phase[]
  fatal: readonly FatalLine[]
  /** Across several nodes: the lines each rank prints as it joins the server, and how many ranks there are. */
  ranks?: RankLines
}

/**
 * A rank's join, as the engine prints it on whichever node it runs; the count expected comes from the log where it
 * says (`world`, or the `factors` multiplied), else from the start line's flags (`flags`, their values multiplied).
 */
export interface RankLines {
  /** One line per rank: named group `rank` (its number or its tag, one per rank), `world` where it tells how many. */
  joined: RegExp
  /** Lines that each give a factor of the rank count (named group `n`), multiplied: SGLang's tp_size × pp_size. */
  factors?: readonly RegExp[]
  /** The start line's flags giving the factors (each flag's spellings), multiplied; a factor not given counts 1. */
  flags?: readonly (readonly string[])[]
  /**
   * The parts of a rank's tag (`PP1 TP5`) bounded by the factor at the same place (else the flag there), once known: a
   * part whose index is at or beyond it is none of this server's, and counts no rank.
   */
  taggedFactors?: readonly string[]
  /** Its health can say ready while a worker node is dead or stuck: across nodes, one generation proves it first. */
  healthMissesWorkers?: boolean
}

export interface FatalLine {
  pattern: RegExp
  /** A cause (out of memory, an NCCL error) is quoted in preference to a mere "failed to start". */
  cause: boolean
}

export interface Phase {
  phase: string
  start?: RegExp
  /** A progress line (named groups n and total; optionally tqdm's elapsed time): it starts the phase too. */
  progress?: RegExp
  unit?: string
  /** Otherwise the phase lasts until the next one starts. */
  end?: RegExp
  /** The engine's own duration of the phase (named group took, in seconds unless group unit says otherwise). */
  took?: RegExp
}

export interface ReadyAnswer {
  statuses: readonly number[]
  /** A JSON body with this field at this value says "not ready", whatever the status. */
  notReadyWhen?: { field: string; value: boolean }
  /** A JSON body with this field says ready only at one of these values; a body without it: the status decides. */
  readyOnlyAt?: { field: string; values: readonly (string | boolean)[] }
  /** A JSON list of entries: ready only when the entry whose `key` is the model has `field` at `value`. */
  entryReady?: { key: string; field: string; value: string }
}

export interface ReadinessCheck {
  /** After the server's base; `{model}`: the matched id (else `model`), URL-encoded; `withoutModel` without one. */
  path: string
  withoutModel?: string
  method: 'GET' | 'POST'
  ready: ReadyAnswer
  /**
   * Up to this long between two of these requests to one server when an answer was costly (it generated); a quick
   * answer (a warm-up's 503) is asked again at the cheap pace. 0: a flag, asked with every probe.
   */
  minGapMs: number
  oneAtATime: boolean
  /** Statuses that, after this route said ready, say the engine died (`reason=engine-dead`). */
  deadAfterReady?: readonly number[]
  /** With `load: true`, a not-ready answer is woken once by this request (`POST`). */
  wake?: string
  /** Why it is needed, for the docs and the debug log. */
  because: string
  /** Asked at `path` instead where the server's environment (its `start` line, the step's) sets `variable` so. */
  instead?: { variable: string; when: RegExp; path: string }
}

/** A failed load will not heal by itself. */
interface LoadFailureCheck {
  path: string
  method: 'POST'
  minGapMs: number
  because: string
}

/** `POST path` when the list shows the model waiting for it: listed but `unloaded`, or `absent` from `listPath`. */
interface LoadOnDemand {
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

/** An engine whose log is not known: it names nothing; such engines run PyTorch (NIM runs vLLM or SGLang). */
export const UNKNOWN_LOG: EngineLogLines = { signature: NO_LINE, ready: NO_LINE, phases: [], fatal: TORCH_FATAL }
