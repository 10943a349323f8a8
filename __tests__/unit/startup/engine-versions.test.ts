/**
 * The recorded startups named with the engine version they came from (`<engine>-v<version>….log`, llama.cpp's `<engine>-b<build>….log`): each version
 * stays recognised when a newer one changes its lines, and a new format is a new fixture beside the old one.
 */
import { readdirSync } from 'node:fs'
import { physicalLines, readFixture } from '../../fixtures/log-fixture.mjs'
import { PhaseTracker } from '../../../src/startup/phases.js'
import { StartupProfile } from '../../../src/startup/profile.js'

const dir = new URL('../../fixtures/logs/', import.meta.url).pathname
const fixture = (name: string): string => `${dir}${name}.log`
const VERSIONED = readdirSync(dir)
  .filter((f) => /^[a-z]+-[vb]\d/.test(f))
  .map((f) => f.slice(0, -'.log'.length))

/** The tracker fed a recorded startup, each line read `lateMs` after its own moment. */
function replay(name: string, lateMs = 0): PhaseTracker {
  const tracker = new PhaseTracker()
  for (const line of physicalLines(readFixture(fixture(name)).writes)) tracker.feed(line.text, line.at * 1000 + lateMs)
  return tracker
}
const names = (tracker: PhaseTracker): Array<[string, number]> => tracker.timings().map((t) => [t.name, t.seconds])

describe('recorded startups, one per engine version', () => {
  it('there are some, each naming its engine', () => {
    expect(VERSIONED).toEqual(expect.arrayContaining(['llamacpp-v0.5.0-node-llama-cpp-3.22.1']))
    for (const name of VERSIONED) {
      expect([name, replay(name).engine]).toEqual([name, readFixture(fixture(name)).engine])
    }
  })

  it('a healthy start says it is ready and nothing fatal; a failed one names its fatal line', () => {
    for (const name of VERSIONED) {
      const tracker = replay(name)
      const failed = name.endsWith('-fail')
      expect([name, tracker.ready, tracker.fatal() !== undefined]).toEqual([name, !failed, failed])
    }
  })
})

describe('llama.cpp v0.5.0 (node-llama-cpp 3.22.1), captured from the real server', () => {
  const name = 'llamacpp-v0.5.0-node-llama-cpp-3.22.1'

  it('its phases, timed by its own m.ss.mmm.uuu stamps, however late the lines are read', () => {
    const expected = [
      ['initializing', 0],
      ['loading weights', 0.6],
      ['allocating KV cache', 3.1],
      ['starting server', 0]
    ]
    expect(names(replay(name))).toEqual(expected)
    expect(names(replay(name, 4_000))).toEqual(expected)
    expect(
      replay(name)
        .timings()
        .every((t) => !t.printed)
    ).toBe(true)
  })

  it('ready at `srv  llama_server: model loaded`, by its stamp, even when read seconds later', () => {
    // the first line is read as it is written, the rest in one burst 4 s later: the stamps still say when
    const profile = new StartupProfile()
    const lines = physicalLines(readFixture(fixture(name)).writes)
    lines.forEach((l, i) => profile.line(l.text, i === 0 ? l.at * 1000 : 10_000))
    expect(profile.readyLineSeen).toBe(true)
    expect(profile.readyLineTime()).toBeCloseTo(3_704.099, 3)
  })

  it('a missing model file: the cause quoted, not the "exiting" line after it', () => {
    expect(replay(`${name}-fail`).fatal()).toMatchObject({
      line: expect.stringMatching(/E gguf_init_from_file: failed to open GGUF file 'nothere\.gguf' \(No such file/),
      cause: true
    })
  })

  it("router mode: `listening on` comes before any model is loaded, so ready is a child's `model loaded`", () => {
    const profile = new StartupProfile()
    for (const l of physicalLines(readFixture(fixture(`${name}-router`)).writes)) {
      profile.line(l.text, l.at * 1000)
      if (/listening on http:\/\/127\.0\.0\.1:18614/.test(l.text)) expect(profile.readyLineSeen).toBe(false)
    }
    expect(profile.engine).toBe('llamacpp')
    expect(profile.readyLineSeen).toBe(true)
  })
})

describe('llama.cpp v0.5.0 built for CUDA, captured on an NVIDIA H200 (-ngl 99)', () => {
  const name = 'llamacpp-v0.5.0-node-llama-cpp-3.22.1-cuda'

  it("its phases: the weights' load ends at `llama threadpool init`, the CUDA build's first line after it", () => {
    // no llama_context line at the default verbosity: without the threadpool line, the 1.5 s load of 9.9 GB onto
    // the GPU and the context's making would be one phase
    const expected = [
      ['initializing', 0.2],
      ['loading weights', 1.5],
      ['allocating KV cache', 0.1],
      ['starting server', 0]
    ]
    expect(names(replay(name))).toEqual(expected)
    expect(names(replay(name, 4_000))).toEqual(expected)
  })

  it('ready at `model loaded` by its stamp; the Flash Attention warnings of a build without its kernels are not fatal', () => {
    const profile = new StartupProfile()
    const lines = physicalLines(readFixture(fixture(name)).writes)
    lines.forEach((l, i) => profile.line(l.text, i === 0 ? l.at * 1000 : 10_000))
    expect(profile.readyLineSeen).toBe(true)
    expect(profile.readyLineTime()).toBeCloseTo(1_699.609, 3)
    expect(lines.some((l) => /Flash Attention not supported/.test(l.text))).toBe(true)
    expect(replay(name).fatal()).toBeUndefined()
  })

  it('a KV cache the GPU cannot hold: the cudaMalloc line is quoted, not the context or "exiting" lines after it', () => {
    const tracker = replay(`${name}-oom-fail`)
    expect(tracker.ready).toBe(false)
    expect(tracker.fatal()).toMatchObject({
      line: expect.stringMatching(/allocating 393216\.00 MiB on device 0: cudaMalloc failed: out of memory$/),
      cause: true
    })
  })
})

describe('Ollama: v0.25.0 (the llama runner) and v0.33.0-rc2 (llama-server) time the same start alike', () => {
  it.each(['ollama-v0.25.0', 'ollama-v0.33.0-rc2'])('%s', (name) => {
    const tracker = replay(name)
    expect(names(tracker)).toEqual([
      ['starting server', 0.1],
      ['discovering GPUs', 1.8],
      ['loading model', 9.5]
    ])
    expect(tracker.timings()[2].printed).toBe(true)
    expect([tracker.ready, tracker.fatal()]).toEqual([true, undefined])
  })
})

describe("Ollama's llama-server runner: its child's own `listening on` line", () => {
  it('names no other engine and is no ready line: Ollama is ready at `llama-server started in`, on its own port', () => {
    const profile = new StartupProfile()
    const seen: string[] = []
    for (const l of physicalLines(readFixture(fixture('ollama-v0.33.0-rc2')).writes)) {
      profile.line(l.text, l.at * 1000)
      const child = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(l.text)
      if (child === null) continue
      // the child's ephemeral port, not Ollama's (`Listening on [::]:11434`)
      seen.push(child[1])
      expect([profile.engine, profile.readyLineSeen]).toEqual(['ollama', false])
    }
    expect(seen).toEqual(['41233'])
    expect(profile.readyLineSeen).toBe(true)
    expect(profile.readyLineTime()).toBeCloseTo(21_700, 0)
  })
})

describe('vLLM of 2026: data-parallel API servers and the Rust frontend (vllm@00a5fdd2, PR #40848)', () => {
  it('two API servers (--api-server-count = the DP size): their own prefixes, ready at the first startup complete', () => {
    const tracker = replay('vllm-v0.26.0-dp2')
    expect(tracker.engine).toBe('vllm')
    expect(names(tracker).map(([n]) => n)).toEqual([
      'initializing',
      'loading weights',
      'allocating KV cache',
      'starting server'
    ])
    const profile = new StartupProfile()
    for (const l of physicalLines(readFixture(fixture('vllm-v0.26.0-dp2')).writes)) {
      profile.line(l.text, l.at * 1000)
      if (/ApiServer_0 pid=88\) INFO:\s+Application startup complete/.test(l.text)) {
        expect(profile.readyLineSeen).toBe(true)
        expect(profile.readyLineTime()).toBeCloseTo(45_300, 0)
      }
    }
  })

  it('the Rust frontend, no uvicorn: its launch starts the server phase, its own line is the ready one', () => {
    const tracker = replay('vllm-v0.26.0-rust-frontend')
    expect(tracker.ready).toBe(true)
    expect(names(tracker).at(-1)?.[0]).toBe('starting server')
  })
})
