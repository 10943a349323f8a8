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
import { dynamo } from './dynamo.js'
import { trtllm } from './trtllm.js'
import { lmdeploy } from './lmdeploy.js'
import { mistralrs } from './mistralrs.js'
import { xinference } from './xinference.js'
import { ovms } from './ovms.js'
import { rayServe } from './ray-serve.js'
import { productionStack } from './production-stack.js'
import { aphrodite } from './aphrodite.js'
import { ktransformers } from './ktransformers.js'

/** In the order the `engine` input lists them. */
const RECORDS = [
  vllm,
  sglang,
  tgi,
  ollama,
  llamacpp,
  triton,
  nim,
  localai,
  kserve,
  dynamo,
  trtllm,
  lmdeploy,
  mistralrs,
  xinference,
  ovms,
  rayServe,
  productionStack,
  aphrodite,
  ktransformers
] as const

export type Engine = (typeof RECORDS)[number]['name']

export const ENGINE_RECORDS: readonly EngineRecord<Engine>[] = RECORDS

export const ENGINE_NAMES: readonly Engine[] = RECORDS.map((r) => r.name)

export const ENGINES = Object.fromEntries(RECORDS.map((r) => [r.name, r])) as Record<Engine, EngineRecord<Engine>>

/** Ollama before llama.cpp: Ollama 0.30+ passes llama.cpp's own lines through after its own. */
export const LOG_DETECTION_ORDER: readonly Engine[] = [
  'vllm',
  'sglang',
  'tgi',
  'ollama',
  'llamacpp',
  'triton',
  'dynamo',
  'lmdeploy',
  'mistralrs',
  'xinference',
  'ovms',
  'aphrodite',
  'production-stack',
  'ktransformers'
]

export const engineInputName = (engine: Engine): string => ENGINES[engine].inputName ?? engine
