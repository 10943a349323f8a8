/** Where an input's value comes from in the environment: the one mapping from input names to variable names. */

const PREFIX = 'INPUT_'

/** Whether an environment variable carries an input (the runner's or a shell's form). */
export const isInputVariable = (variable: string): boolean => variable.startsWith(PREFIX)

/**
 * The variable the runner sets for an input, as @actions/core's getInput reads it: INPUT_, then the name upper-cased
 * with spaces as underscores and hyphens kept (`match-regex` → INPUT_MATCH-REGEX).
 */
export const inputVariable = (name: string): string => `${PREFIX}${name.replace(/ /g, '_').toUpperCase()}`

/** The form a shell can set, hyphens as underscores (INPUT_MATCH_REGEX): the CLI reads it too. */
export const shellInputVariable = (name: string): string => inputVariable(name).replace(/-/g, '_')
