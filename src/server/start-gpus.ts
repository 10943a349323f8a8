/**
 * The GPUs a `start` command pins its server to, read from the command itself, for the pre-flight's `gpu-check`:
 * a fleet of one server per GPU starts each with its own `CUDA_VISIBLE_DEVICES=N` (or `docker run --gpus
 * device=N`), and each server's check is of its GPUs, not of the step's. Undefined: the command does not say (the
 * step's CUDA_VISIBLE_DEVICES, else every GPU, as before).
 */

/**
 * `CUDA_VISIBLE_DEVICES=…` among the assignments that begin a command (after `env` and its options, or `export`).
 * Written so that each character can be read one way only: a `start` is an input of up to 64 KiB, and a pattern
 * that could split `A='' A='' …` in two ways at each word would take exponential time on one that does not match.
 * An assignment's value stops at `;`, `&` or `|`, so that each try ends at the next command.
 */
const VALUE = `(?:'[^']*'|"[^"]*"|[^\\s'";&|])*`
const ASSIGNED = new RegExp(
  `(?:^|[;&|(]\\s*|\\n\\s*)(?:export\\s+|env\\s+(?:-\\S+\\s+(?:[A-Za-z_][A-Za-z0-9_]*\\s+)?)*)?` +
    `(?:[A-Za-z_][A-Za-z0-9_]*=${VALUE}\\s+)*CUDA_VISIBLE_DEVICES=('[^']*'|"[^"]*"|[^\\s;&|]*)`
)

/** `docker run … --gpus device=1,2` (also `--gpus=…`, `'"device=1,2"'`), the engine's own way to pin a container. */
const DOCKER_GPUS = /\s--gpus(?:=|\s+)(?:'"?|"'?)?device=([0-9A-Za-z,-]+)/

const unquoted = (text: string): string => text.replace(/^(['"])(.*)\1$/, '$2')

export function startGpus(start: string | undefined): string | undefined {
  if (start === undefined) return undefined
  const assigned = ASSIGNED.exec(start)
  if (assigned !== null) return unquoted(assigned[1])
  const docker = DOCKER_GPUS.exec(start)
  return docker === null ? undefined : docker[1]
}

/** The environment the pre-flight reads the server's GPUs from: the step's, with the command's own pin where it has one. */
export function withStartGpus(env: NodeJS.ProcessEnv, start: string | undefined): NodeJS.ProcessEnv {
  const gpus = startGpus(start)
  return gpus === undefined ? env : { ...env, CUDA_VISIBLE_DEVICES: gpus }
}
