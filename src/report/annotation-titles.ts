/**
 * The titles of the action's annotations: a run's annotations are read in the checks list, where the title is
 * what people scan. Each warning or notice the gate gives carries its kind; the title comes from here.
 */
export type NoteKind =
  /** The server had answered and stopped: crashed or restarting. */
  | 'server-lost'
  /** The history file: unreadable lines, history off, a run not recorded. */
  | 'history'
  /** Startup slower than the usual one by more than regression-threshold. */
  | 'regression'
  /** The server's environment changed since the previous run. */
  | 'drift'
  | 'insecure-tls'
  /** Before `start`: other processes hold memory on the GPUs the server will use (`gpu-check: warn`). */
  | 'gpu-busy'
  /** The smoke test could not run or stopped (`smoke-test: true`; `fail-on-error` fails instead). */
  | 'smoke'
  /** The smoke test's decode rate lower than the usual one by more than regression-threshold. */
  | 'throughput-regression'
  /** `model` matched a listed id that only contains it. */
  | 'model-match'

/** The warning an `insecure-tls: true` run gives (the action's annotation, the command's warning line). */
export const INSECURE_TLS_WARNING =
  "insecure-tls is on: the server's certificate is not checked, so anything on the way to it could answer in its place"

export const NOTE_TITLES: Readonly<Record<NoteKind, string>> = {
  'server-lost': 'Model server stopped answering',
  history: 'Startup history',
  regression: 'Model server startup slower than usual',
  drift: "Model server's environment changed",
  'insecure-tls': 'TLS certificate checks are off',
  'gpu-busy': 'GPU memory held by other processes',
  smoke: 'Smoke test did not measure throughput',
  'throughput-regression': 'Model server decodes slower than usual',
  'model-match': 'Model matched only partly'
}

/** The failure's title: the reason the wait gives, as its output says it (no colon or comma: core escapes them). */
export const failureTitle = (reason: string): string => `Model server not ready (${reason})`
export const INPUT_ERROR_TITLE = 'Invalid input'
export const UNEXPECTED_ERROR_TITLE = 'wait-for-model failed unexpectedly'
