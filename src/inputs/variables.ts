/** Where an input's value comes from in the environment: the one mapping from input names to variable names. */

const PREFIX = 'INPUT_'

/** Whether an environment variable carries an input (the runner's or a shell's form). */
export const isInputVariable = (variable: string): boolean => variable.startsWith(PREFIX)

/**
 * The variable the runner sets for an input, as @actions/core's getInput reads it: INPUT_, then the name upper-cased
 * with spaces as underscores and hyphens kept (`fail-pattern` → INPUT_FAIL-PATTERN).
 */
export const inputVariable = (name: string): string => `${PREFIX}${name.replace(/ /g, '_').toUpperCase()}`

/** The form a shell can set, hyphens as underscores (INPUT_MATCH_REGEX): the CLI reads it too. */
export const shellInputVariable = (name: string): string => inputVariable(name).replace(/-/g, '_')

/**
 * The first INPUT_* variable that carries no input of `names` (a typo such as `fail-on-regresion`, an input this
 * action no longer has), in words that name the closest input; undefined when every one is known.
 */
export function unknownInput(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[]
): string | undefined {
  const given = Object.keys(env)
    .filter(isInputVariable)
    .map((variable) => variable.slice(PREFIX.length).toLowerCase())
    .find((name) => !names.includes(name))
  if (given === undefined) return undefined
  const closest = names.reduce((best, name) => (distance(given, name) < distance(given, best) ? name : best))
  return `Input "${given}" is not an input of this action (action.yml): did you mean "${closest}"?`
}

/** Edits (insert, delete, replace a character) from `a` to `b`. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length]
}
