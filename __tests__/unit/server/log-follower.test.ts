import { appendFileSync, writeFileSync } from 'node:fs'
import { LogFollower, MAX_LINE_CHARS } from '../../../src/server/log-follower.js'
import { sandbox } from '../../helpers/sandbox.js'

const box = sandbox('wait-for-model-log-')
let file: string
beforeEach(() => {
  file = box.path('server.log')
})

describe('LogFollower', () => {
  it('returns only lines written after it started, numbered from the top of the file', () => {
    writeFileSync(file, 'old one\nold two\n')
    const log = new LogFollower(file, 10)
    expect(log.poll()).toEqual([])
    appendFileSync(file, 'new three\nnew four\n')
    expect(log.poll()).toEqual([
      { number: 3, text: 'new three' },
      { number: 4, text: 'new four' }
    ])
    expect(log.poll()).toEqual([])
  })

  it('hands the lines already written to `earlier`, once, and only later ones to poll', () => {
    writeFileSync(file, 'old one\nold two\nunfinished')
    const earlier: Array<{ number: number; text: string }>[] = []
    const log = new LogFollower(file, 10, { earlier: (lines) => earlier.push(lines) })
    expect(earlier).toEqual([
      [
        { number: 1, text: 'old one' },
        { number: 2, text: 'old two' }
      ]
    ])
    appendFileSync(file, ' now\n')
    expect(log.poll()).toEqual([{ number: 3, text: 'unfinished now' }])
  })

  it('from the start, returns what a server it has just started already wrote', () => {
    writeFileSync(file, 'NCCL error: unhandled system error\n')
    expect(new LogFollower(file, 10, { fromStart: true }).poll()).toEqual([
      { number: 1, text: 'NCCL error: unhandled system error' }
    ])
  })

  it("from the start of a server's output appended to an older log: only the new lines, numbered as in the file", () => {
    writeFileSync(file, 'an earlier run: CUDA out of memory\nits last line\n')
    const skipBytes = Buffer.byteLength('an earlier run: CUDA out of memory\nits last line\n')
    appendFileSync(file, 'this run\n')
    const log = new LogFollower(file, 10, { fromStart: true, skipBytes })
    expect(log.poll()).toEqual([{ number: 3, text: 'this run' }])
    expect(log.tail()).toEqual([{ number: 3, text: 'this run' }])
  })

  it('waits for a line to be finished, and strips the CR of CR LF lines (vLLM tracebacks)', () => {
    const log = new LogFollower(file, 10)
    expect(log.poll()).toEqual([]) // the file does not exist yet
    writeFileSync(file, 'Traceback (most rec')
    expect(log.poll()).toEqual([])
    appendFileSync(file, 'ent call last):\r\nnext')
    expect(log.poll()).toEqual([{ number: 1, text: 'Traceback (most recent call last):' }])
  })

  it('keeps a character split across two reads whole', () => {
    const log = new LogFollower(file, 10)
    const bytes = Buffer.from('GPU: NVIDIA H200 — 141 GiB\n')
    const cut = bytes.indexOf(Buffer.from('—')) + 1
    writeFileSync(file, bytes.subarray(0, cut))
    log.poll()
    appendFileSync(file, bytes.subarray(cut))
    expect(log.poll()).toEqual([{ number: 1, text: 'GPU: NVIDIA H200 — 141 GiB' }])
  })

  it('tails the last lines, the unfinished one included, and cuts very long lines', () => {
    writeFileSync(file, `${'x'.repeat(MAX_LINE_CHARS + 50)}\n`)
    const log = new LogFollower(file, 3)
    appendFileSync(file, 'two\nthree\nfour\nfive (no newline yet)')
    expect(log.tail()).toEqual([
      { number: 3, text: 'three' },
      { number: 4, text: 'four' },
      { number: 5, text: 'five (no newline yet)' }
    ])
    const first = new LogFollower(file, 10).tail()?.[0]
    expect(first?.text).toHaveLength(MAX_LINE_CHARS + 1)
    expect(first?.text.endsWith('…')).toBe(true)
  })

  it('starts again from the top when the file is truncated', () => {
    writeFileSync(file, 'one\ntwo\nthree\n')
    const log = new LogFollower(file, 10)
    writeFileSync(file, 'fresh\n')
    expect(log.poll()).toEqual([{ number: 1, text: 'fresh' }])
  })

  it('has no tail for a log that does not exist, and an empty one for log-lines 0', () => {
    expect(new LogFollower(box.path('missing.log'), 5).tail()).toBeUndefined()
    writeFileSync(file, 'a\n')
    expect(new LogFollower(file, 0).tail()).toEqual([])
  })
})
