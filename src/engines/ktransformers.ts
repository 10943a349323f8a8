/** KTransformers: `kt run` execs SGLang's server, so it answers and prints as SGLang does. */
import { type EngineRecord, UNKNOWN_LOG } from './engine-record.js'
import { sglang } from './sglang.js'

export const ktransformers: EngineRecord<'ktransformers'> = {
  ...sglang,
  name: 'ktransformers',
  label: 'KTransformers',
  // its lines are SGLang's, which name SGLang (the same readiness): none is its own
  log: UNKNOWN_LOG,
  ownedBy: undefined,
  sources: [
    'kvcache-ai/ktransformers@95009ea6:kt-kernel/python/cli/commands/run.py (L636: launches sglang.launch_server)',
    'kvcache-ai/ktransformers@95009ea6:README.md ("Integrating into SGLang")',
    ...sglang.sources
  ]
}
