/** KTransformers: `kt run` prints its configuration, then execs SGLang's server, which answers and prints as SGLang does. */
import type { EngineRecord } from './engine-record.js'
import { sglang } from './sglang.js'

export const ktransformers: EngineRecord<'ktransformers'> = {
  ...sglang,
  name: 'ktransformers',
  label: 'KTransformers',
  // `kt run` prints its configuration before it starts SGLang, whose lines follow; its answers are SGLang's
  log: { ...sglang.log, signature: /CPU Threads \(kt-cpuinfer\):|NUMA Nodes \(kt-threadpool-count\):/ },
  // its MoE experts run on the CPU by design: GPU memory held never shows the whole model there
  splitsLayers: true,
  ownedBy: undefined,
  listsAs: 'sglang',
  sources: [
    'kvcache-ai/ktransformers@95009ea6:kt-kernel/python/cli/commands/run.py (L636: launches sglang.launch_server)',
    'kvcache-ai/ktransformers@95009ea6:README.md ("Integrating into SGLang")',
    'kvcache-ai/ktransformers@95009ea6:kt-kernel/python/cli/commands/run.py (`CPU Threads (kt-cpuinfer):`, `NUMA Nodes (kt-threadpool-count):`)',
    ...sglang.sources
  ]
}
