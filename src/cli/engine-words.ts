/** The engines' names as the CLI's words list them, taken from the tables that hold them (none is typed here). */
import { ENGINE_NAMES, type Engine } from '../engines/index.js'
import { type EngineName, SIMULATED_ENGINES } from '../simulator/engines.js'

/** As people spell it: the tables' `llamacpp` is llama.cpp (which the inputs and the simulator accept too). */
const spelled = (engine: string): string => (engine === 'llamacpp' ? 'llama.cpp' : engine)

/** The simulator's engines, in its table's order: "vllm, sglang, llama.cpp, …". */
export const SIMULATED_ENGINE_WORDS = (Object.keys(SIMULATED_ENGINES) as EngineName[]).map(spelled).join(', ')

/**
 * The `engine` input's names (src/engines/index.ts) as `--help` lists them: "vllm, sglang, tgi, llama.cpp,
 * ollama or triton". The table's order, but for Ollama, which the table puts before llama.cpp only so that its
 * log (which passes llama.cpp's lines through) is recognised first: the help lists them as the README and
 * action.yml do, llama.cpp first.
 */
export const LOG_ENGINE_WORDS = listed(helpOrder(ENGINE_NAMES).map(spelled))

/** "a, b or c". */
function listed(words: string[]): string {
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`
}

/** Ollama after llama.cpp, the others in the table's order. */

function helpOrder(names: readonly Engine[]): Engine[] {
  const llamacpp = names.indexOf('llamacpp')
  const ollama = names.indexOf('ollama')
  if (llamacpp < 0 || ollama < 0 || ollama > llamacpp) return [...names]
  const rest: Engine[] = names.filter((name) => name !== 'ollama')
  rest.splice(rest.indexOf('llamacpp') + 1, 0, 'ollama')
  return rest
}
