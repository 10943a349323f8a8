/** The settings of a wait or a check: from the flags, else the INPUT_* variables, else the defaults. */
import type { ParseArgsConfig } from 'node:util'
import { INPUT_DEFAULTS, INPUT_NAMES, INPUTS, type InputName } from '../inputs/input-names.js'
import { parseSettings } from '../inputs/parse-settings.js'
import { type Settings } from '../inputs/settings.js'
import { inputVariable, shellInputVariable } from '../inputs/variables.js'
import { asUsageError } from './usage.js'

/** Every input as a flag, for parseArgs. */
export function inputOptions(): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    INPUT_NAMES.map((name) => [name, { type: 'string', multiple: 'lines' in INPUTS[name] }])
  ) as NonNullable<ParseArgsConfig['options']>
}

/** The inputs a one-shot check takes; the wait's own are refused, so that a health check never ignores them. */
export const CHECK_INPUTS: ReadonlySet<InputName> = new Set(INPUT_NAMES.filter((name) => 'check' in INPUTS[name]))

/** `only`: the inputs read; the others take their defaults. A bad value is bad usage. */
export function settingsFrom(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  only?: ReadonlySet<InputName>
): Settings {
  const flag = (name: InputName): string | undefined => {
    const v = values[name]
    return Array.isArray(v) ? v.join('\n') : typeof v === 'string' ? v : undefined
  }
  try {
    // Like the runner, an input not given takes its default (an empty history-file is history off).
    return parseSettings(
      (name) =>
        only !== undefined && !only.has(name)
          ? INPUT_DEFAULTS[name]
          : (flag(name) ?? envInput(env, name) ?? INPUT_DEFAULTS[name]),
      undefined,
      env
    )
  } catch (e) {
    throw asBadInput(e, values, env)
  }
}

/**
 * An input's error, as bad usage naming the input as the user gave it (a flag, or the INPUT_* variable): also one
 * the wait finds later (a pid file that does not exist, no container engine).
 */
export function asBadInput(e: unknown, values: Record<string, unknown>, env: NodeJS.ProcessEnv): unknown {
  return asUsageError(e, (input) =>
    values[input] === undefined && envInput(env, input) !== undefined ? 'variable' : 'flag'
  )
}

/** The runner's form (INPUT_MATCH-REGEX) first, then the one a shell can set (INPUT_MATCH_REGEX). */
function envInput(env: NodeJS.ProcessEnv, name: string): string | undefined {
  return env[inputVariable(name)] ?? env[shellInputVariable(name)]
}
