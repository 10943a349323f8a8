import { fixturePath, physicalLines, readFixture } from '../../fixtures/log-fixture.mjs'
import { StartupProfile } from '../../../src/startup/profile.js'
import { startupLines, startupStatusText } from '../../../src/report/profile-report.js'

const fixture = fixturePath
const usual = {
  totalSeconds: 360,
  phaseSeconds: new Map([
    ['initializing', 14],
    ['loading weights', 210],
    ['compiling', 75],
    ['allocating KV cache', 2],
    ['capturing CUDA graphs', 40],
    ['starting server', 1]
  ]),
  order: [
    'initializing',
    'initializing distributed',
    'loading weights',
    'compiling',
    'allocating KV cache',
    'capturing CUDA graphs',
    'starting server'
  ]
}

describe('the startup profile of a wait', () => {
  it('says the engine and each new phase, and where the startup is with the time to go', () => {
    const profile = new StartupProfile({ usual })
    const said: string[] = []
    for (const line of physicalLines(readFixture(fixture('vllm')).writes)) {
      if (line.at > 114) break
      said.push(...startupLines(profile.line(line.text, line.at * 1000)))
    }
    expect(said).toEqual([
      'engine: vLLM (from its log)',
      'now initializing',
      'now initializing distributed (initializing took 14.0s)',
      'now loading weights (initializing distributed took 3.0s)'
    ])
    // tqdm: 95 s for 29 shards → 1m54s left; then the usual 75 + 2 + 40 + 1 s
    expect(startupStatusText(profile.status(114_000, 114_000))).toBe(
      'loading weights 45% (29/64 shards), about 1m54s left; ready in about 3m52s going by earlier runs'
    )
    expect(profile.label).toBe('vLLM')
  })

  it('before any phase, says when earlier runs were ready', () => {
    expect(startupStatusText(new StartupProfile({ usual }).status(0, 60_000))).toBe(
      'ready in about 5m00s going by earlier runs'
    )
  })

  it('once past the usual startup, says how much slower it is', () => {
    expect(startupStatusText(new StartupProfile({ usual }).status(0, 420_000))).toBe(
      '1m00s slower than earlier runs, which were ready after 360.0s'
    )
  })

  it('without a phase yet, has nothing to say; an engine named by the model list', () => {
    const profile = new StartupProfile()
    expect(startupStatusText(profile.status(0, 0))).toBeUndefined()
    expect(profile.line('Loading safetensors checkpoint shards:   0% Completed | 0/2 [00:00<?, ?it/s]', 0)).toEqual([])
    expect(
      startupLines(profile.models(JSON.parse('{"object":"list","data":[{"id":"m","owned_by":"sglang"}]}')))
    ).toEqual(['engine: SGLang (from its model list)', 'now loading weights'])
    expect(profile.models(JSON.parse('{"object":"list","data":[{"id":"m","owned_by":"vllm"}]}'))).toEqual([])
    expect(startupStatusText(profile.status(1000, 1000))).toBe('loading weights 0% (0/2 shards)')
  })

  it('holds the fatal line to quote, and the phases when the wait ends', () => {
    const profile = new StartupProfile({ engine: 'llamacpp', startedAt: 0 })
    for (const line of physicalLines(readFixture(fixture('llamacpp-fail')).writes))
      profile.line(line.text, line.at * 1000)
    expect(profile.fatal).toMatchObject({
      cause: true,
      line: expect.stringMatching(/^llama_model_load: error loading model/)
    })
    expect(profile.finish(900).map((p) => [p.name, p.seconds])).toEqual([
      ['starting', 0.1],
      ['initializing', 0.1],
      ['loading weights', 0.7]
    ])
  })
})
