/** Parsers for the textual forms of inputs. Each throws a ProblemError, which names the accepted form where it can. */
import { PID_FORM, ProblemError } from './input-error.js'
import { hasControlChars, printable } from '../runtime/text.js'
import { ENGINE_NAMES, type Engine, engineInputName } from '../engines/index.js'
import type { Server } from './settings.js'

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
/** Longer than any job may run (self-hosted jobs stop at 5 days), and below setTimeout's 2^31 ms limit. */
export const MAX_DURATION_MS = 7 * 24 * 3_600_000
export const DURATION_FORM =
  'a duration such as 250ms, 15s, 2m, 1h, 1m30s (each unit once, largest first) or a number of seconds (0.5, 15)'
/** Each unit at most once, largest first, as Go's durations and systemd's: `1m1m1m` is a typo, not 3m. */
const DURATION_PARTS = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/

export function parseDuration(text: string): number {
  const s = text.trim()
  let ms: number
  const parts = DURATION_PARTS.exec(s)
  if (/^\d+(\.\d+)?$/.test(s)) {
    ms = Number(s) * 1000
  } else if (s !== '' && parts !== null) {
    const [, h, m, sec, milli] = parts
    ms = [h, m, sec, milli].reduce((sum, n, i) => sum + Number(n ?? 0) * UNIT_MS[['h', 'm', 's', 'ms'][i]], 0)
  } else {
    throw new ProblemError({ value: printable(text), form: DURATION_FORM })
  }
  if (!Number.isFinite(ms) || ms > MAX_DURATION_MS)
    throw new ProblemError({ value: printable(text), problem: 'is longer than the 168h this accepts' })
  return Math.round(ms)
}

const HEADER_FORM = 'one "Name: value" per line, the name made of letters, digits and !#$%&\'*+-.^_`|~'

/** Parses one `Name: value` per line; blank lines are skipped. */
export function parseHeaders(text: string): Record<string, string> {
  // no prototype: a header named __proto__ is a header like any other (found by the property test)
  const headers: Record<string, string> = Object.create(null)
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return
    const colon = line.indexOf(':')
    const name = colon > 0 ? line.slice(0, colon).trim() : ''
    const value = colon > 0 ? line.slice(colon + 1).trim() : ''
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
      throw new ProblemError({ problem: `line ${i + 1} is not ${HEADER_FORM}` })
    }
    if (hasControlChars(value))
      throw new ProblemError({ problem: `line ${i + 1} (${name}) has a control character in its value` })
    if (!isLatin1(value))
      throw new ProblemError({
        problem: `line ${i + 1} (${name}) has a character outside Latin-1 in its value (${LATIN1_FORM})`
      })
    headers[name.toLowerCase()] = value
  })
  return headers
}

/**
 * Reads a `Retry-After` value, delta-seconds (`120`) or an HTTP date, as milliseconds from `nowMs`;
 * undefined when it is neither. A date in the past means "now" (0).
 */
export function parseRetryAfter(value: string, nowMs: number): number | undefined {
  const s = value.trim()
  if (/^\d+$/.test(s)) return Number(s) * 1000
  // only the IMF-fixdate form HTTP uses (`Wed, 21 Oct 2015 07:28:00 GMT`), not whatever Date.parse accepts
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(s)) return undefined
  const at = Date.parse(s)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs)
}

/** HTTP sends a header value as bytes, one per character: a character above U+00FF cannot be sent. */
export const LATIN1_FORM = 'a header value is sent as bytes: only characters U+0000 to U+00FF'
export const isLatin1 = (text: string): boolean => !/[\u0100-\uffff]/.test(text)

/** Accepts a JavaScript regular expression as its source (`ready|up`) or in slashes with flags (`/kimi/i`). */
export function parseRegex(text: string): RegExp {
  const slashed = /^\/(.*)\/([dgimsuvy]*)$/s.exec(text)
  try {
    return slashed ? new RegExp(slashed[1], slashed[2].replace(/[gy]/g, '')) : new RegExp(text)
  } catch (e) {
    throw new ProblemError(
      { problem: `is not a valid JavaScript regular expression (${(e as Error).message})` },
      { cause: e }
    )
  }
}

const BOOLEAN_FORM = 'true or false'
export function parseBoolean(text: string): boolean {
  if (/^(true|yes|on)$/i.test(text.trim())) return true
  if (/^(false|no|off)$/i.test(text.trim())) return false
  throw new ProblemError({ value: printable(text), form: BOOLEAN_FORM })
}

const PERCENT_FORM = 'a percentage such as 25% or 25'

/** Parses `25%` or `25` (0 to 10000). */
export function parsePercent(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text)
  if (!m || Number(m[1]) > 10_000) throw new ProblemError({ value: printable(text), form: PERCENT_FORM })
  return Number(m[1])
}

/** `text` as one of `words`, case-insensitively. */
export function oneOf<T extends string>(text: string, words: readonly T[]): T {
  const word = text.trim().toLowerCase()
  if (!(words as readonly string[]).includes(word))
    throw new ProblemError({ value: printable(text), form: `one of ${words.join(', ')}` })
  return word as T
}

const ENGINE_FORM = `auto or one of ${ENGINE_NAMES.map(engineInputName).join(', ')}`

export function parseEngine(text: string): Engine {
  const name = text === 'llama.cpp' ? 'llamacpp' : text
  if (!(ENGINE_NAMES as readonly string[]).includes(name))
    throw new ProblemError({ value: printable(text), form: ENGINE_FORM })
  return name as Engine
}

export const CONTAINER_FORM =
  "a container's name or id, as `docker ps` shows it (srv, 3f2c9a…; a service container: ${{ job.services.<id>.id }})"

/** A container's name or id, as the engine accepts them: nothing that could be more of a request's path. */
export function parseContainer(text: string): string | undefined {
  if (text === '') return undefined
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/.test(text))
    throw new ProblemError({ value: printable(text), form: CONTAINER_FORM })
  return text
}

const HOST_FORM = 'an ssh destination such as root@10.1.230.174 or a Host of your ssh config'

/** An ssh destination: nothing ssh could take for an option, no space or control character. */
export function parseHost(text: string): string | undefined {
  if (text === '') return undefined
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.@:[\]%-]{0,254}$/.test(text))
    throw new ProblemError({ value: printable(text), form: HOST_FORM })
  return text
}

export function parsePid(text: string): Server['pid'] {
  if (text === '') return undefined
  if (!/^\d+$/.test(text)) return { file: text }
  const pid = Number(text)
  // Linux caps pid_max at 2^22.
  if (pid < 1 || pid > 4_194_304) throw new ProblemError({ value: printable(text), form: PID_FORM })
  return { pid }
}

/** The most ranks a server may be said to have: the count the log is read for is held to it. */
export const MAX_RANKS = 65_536

const RANKS_FORM = `a whole number of ranks from 1 to ${MAX_RANKS}, such as 16`

/** `ranks`: empty for none. */
export function parseRanks(text: string): number | undefined {
  if (text === '') return undefined
  const n = /^\d{1,6}$/.test(text) ? Number(text) : NaN
  if (!(n >= 1 && n <= MAX_RANKS)) throw new ProblemError({ value: printable(text), form: RANKS_FORM })
  return n
}

const ENV_NAME_FORM = 'comma-separated variable names or globs such as NCCL_*,CUDA_VISIBLE_DEVICES'

export function parseEnvNames(text: string): string[] {
  const names = text
    .split(/[,\n]/)
    .map((n) => n.trim())
    .filter((n) => n !== '')
  const bad = names.find((n) => !/^[A-Za-z_*?][A-Za-z0-9_*?]*$/.test(n))
  if (bad !== undefined)
    throw new ProblemError({ value: printable(bad), problem: 'is not a variable name or glob', form: ENV_NAME_FORM })
  return names
}

const URL_FORM = 'an http:// or https:// URL such as http://localhost:8000/v1/models'

/** A fleet larger than this is more likely a mistake than a deployment. */
const MAX_URLS = 1000

/** One URL per line (blank lines skipped); a fleet's lines are named by number in errors. */
export function parseUrls(text: string): URL[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  if (lines.length > MAX_URLS)
    throw new ProblemError({ problem: `lists ${lines.length} URLs; the limit is ${MAX_URLS}` })
  if (lines.length <= 1) return [parseUrl(lines[0] ?? '')]
  return lines.map((line, i) => {
    try {
      return parseUrl(line)
    } catch (e) {
      if (!(e instanceof ProblemError)) throw e
      throw new ProblemError({ ...e.problem, line: i + 1 }, { cause: e })
    }
  })
}

export function parseUrl(text: string): URL {
  const s = text.trim()
  if (s === '') throw new ProblemError({ problem: 'is required', form: URL_FORM })
  // Messages show the text without any user:password@ part, even when it is not a valid URL.
  const shown = printable(s.replace(/^([a-z][a-z\d+.-]*:\/\/)?.*@/is, '$1***@'))
  // The URL parser would silently drop tabs and line breaks; a URL with them is a mistake or an injection.
  if (hasControlChars(s) || s.includes('\t'))
    throw new ProblemError({ value: shown, problem: 'contains a control character', form: URL_FORM })
  let url: URL
  try {
    url = new URL(s)
  } catch {
    throw new ProblemError({ value: shown, form: URL_FORM })
  }
  // Checked first so that a password never reaches a message.
  if (url.username || url.password) {
    throw new ProblemError({
      problem: 'must not carry credentials (user:password@); pass them with "api-key" or "headers"'
    })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProblemError({ value: shown, form: URL_FORM })
  return url
}
