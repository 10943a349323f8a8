import { execFileSync } from 'node:child_process'
import { appendFileSync, closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { LogFollower, type LogLine, MAX_LINE_CHARS } from '../../../src/server/log-follower.js'
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

  it('hands the lines already written to `earlier` on the first look, once, and only later ones to poll', () => {
    writeFileSync(file, 'old one\nold two\nunfinished')
    const earlier: Array<{ number: number; text: string }>[] = []
    const log = new LogFollower(file, 10, { earlier: (lines) => earlier.push(lines) })
    // nothing is read before the first look: the wait starts at once, whatever the log's size
    expect(earlier).toEqual([])
    expect(log.poll()).toEqual([])
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

  it('reads every line still unread with rest(), where one look stops at its share', () => {
    writeFileSync(file, '')
    const log = new LogFollower(file, 10)
    appendFileSync(file, Array.from({ length: 2500 }, (_, i) => `line ${i + 1}\n`).join(''))
    const rest = log.rest()
    expect(rest).toHaveLength(2500)
    expect(rest.at(-1)).toEqual({ number: 2500, text: 'line 2500' })
    expect(log.rest()).toEqual([])
    // one look alone reads a bounded share (what rest() is for)
    appendFileSync(file, Array.from({ length: 2500 }, (_, i) => `more ${i + 1}\n`).join(''))
    expect(log.poll().length).toBeLessThan(2500)
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

  it('counts a large existing log without reading it into lines: numbers stay right, the tail ends with the file', () => {
    const fd = openSync(file, 'w')
    const block = Buffer.from('an ordinary line of a busy server log\n'.repeat(10_000))
    for (let i = 0; i < 100; i++) writeSync(fd, block) // 37 MB, a million lines
    writeSync(fd, 'the last line\n')
    closeSync(fd)
    const earlier: number[] = []
    const log = new LogFollower(file, 2, { earlier: (lines) => earlier.push(lines.length) })
    expect(log.poll()).toEqual([])
    // one look does a bounded amount of work, whatever the size
    expect(earlier).toEqual([])
    appendFileSync(file, 'new\n')
    let fresh: LogLine[] = []
    let looks = 1
    for (; looks < 1000 && fresh.length === 0; looks++) fresh = log.poll()
    // counted a bounded amount a look, then only the last 256 KB read as lines (the phases so far and the tail)
    expect(looks).toBeGreaterThan(2)
    expect(earlier.reduce((a, b) => a + b, 0)).toBeLessThan(7_000)
    expect(fresh).toEqual([{ number: 1_000_002, text: 'new' }])
    expect(log.tail()).toEqual([
      { number: 1_000_001, text: 'the last line' },
      { number: 1_000_002, text: 'new' }
    ])
  })

  it('skips ahead, counting, when a server writes faster than it reads', () => {
    const log = new LogFollower(file, 3, { fromStart: true })
    writeFileSync(file, 'y\n'.repeat(10 * 1024 * 1024)) // 20 MB of `yes`
    const first = log.poll()
    expect(first.length).toBeLessThanOrEqual(1000)
    appendFileSync(file, 'CUDA error: out of memory\n')
    let seen: string[] = []
    for (let i = 0; i < 2000 && !seen.includes('CUDA error: out of memory'); i++) seen = log.poll().map((l) => l.text)
    expect(seen).toContain('CUDA error: out of memory')
    expect(log.tail()?.at(-1)).toEqual({ number: 10 * 1024 * 1024 + 1, text: 'CUDA error: out of memory' })
  })

  it('never blocks on a FIFO, and gives a problem once the log is no longer a regular file', () => {
    const fifo = box.path('fifo.log')
    execFileSync('mkfifo', [fifo])
    const piped = new LogFollower(fifo, 3)
    expect(piped.poll()).toEqual([])
    expect(piped.problem).toBe(`the log ${fifo} is no longer a regular file (it is a FIFO now)`)
    writeFileSync(file, 'one\n')
    const log = new LogFollower(file, 3, { fromStart: true })
    expect(log.poll()).toEqual([{ number: 1, text: 'one' }])
    rmSync(file)
    mkdirSync(file)
    expect(log.poll()).toEqual([])
    expect(log.problem).toBe(`the log ${file} is no longer a regular file (it is a directory now)`)
    expect(log.tail()).toEqual([{ number: 1, text: 'one' }])
  })

  it('masks secrets in a line before cutting it, so that no prefix of one survives the cut', () => {
    const key = 'sk-0123456789abcdef'
    writeFileSync(file, `${'x'.repeat(MAX_LINE_CHARS - 5)}${key}\n`)
    const [line] = new LogFollower(file, 3, { fromStart: true, secrets: [key] }).poll()
    expect(line.text).not.toContain('sk-01')
    expect(line.text.endsWith('***')).toBe(true)
  })
})
