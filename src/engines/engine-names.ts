/**
 * The engines the gate knows: the master list, the names the `engine` input accepts, in the order every engine
 * table follows. Apart from the tables themselves (log-markers.ts, readiness.ts, streams.ts), so that reading the
 * inputs does not load those tables before the first probe. Adding an engine starts here: see README.md beside
 * this file.
 */
export const ENGINE_NAMES = [
  'vllm',
  'sglang',
  'tgi',
  'ollama',
  'llamacpp',
  'triton',
  'nim',
  'localai',
  'kserve'
] as const

export type Engine = (typeof ENGINE_NAMES)[number]

/** How people write each engine's name, in messages and in the docs. */
export const ENGINE_LABELS: Readonly<Record<Engine, string>> = {
  vllm: 'vLLM',
  sglang: 'SGLang',
  tgi: 'TGI',
  ollama: 'Ollama',
  llamacpp: 'llama.cpp',
  triton: 'Triton',
  nim: 'NVIDIA NIM',
  localai: 'LocalAI',
  kserve: 'KServe'
}

/** The name the `engine` input and the CLI's help give an engine (`llama.cpp` for `llamacpp`). */
export const engineInputName = (engine: Engine): string => (engine === 'llamacpp' ? 'llama.cpp' : engine)
