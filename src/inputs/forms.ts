/** The forms of the values only the settings take: URLs, a process id, variable names, an engine, a word of a list. */
import { ProblemError } from './input-error.js'
import { hasControlChars, printable } from '../runtime/text.js'
import { ENGINE_NAMES, type Engine, engineInputName } from '../engines/index.js'
import type { Server } from './settings.js'

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

export const PID_FORM = 'a process id (12345) or the path of a file holding one'

export function parsePid(text: string): Server['pid'] {
  if (text === '') return undefined
  if (!/^\d+$/.test(text)) return { file: text }
  const pid = Number(text)
  // Linux caps pid_max at 2^22.
  if (pid < 1 || pid > 4_194_304) throw new ProblemError({ value: printable(text), form: PID_FORM })
  return { pid }
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
