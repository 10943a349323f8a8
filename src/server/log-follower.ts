/**
 * Follows a server's log file: the lines appended since the last look, numbered, and the last lines kept for the
 * tail. Each look does bounded work whatever the file holds (a huge log, a flood, a directory), so that the wait
 * never stalls behind it and its memory never grows with it.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { redact } from '../inputs/secrets.js'
import { notRegularFile } from '../runtime/own-files.js'
import { systemClock } from '../runtime/clock.js'

export interface LogLine {
  /** 1-based. */
  number: number
  text: string
}

/** A line longer than this is cut (a progress bar redrawn with \r for an hour is one line). */
export const MAX_LINE_CHARS = 2000
/** Of a longer line, only this many bytes are kept while it is read (UTF-8: 4 per character). */
const MAX_LINE_BYTES = MAX_LINE_CHARS * 4
/** Lines decoded per look: each then goes through the startup profile and `fail-pattern`. */
const LINES_PER_POLL = 1000
/** Bytes decoded into lines per look. */
const READ_BYTES_PER_POLL = 256 * 1024
/** Bytes only counted (for line numbers) per look. */
const COUNT_BYTES_PER_POLL = 32 * 1024 * 1024
/** And at most this long a look: a CPU budget that bounds how long a look holds the event loop, nothing else. */
const WORK_MS_PER_POLL = 20
/**
 * Of what a log held before the wait, only its last WINDOW_BYTES are read as lines; the rest is counted. A backlog
 * over BACKLOG_BYTES (a server writing faster than the follower reads) is likewise counted to its last WINDOW_BYTES.
 */
const WINDOW_BYTES = 256 * 1024
const BACKLOG_BYTES = 8 * 1024 * 1024
const CHUNK_BYTES = 64 * 1024
/** The most looks that read what is left at the end (`tail`, `rest`): a flooded log's backlog is not read whole. */
const REST_LOOKS = 20

export class LogFollower {
  /** Bytes of the file consumed: counted, or read into lines (the unfinished last line is in `pending`). */
  private offset = 0
  private lineCount = 0
  private pending: Buffer[] = []
  private pendingBytes = 0
  private pendingCut = false
  /** Up to where the file is only counted, not read into lines. */
  private countUntil = 0
  /** The first line read after counting began before the counting ended: counted, never shown. */
  private dropPartial = false
  /** Lines that end before this offset were in the file before the wait. */
  private earlierUntil = 0
  private readonly recent: LogLine[] = []
  private readonly chunk = Buffer.alloc(CHUNK_BYTES)
  /** Why the log can no longer be read (it became a directory); set once, the follower then reads nothing. */
  problem?: string

  /**
   * `keep`: how many last lines to hold for `tail`. Unless `fromStart` (a server this process has just started),
   * what the file already holds is handed to `earlier`, never returned by `poll`: only lines written from now on are
   * new. `skipBytes`: an earlier run's part of the log, only counted, so that line numbers are the file's.
   * `secrets` are masked in each line before it is cut.
   */
  constructor(
    readonly path: string,
    private readonly keep: number,
    private readonly options: {
      fromStart?: boolean
      skipBytes?: number
      earlier?: (lines: LogLine[]) => void
      secrets?: readonly string[]
    } = {}
  ) {
    if (options.fromStart) {
      this.countUntil = options.skipBytes ?? 0
      return
    }
    const size = this.withFile((_fd, s) => s) ?? 0
    this.earlierUntil = size
    this.countUntil = Math.max(0, size - WINDOW_BYTES)
  }

  /** The complete lines appended since the last call (at most LINES_PER_POLL of them). */
  poll(): LogLine[] {
    const fresh: LogLine[] = []
    const old: LogLine[] = []
    const until = systemClock.now() + WORK_MS_PER_POLL
    this.withFile((fd, size) => {
      // truncated or replaced (also before the first look read what it held)
      if (size < this.offset || size < this.earlierUntil) this.restart()
      if (size - this.offset > BACKLOG_BYTES && this.offset >= this.countUntil) this.countUntil = size - WINDOW_BYTES
      if (this.offset < this.countUntil) this.count(fd, until)
      if (this.offset >= this.countUntil) this.read(fd, size, fresh, old, until)
    })
    if (old.length > 0) this.options.earlier?.(old)
    return fresh
  }

  /** Every complete line still unread (within REST_LOOKS): all a server wrote before it exited explains the exit. */
  rest(): LogLine[] {
    const lines: LogLine[] = []
    for (let looks = 0; looks < REST_LOOKS && (looks === 0 || this.behind()); looks++) lines.push(...this.poll())
    return lines
  }

  /** Whether lines already written are still unread. */
  private behind(): boolean {
    return (this.withFile((_fd, size) => size > this.offset) ?? false) && this.problem === undefined
  }

  /** Opens the file without blocking (a FIFO would) and checks it is still a regular file; undefined when it is not there. */
  private withFile<T>(use: (fd: number, size: number) => T): T | undefined {
    if (this.problem !== undefined) return undefined
    let fd: number
    try {
      fd = openSync(this.path, constants.O_RDONLY | constants.O_NONBLOCK)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.fail(e)
      return undefined // not written yet
    }
    try {
      const stat = fstatSync(fd)
      const what = notRegularFile(stat)
      if (what !== undefined) {
        this.problem = `the log ${this.path} is no longer a regular file (it is ${what} now)`
        return undefined
      }
      return use(fd, stat.size)
    } catch (e) {
      this.fail(e)
      return undefined
    } finally {
      closeSync(fd)
    }
  }

  private fail(e: unknown): void {
    this.problem = `the log ${this.path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`
  }

  /** Counts the lines up to `countUntil`, within the look's budget, reading nothing into memory. */
  private count(fd: number, until: number): void {
    const end = Math.min(this.countUntil, this.offset + COUNT_BYTES_PER_POLL)
    let last = -1
    // one chunk at least, however late the look began (a loaded machine): every look moves on
    for (let first = true; this.offset < end && (first || systemClock.now() < until); first = false) {
      const n = readSync(fd, this.chunk, 0, Math.min(CHUNK_BYTES, end - this.offset), this.offset)
      if (n === 0) break
      // one native pass (a loop in JavaScript, or indexOf per line, is several times slower without the optimising compilers)
      const text = this.chunk.toString('latin1', 0, n)
      this.lineCount += text.length - text.replaceAll('\n', '').length
      last = this.chunk[n - 1]
      this.offset += n
    }
    if (last === -1) return
    // what was pending is part of a counted line now; the line under way at the end of counting is never whole
    this.pending = []
    this.pendingBytes = 0
    this.pendingCut = false
    this.dropPartial = last !== 0x0a
  }

  private read(fd: number, size: number, fresh: LogLine[], old: LogLine[], until: number): void {
    const end = Math.min(size, this.offset + READ_BYTES_PER_POLL)
    let lines = 0
    // one chunk at least, however late the look began (a loaded machine): every look moves on
    for (
      let first = true;
      this.offset < end && lines < LINES_PER_POLL && (first || systemClock.now() < until);
      first = false
    ) {
      const n = readSync(fd, this.chunk, 0, Math.min(CHUNK_BYTES, end - this.offset), this.offset)
      if (n === 0) break
      let start = 0
      for (let nl = this.chunk.indexOf(0x0a, 0); nl !== -1 && nl < n; nl = this.chunk.indexOf(0x0a, start)) {
        this.take(this.chunk.subarray(start, nl))
        start = nl + 1
        const line = this.finishLine()
        if (line !== undefined) {
          ;(this.offset + start <= this.earlierUntil ? old : fresh).push(line)
          if (++lines >= LINES_PER_POLL) break
        }
      }
      if (lines >= LINES_PER_POLL && start < n) {
        this.offset += start // the rest is read by the next look
        return
      }
      this.take(this.chunk.subarray(start, n))
      this.offset += n
    }
  }

  /** Adds bytes to the unfinished line, keeping at most MAX_LINE_BYTES of it. */
  private take(bytes: Buffer): void {
    const room = MAX_LINE_BYTES - this.pendingBytes
    if (bytes.length > room) this.pendingCut = true
    const kept = bytes.subarray(0, Math.max(0, room))
    if (kept.length === 0) return
    this.pending.push(Buffer.from(kept))
    this.pendingBytes += kept.length
  }

  /** The unfinished line is finished: numbered, kept for the tail, and returned unless it was partly counted. */
  private finishLine(): LogLine | undefined {
    const text = this.pendingText()
    this.pending = []
    this.pendingBytes = 0
    this.pendingCut = false
    this.lineCount++
    if (this.dropPartial) {
      this.dropPartial = false
      return undefined
    }
    const line = { number: this.lineCount, text: text.replace(/\r$/, '') }
    if (this.keep > 0) {
      this.recent.push(line)
      if (this.recent.length > this.keep) this.recent.shift()
    }
    return line
  }

  private pendingText(): string {
    const text = redact(Buffer.concat(this.pending, this.pendingBytes).toString('utf8'), this.options.secrets ?? [])
    return text.length > MAX_LINE_CHARS || this.pendingCut ? `${text.slice(0, MAX_LINE_CHARS)}…` : text
  }

  /** The last `keep` lines, an unfinished one included, read to where the file ends; undefined without the file. */
  tail(): LogLine[] | undefined {
    for (let looks = 0; looks < REST_LOOKS && this.behind(); looks++) this.poll()
    if (this.problem === undefined && this.withFile(() => true) === undefined) return undefined
    if (this.keep === 0) return []
    const unfinished =
      this.pendingBytes === 0 || this.dropPartial ? [] : [{ number: this.lineCount + 1, text: this.pendingText() }]
    return [...this.recent, ...unfinished].slice(-this.keep)
  }

  private restart(): void {
    this.offset = 0
    this.lineCount = 0
    this.pending = []
    this.pendingBytes = 0
    this.pendingCut = false
    this.countUntil = 0
    this.dropPartial = false
    this.earlierUntil = 0
  }
}
