/** TGI (text-generation-inference): its launcher's and router's lines (3.x; 2.x wordings where they differ). */
import { cause, type EngineRecord, failure, TORCH_FATAL } from './engine-record.js'

export const tgi: EngineRecord<'tgi'> = {
  name: 'tgi',
  label: 'TGI',
  log: {
    signature: /text_generation_(?:launcher|router)/,
    stamp: /^(?<Y>\d{4})-(?<M>\d\d)-(?<D>\d\d)T(?<h>\d\d):(?<m>\d\d):(?<s>\d\d)(?:\.(?<f>\d+))?Z/,
    ready: /text_generation_router::server.*\bConnected\s*$/,
    phases: [
      {
        phase: 'downloading',
        start: /Starting (?:check and )?download process/,
        progress: /Download: \[(?<n>\d+)\/(?<total>\d+)\]/,
        unit: 'files',
        end: /Successfully downloaded weights/
      },
      {
        phase: 'loading weights',
        start: /Starting shard/,
        end: /Shard ready in /,
        took: /Shard ready in (?<took>[\d.]+)(?<unit>ms|µs|ns|s)/
      },
      { phase: 'starting server', start: /Starting Webserver/ },
      { phase: 'warming up', start: /Warming up model/ }
    ],
    fatal: [
      ...TORCH_FATAL,
      cause(/Not enough memory to handle \d+ prefill tokens/),
      // backends/v3/src/lib.rs V3Error::NotEnoughMemory
      cause(/Not enough memory to handle `max_total_tokens=\d+`/),
      cause(/Download encountered an error/),
      cause(/Error when initializing model/),
      cause(/text-generation-(?:server|router) not found in PATH/),
      // launcher/src/main.rs LauncherError: printed as `Error: <variant>` when the launcher exits
      cause(/not enough cuda devices: |Error: NotEnoughCUDADevices/),
      failure(
        /Shard \d+ failed to start|Shard \d+ crashed|Error: (?:Shard(?:CannotStart|Failed|Disconnected)|WarmupError|DownloadError|Webserver(?:Failed|CannotStart))/
      ),
      failure(/Webserver Crashed|Failed to start webserver: /),
      failure(/Unable to (?:warmup|connect to) the Python model shards/)
    ]
  },
  modelLists: ['tgi-info', 'openai'],
  // none of its own: TGI opens its port only once ready
  readiness: [],
  servesOneModel: true,
  generation: ['tgi', 'openai'],
  stream: 'tgi',
  sources: [
    'huggingface/text-generation-inference@v3.3.7:backends/v3/src/lib.rs (V3Error::NotEnoughMemory)',
    'huggingface/text-generation-inference@v3.3.7:launcher/src/main.rs (LauncherError)',
    '__tests__/fixtures/logs/tgi-v3.3.7.log'
  ]
}
