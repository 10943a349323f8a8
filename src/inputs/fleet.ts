/**
 * A fleet of servers: `start`, `pid`, `container` and `log-file` with one line per `url` line, in order, each
 * endpoint's own server. One value (or none) keeps its meaning of one server (or none) for every endpoint, and a
 * single `url` takes `start` whole, a script of as many lines as it likes.
 */
import { InputError, ProblemError } from './input-error.js'
import type { InputName } from './input-names.js'
import type { InputReader } from './input-reader.js'
import { checkLogFile } from './input-files.js'
import { checkStart } from './cross-field-rules.js'
import { parseContainer, parsePid } from './forms.js'
import type { Server } from './settings.js'
import { printable } from '../runtime/text.js'
import type { Platform } from '../runtime/platform.js'

/** The inputs that may name each endpoint's own server, in action.yml's order. */
const PER_ENDPOINT = ['start', 'pid', 'container', 'log-file'] as const

/**
 * A shell statement that starts nothing: a line of a script for one server, not a server of its own (`export A=1`,
 * `cd /srv`, `A=1` alone, a comment).
 */
const STATEMENT = /^(?:(?:export|cd|set|source|unset|ulimit|umask|trap|\.)(?:\s|$)|#|[A-Za-z_][A-Za-z0-9_]*=\S*$)/

/**
 * The entries of an input given one per line: its non-blank lines, trimmed; a line that ends in `\`, `&&`, `||`
 * or `|` goes on to the next one, as in a shell.
 */
export function entryLines(text: string): string[] {
  const lines: string[] = []
  let open = false
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' && !open) continue
    if (open) lines[lines.length - 1] = `${lines[lines.length - 1]}\n${line}`
    else lines.push(line)
    open = /(?:\\|&&|\|\||\|)$/.test(line)
  }
  return lines
}

/**
 * A fleet's servers, one per `url` line, where `start`, `pid`, `container` or `log-file` has one line per `url`
 * line (more than one); undefined for one server (or none) behind every endpoint. Every line is checked as its
 * input checks one value, and an error names its line.
 */
export function readFleet(
  read: InputReader,
  endpoints: number,
  platform: Platform
): Array<Omit<Server, 'targets'>> | undefined {
  if (endpoints < 2) return undefined
  const given = new Map<InputName, string[]>()
  for (const name of PER_ENDPOINT) {
    const text = read.script(name)
    const lines = text === undefined ? [] : entryLines(text)
    if (lines.length > 0) given.set(name, lines)
  }
  const per = [...given].filter(([, lines]) => lines.length > 1)
  if (per.length === 0) return undefined
  for (const [name, lines] of per)
    if (lines.length !== endpoints)
      throw new InputError(name, {
        problem:
          `has ${lines.length} lines and "url" has ${endpoints}: give one line per "url" line, in the same order ` +
          `(line n is the server of url line n), or one line for one server behind every url`
      })
  const [first] = per[0]
  for (const [name] of given)
    if (given.get(name)?.length === 1)
      throw new InputError(name, {
        problem:
          `is one value, and "${first}" has one line per "url" line (a server for each endpoint): give "${name}" ` +
          'one line per "url" line too, or leave it out'
      })
  const starts = given.get('start')
  starts?.forEach((line, i) => {
    if (STATEMENT.test(line))
      throw new InputError('start', {
        line: i + 1,
        value: printable(line),
        problem:
          `starts no server: with one line per "url" line, each line of "start" is one endpoint's server ` +
          `(${endpoints} lines, ${endpoints} servers)`,
        form:
          'one command per line (join a script\'s lines with && or ;, or run a script file), or "start" on one ' +
          'line for one server behind every url'
      })
  })
  checkStart(starts?.[0], platform)
  return Array.from({ length: endpoints }, (_, i): Omit<Server, 'targets'> => {
    const entry = <T>(name: InputName, parse: (line: string) => T): T | undefined => {
      const line = given.get(name)?.[i]
      if (line === undefined) return undefined
      try {
        return parse(line)
      } catch (e) {
        const problem = e instanceof ProblemError ? e.problem : { problem: (e as Error).message }
        throw new InputError(name, { ...problem, line: i + 1 })
      }
    }
    const start = starts?.[i]
    const pid = entry('pid', parsePid)
    const container = entry('container', parseContainer)
    // the container's output, else the started server's, is appended to it: through a link, to wherever it points
    const writer = container !== undefined ? 'container' : start !== undefined ? 'start' : undefined
    const logFile = entry('log-file', (line) => {
      checkLogFile(line, writer)
      return line
    })
    return { start, pid, container, logFile }
  })
}
