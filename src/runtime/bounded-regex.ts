/**
 * Runs a user's `match` and `fail-pattern` under a time limit: a regular expression can backtrack for ever
 * (`^(a+)+$` on `aaaa…b`) and no static check catches every one, but `vm`'s timeout interrupts a running match.
 */
import type { Context, Script } from 'node:vm'

/** Made at the first match: a wait with no pattern never pays for them. */
let made: { script: Script; context: Context; findScript: Script; findContext: Context } | undefined
function sandboxes(): NonNullable<typeof made> {
  if (made === undefined) {
    const { createContext, Script } = process.getBuiltinModule('node:vm')
    made = {
      script: new Script('re.test(text)'),
      context: createContext({ re: undefined, text: '' }),
      findScript: new Script('for (at = 0; at < texts.length; at++) if (re.test(texts[at])) break; at'),
      findContext: createContext({ re: undefined, texts: [] as readonly string[], at: 0 })
    }
  }
  return made
}

/** Whether `re` matches `text`; undefined when the match ran out of time. */
export function testWithin(re: RegExp, text: string, limitMs: number): boolean | undefined {
  const { script, context } = sandboxes()
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

/** The first of `texts` that `re` matches (-1: none), or where it ran out of its one limit for the whole batch. */
export function findWithin(re: RegExp, texts: readonly string[], limitMs: number): number | { outOfTimeAt: number } {
  if (texts.length === 0) return -1
  const { findScript, findContext } = sandboxes()
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
