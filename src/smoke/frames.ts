/**
 * A streamed body (SSE, or one JSON object a line for Ollama) cut into events as it arrives, within bounds a hostile
 * server cannot swell: a line or body too long ends the stream as an error rather than growing a buffer.
 */
import { parseJson } from '../http/probe.js'

/** No event of a token stream comes near this (a final event with its settings is a few KiB). */
export const MAX_LINE_BYTES = 64 * 1024
/** Far above any answer of a few thousand tokens, each event with its JSON around it. */
export const MAX_STREAM_BYTES = 8 * 1024 * 1024

export type Frame =
  | { kind: 'event'; json: Record<string, unknown> }
  /** SSE's `data: [DONE]`. */
  | { kind: 'done' }
  | { kind: 'too-long'; what: 'line' | 'body' }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

export class FrameReader {
  private partial: Buffer[] = []
  private partialBytes = 0
  private total = 0
  private data: string[] = []
  private dataBytes = 0
  private readonly decoder = new TextDecoder('utf-8', { fatal: false })

  constructor(private readonly framing: 'sse' | 'ndjson') {}

  /** Reading ends after a `too-long` frame. */
  push(chunk: Buffer): Frame[] {
    this.total += chunk.length
    if (this.total > MAX_STREAM_BYTES) return [{ kind: 'too-long', what: 'body' }]
    const frames: Frame[] = []
    let start = 0
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl)
      start = nl + 1
      if (this.partialBytes + piece.length > MAX_LINE_BYTES) return [...frames, { kind: 'too-long', what: 'line' }]
      const line = this.partialBytes === 0 ? piece : Buffer.concat([...this.partial, piece])
      this.partial = []
      this.partialBytes = 0
      frames.push(...this.line(this.decoder.decode(line).replace(/\r$/, '')))
      if (frames.at(-1)?.kind === 'too-long') return frames
    }
    const rest = chunk.subarray(start)
    if (this.partialBytes + rest.length > MAX_LINE_BYTES) return [...frames, { kind: 'too-long', what: 'line' }]
    if (rest.length > 0) {
      // copied: the chunk's buffer may be reused by the socket
      this.partial.push(Buffer.from(rest))
      this.partialBytes += rest.length
    }
    return frames
  }

  /** A last line without its line break, an SSE event without its blank line. */
  end(): Frame[] {
    const last = this.partialBytes === 0 ? [] : this.line(this.decoder.decode(Buffer.concat(this.partial)))
    this.partial = []
    this.partialBytes = 0
    return [...last, ...(this.framing === 'sse' ? this.line('') : [])]
  }

  private line(text: string): Frame[] {
    if (this.framing === 'ndjson') return text.trim() === '' ? [] : toFrame(text)
    if (text === '') {
      if (this.data.length === 0) return []
      const payload = this.data.join('\n')
      this.data = []
      this.dataBytes = 0
      return payload.trim() === '[DONE]' ? [{ kind: 'done' }] : toFrame(payload)
    }
    // older llama.cpp sends a failure as an `error:` field of its own: an error event whatever follows
    if (text.startsWith('error:')) {
      const said = text.slice(text[6] === ' ' ? 7 : 6)
      const json = parseJson(said)
      return [{ kind: 'event', json: { error: isObject(json) ? (json.error ?? json) : said || 'error' } }]
    }
    // `data:value` and `data: value` alike (TGI writes the first); comments (`:`) and other fields are skipped
    if (!text.startsWith('data:')) return []
    // an event of many `data:` lines is held whole until its blank line: it is bounded as one line is
    this.dataBytes += text.length
    if (this.dataBytes > MAX_LINE_BYTES) return [{ kind: 'too-long', what: 'line' }]
    this.data.push(text.slice(text[5] === ' ' ? 6 : 5))
    return []
  }
}

/** An event that is not a JSON object (a keep-alive, a stray word) carries nothing: it is skipped. */
function toFrame(text: string): Frame[] {
  const json = parseJson(text)
  return isObject(json) ? [{ kind: 'event', json }] : []
}
