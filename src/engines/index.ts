/** The engines the gate knows, one record each, and the order a log's lines are tried against them. */
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

/** In the order the `engine` input lists them. */
const RECORDS = [vllm, sglang, tgi, ollama, llamacpp, triton, nim, localai, kserve] as const

export type Engine = (typeof RECORDS)[number]['name']

export const ENGINE_RECORDS: readonly EngineRecord<Engine>[] = RECORDS

export const ENGINE_NAMES: readonly Engine[] = RECORDS.map((r) => r.name)

export const ENGINES = Object.fromEntries(RECORDS.map((r) => [r.name, r])) as Record<Engine, EngineRecord<Engine>>

/** Ollama before llama.cpp: Ollama 0.30+ passes llama.cpp's own lines through after its own. */
export const LOG_DETECTION_ORDER: readonly Engine[] = ['vllm', 'sglang', 'tgi', 'ollama', 'llamacpp', 'triton']

export const engineInputName = (engine: Engine): string => ENGINES[engine].inputName ?? engine
