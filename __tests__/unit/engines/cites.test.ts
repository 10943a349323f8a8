import { checkCites } from '../../../src/engines/cites.js'
import { ENGINE_RECORDS } from '../../../src/engines/index.js'

describe('checkCites', () => {
  it('tells each cited text found, missing from its file, or its file missing; each file read once', () => {
    const reads: string[] = []
    const files: Record<string, string> = { 'a.cpp': 'LOG("model loaded\\n");', 'b.h': 'return "loaded";' }
    const read = (path: string) => (reads.push(path), files[path])
    expect(
      checkCites(
        [
          { path: 'a.cpp', text: 'model loaded' },
          { path: 'a.cpp', text: 'listening on %s' },
          { path: 'b.h', text: 'return "loaded";' },
          { path: 'c.cpp', text: 'x' }
        ],
        read
      ).map((c) => c.found)
    ).toEqual(['yes', 'missing', 'yes', 'no-file'])
    expect(reads).toEqual(['a.cpp', 'b.h', 'c.cpp'])
  })

  it("llama.cpp's record cites its source: log lines and routes, each with its file", () => {
    const cites = ENGINE_RECORDS.find((r) => r.name === 'llamacpp')?.cites ?? []
    expect(cites.length).toBeGreaterThanOrEqual(10)
    for (const c of cites) expect([c.path, c.text.length > 0]).toEqual([expect.stringMatching(/^[\w./-]+$/), true])
  })
})
