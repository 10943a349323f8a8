/**
 * The engines the gate knows: one record each (the file of its name beside this one), in the order the `engine`
 * input lists them, and the order a log's lines are tried against them.
 */
import type { EngineRecord } from './engine-record.js'
import { kserve } from './kserve.js'
import { llamacpp } from './llamacpp.js'
import { localai } from './localai.js'
import { nim } from './nim.js'
import { ollama } from './ollama.js'
import { sglang } from './sglang.js'
import { tgi } from './tgi.js'
import { triton } from './triton.js'
import { vllm } from './vllm.js'

/** One line per engine: its record's file above, its record here (the `engine` input lists them in this order). */
const RECORDS = [vllm, sglang, tgi, ollama, llamacpp, triton, nim, localai, kserve] as const

export type Engine = (typeof RECORDS)[number]['name']

export const ENGINE_RECORDS: readonly EngineRecord<Engine>[] = RECORDS

/** The names the `engine` input accepts. */
export const ENGINE_NAMES: readonly Engine[] = RECORDS.map((r) => r.name)

/** Each engine's record, by its name. */
export const ENGINES = Object.fromEntries(RECORDS.map((r) => [r.name, r])) as Record<Engine, EngineRecord<Engine>>

/**
 * The engines whose log lines are known, in the order a line is tried against their signatures: Ollama before
 * llama.cpp, since Ollama 0.30+ passes llama.cpp's own lines through after its own.
 */
export const LOG_DETECTION_ORDER: readonly Engine[] = ['vllm', 'sglang', 'tgi', 'ollama', 'llamacpp', 'triton']

/** The name the `engine` input and the CLI's help give an engine (`llama.cpp` for `llamacpp`). */
export const engineInputName = (engine: Engine): string => ENGINES[engine].inputName ?? engine
