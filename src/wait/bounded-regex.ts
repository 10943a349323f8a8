/**
 * Runs a user's `match-regex` on a server's body, and `fail-pattern` on log lines, under a time limit. A JavaScript regular expression can
 * backtrack for longer than the universe lasts (`^(a+)+$` on `aaaa…b`), and no static check catches every
 * such pattern; V8 can interrupt a running match, though, and `vm`'s timeout does exactly that. The text is
 * the probe's body, which is never over 1 MiB.
 */
import { createContext, Script } from 'node:vm'

const script = new Script('re.test(text)')
const context = createContext({ re: undefined, text: '' })

/** Whether `re` matches `text`; undefined when the match ran out of time. */
export function testWithin(re: RegExp, text: string, limitMs: number): boolean | undefined {
  context.re = re
  context.text = text
  try {
    return script.runInContext(context, { timeout: Math.max(1, Math.ceil(limitMs)) }) === true
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined
    throw e
  } finally {
    context.re = undefined
    context.text = ''
  }
}

const findScript = new Script('for (at = 0; at < texts.length; at++) if (re.test(texts[at])) break; at')
const findContext = createContext({ re: undefined, texts: [] as readonly string[], at: 0 })

/**
 * The index of the first of `texts` that `re` matches (-1 for none), or `{ outOfTimeAt }`: the index of the text
 * the match was on when `limitMs` ran out. One limit for the whole batch, so that a tick of the log watch stays short.
 */
export function findWithin(re: RegExp, texts: readonly string[], limitMs: number): number | { outOfTimeAt: number } {
  if (texts.length === 0) return -1
  findContext.re = re
  findContext.texts = texts
  findContext.at = 0
  try {
    const at = findScript.runInContext(findContext, { timeout: Math.max(1, Math.ceil(limitMs)) }) as number
    return at < texts.length ? at : -1
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      return { outOfTimeAt: findContext.at as number }
    throw e
  } finally {
    findContext.re = undefined
    findContext.texts = []
  }
}
