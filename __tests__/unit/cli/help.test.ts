import { ENGINE_NAMES } from '../../../src/engines/index.js'
import { SIMULATED_ENGINES } from '../../../src/simulator/engines.js'
import { checkHelpText, simulateHelpText, waitHelpText } from '../../../src/cli/help.js'

/** The engines the help names come from the tables that hold them (src/engines/, src/simulator/), not typed again. */
const spelled = (engine: string): string => (engine === 'llamacpp' ? 'llama.cpp' : engine)
const row = (help: string, flag: string): string => help.split('\n').find((l) => l.startsWith(`  ${flag} `)) ?? ''

it.each([
  ['wait', waitHelpText()],
  ['check', checkHelpText()]
])('the %s help lists every engine the engine input accepts, llama.cpp before Ollama as the README does', (_, help) => {
  const listed = /: (auto, .*) \(default: auto\)$/.exec(row(help, '--engine NAME'))?.[1]
  expect(listed).toBe(
    'auto, vllm, sglang, tgi, llama.cpp, ollama, triton, nim, localai, kserve, dynamo, trtllm, lmdeploy, mistralrs, ' +
      'xinference, ovms, ray-serve, production-stack, aphrodite or ktransformers'
  )
  expect(listed?.split(/, | or /).sort()).toEqual(['auto', ...ENGINE_NAMES.map(spelled)].sort())
})

it("the simulate help lists the simulator's engines, in its table's order", () => {
  expect(row(simulateHelpText(), '--engine ENGINE')).toMatch(
    new RegExp(`  ${Object.keys(SIMULATED_ENGINES).map(spelled).join(', ').replace(/\./g, '\\.')}$`)
  )
})
