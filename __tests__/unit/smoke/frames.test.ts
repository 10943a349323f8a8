import { FrameReader, MAX_LINE_BYTES } from '../../../src/smoke/frames.js'

/** The stream cut into events as bytes arrive, whatever the cuts. */
describe('FrameReader', () => {
  const bytes = (s: string): Buffer => Buffer.from(s, 'utf8')

  it('reads SSE events cut anywhere, with CRLF, `data:` with or without its space, comments and [DONE]', () => {
    const text = ': keep-alive\r\ndata: {"a":1}\r\n\r\ndata:{"b":"é"}\n\nevent: x\ndata: [DONE]\n\n'
    const whole = new FrameReader('sse').push(bytes(text))
    expect(whole).toEqual([{ kind: 'event', json: { a: 1 } }, { kind: 'event', json: { b: 'é' } }, { kind: 'done' }])
    // byte by byte: the é's two bytes arrive apart
    const reader = new FrameReader('sse')
    const frames = [...bytes(text)].flatMap((b) => reader.push(Buffer.from([b])))
    expect(frames).toEqual(whole)
  })

  it('joins an event of several data lines, skips what is not a JSON object, and reads a last event without its blank line', () => {
    const reader = new FrameReader('sse')
    expect(reader.push(bytes('data: {"a":\ndata: 2}\n\ndata: hello\n\ndata: [1]\n\ndata: {"c":3}'))).toEqual([
      { kind: 'event', json: { a: 2 } }
    ])
    expect(reader.end()).toEqual([{ kind: 'event', json: { c: 3 } }])
  })

  it("reads an SSE `error:` field (older llama.cpp's failure) as an error event", () => {
    const reader = new FrameReader('sse')
    expect(reader.push(bytes('error: {"code":500,"message":"failed to decode","type":"server_error"}\n\n'))).toEqual([
      { kind: 'event', json: { error: { code: 500, message: 'failed to decode', type: 'server_error' } } }
    ])
    expect(reader.push(bytes('error: {"error":{"message":"oom"}}\nerror:gone\n'))).toEqual([
      { kind: 'event', json: { error: { message: 'oom' } } },
      { kind: 'event', json: { error: 'gone' } }
    ])
  })

  it('reads NDJSON, a last line without its line break too', () => {
    const reader = new FrameReader('ndjson')
    expect(reader.push(bytes('{"response":"a"}\n\n{"resp'))).toEqual([{ kind: 'event', json: { response: 'a' } }])
    expect(reader.push(bytes('onse":"b","done":true}'))).toEqual([])
    expect(reader.end()).toEqual([{ kind: 'event', json: { response: 'b', done: true } }])
  })

  it('ends at a line longer than the cap, in one chunk or many, and at an event of many lines longer than it', () => {
    expect(new FrameReader('ndjson').push(Buffer.alloc(MAX_LINE_BYTES + 1, 0x61))).toEqual([
      { kind: 'too-long', what: 'line' }
    ])
    const reader = new FrameReader('sse')
    const piece = Buffer.alloc(1024, 0x61)
    const frames = Array.from({ length: 70 }, () => reader.push(piece))
    // the reader's caller stops at the first
    expect(frames.findIndex((f) => f.length > 0)).toBe(64)
    expect(frames[64]).toEqual([{ kind: 'too-long', what: 'line' }])
    const many = new FrameReader('sse').push(bytes(`data: ${'x'.repeat(1000)}\n`.repeat(70)))
    expect(many).toEqual([{ kind: 'too-long', what: 'line' }])
  })
})
