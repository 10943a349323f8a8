/**
 * Runs a user's `match-regex` on a server's body under a time limit. A JavaScript regular expression can
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
