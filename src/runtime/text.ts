/**
 * Text helpers for the words of others (a server's body, an input's value): one line, no control characters, a
 * bounded length, and never a view that keeps the whole text it was cut from alive.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g

/** The one control-character rule (C0 and DEL). */
export function hasControlChars(text: string, allowed = '\t'): boolean {
  for (const [c] of text.matchAll(CONTROL)) if (!allowed.includes(c)) return true
  return false
}

const controlToSpace = (text: string): string => text.replace(CONTROL_RUN, ' ')
const CONTROL_RUN = new RegExp(`${CONTROL.source}+`, 'g')

export function printable(text: string, max = 80): string {
  const shown = JSON.stringify(text)
    .slice(1, -1)
    .replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return shown.length > max ? `${shown.slice(0, max)}…` : shown
}

/** The server's words on one line, at most `max` characters. */
export function clip(text: string, max = 120): string {
  // cut before cleaning: a body can be 1 MiB on one line, and a copy of it per probe adds up
  const clean = controlToSpace(text.slice(0, 2 * max))
  return detached(clean.length > max ? `${clean.slice(0, max)}…` : clean)
}

/** V8 makes a slice of 13 characters or more a view of its parent: an excerpt kept would keep a 1 MiB body alive. */
export function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string
}

/** A body in a few words: a JSON error's message, an HTML page's title, or its first line. */
export function describeBody(body: string, contentType: string, json: unknown): string {
  const text = body.trimStart().slice(0, 8192).trimEnd()
  if (text === '') return ''
  const said = jsonMessage(json)
  if (said !== undefined) return clip(said)
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text.slice(0, 4096))
  if (title) return clip(title[1].trim())
  if (/html/i.test(contentType) || text.startsWith('<')) return '(an HTML page)'
  return clip(text.split(/\r?\n/, 1)[0])
}

function jsonMessage(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
  const o = json as Record<string, unknown>
  for (const key of ['error', 'message', 'detail', 'reason', 'status']) {
    const v = o[key]
    if (typeof v === 'string' && v !== '') return v
    if (typeof v === 'object' && v !== null) {
      const inner = jsonMessage(v)
      if (inner !== undefined) return inner
    }
  }
  return undefined
}
