/** Follows a server's log file: the lines appended since the last look, numbered, and the last lines kept for the tail. */
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'

export interface LogLine {
  /** 1-based line number in the file. */
  number: number
  text: string
}

/** A line longer than this is cut (a progress bar redrawn with \r for an hour is one line). */
export const MAX_LINE_CHARS = 2000
const CHUNK_BYTES = 64 * 1024

export class LogFollower {
  private offset = 0
  private lineCount = 0
  private pending = ''
  private decoder = new StringDecoder('utf8')
  private readonly recent: LogLine[] = []

  /**
   * `keep`: how many last lines to hold for `tail`. Unless `fromStart` (the log of a server this process has
   * just started, where every line is new however fast it came), what the file already holds is read now,
   * counted and kept for the tail (and handed to `earlier`) but never returned by `poll`: only lines written from
   * now on are new. `fromStart` with `skipBytes`: the server appends to a log that already held that much (an
   * earlier run's), which is only counted, so that line numbers are the file's.
   */
  constructor(
    readonly path: string,
    private readonly keep: number,
    {
      fromStart = false,
      skipBytes = 0,
      earlier
    }: { fromStart?: boolean; skipBytes?: number; earlier?: (lines: LogLine[]) => void } = {}
  ) {
    if (fromStart) {
      if (skipBytes > 0) this.read(undefined, skipBytes)
      this.recent.length = 0
      return
    }
    const old: LogLine[] = []
    this.read(earlier && old)
    earlier?.(old)
  }

  /** The complete lines appended since the last call. */
  poll(): LogLine[] {
    const fresh: LogLine[] = []
    this.read(fresh)
    return fresh
  }

  /** Reads what was appended, up to the byte offset `until` when given. */
  private read(into?: LogLine[], until = Infinity): void {
    let fd: number
    try {
      fd = openSync(this.path, 'r')
    } catch {
      return // not written yet
    }
    try {
      if (statSync(this.path).size < this.offset) this.restart() // truncated or replaced
      const buffer = Buffer.alloc(CHUNK_BYTES)
      for (;;) {
        const n = readSync(fd, buffer, 0, Math.min(CHUNK_BYTES, until - this.offset), this.offset)
        if (n === 0) break
        this.offset += n
        this.split(this.pending + this.decoder.write(buffer.subarray(0, n)), into)
      }
    } finally {
      closeSync(fd)
    }
  }

  /** The last `keep` lines, including an unfinished last line; undefined when the file does not exist. */
  tail(): LogLine[] | undefined {
    this.poll()
    try {
      statSync(this.path)
    } catch {
      return undefined
    }
    const unfinished = this.pending === '' ? [] : [{ number: this.lineCount + 1, text: clip(this.pending) }]
    return this.keep === 0 ? [] : [...this.recent, ...unfinished].slice(-this.keep)
  }

  private split(text: string, into?: LogLine[]): void {
    const parts = text.split('\n')
    this.pending = parts.pop() ?? ''
    if (this.pending.length > MAX_LINE_CHARS * 8) this.pending = this.pending.slice(0, MAX_LINE_CHARS * 8)
    for (const raw of parts) {
      const line = { number: ++this.lineCount, text: clip(raw.replace(/\r$/, '')) }
      into?.push(line)
      this.recent.push(line)
      if (this.recent.length > this.keep) this.recent.shift()
    }
  }

  private restart(): void {
    this.offset = 0
    this.lineCount = 0
    this.pending = ''
    this.decoder = new StringDecoder('utf8')
  }
}

const clip = (text: string): string => (text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text)
