/** The titles of the action's annotations, what people scan in the checks list: one per kind of warning or notice. */
export type NoteKind =
  /** The server had answered and stopped: crashed or restarting. */
  | 'server-lost'
  | 'history'
  | 'regression'
  /** The server's environment changed since the previous run. */
  | 'drift'
  | 'insecure-tls'
  | 'gpu-busy'
  | 'smoke'
  | 'throughput-regression'
  | 'model-match'
  /** With the URL alone: whether this job started the server that answered could not be told. */
  | 'server-origin'
  /** Once ready, the model is not (wholly) on the GPUs the server was meant to use. */
  | 'placement'
  /** One server across several nodes: a reported variable differs between nodes. */
  | 'node-env'

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
  'model-match': 'Model matched only partly',
  'server-origin': 'Could not tell which job started the model server',
  placement: 'Model not on the GPU',
  'node-env': "Model server's nodes differ in environment"
}

/** The failure's title: the reason the wait gives, as its output says it (no colon or comma: core escapes them). */
export const failureTitle = (reason: string): string => `Model server not ready (${reason})`
export const INPUT_ERROR_TITLE = 'Invalid input'
export const UNEXPECTED_ERROR_TITLE = 'wait-for-model failed unexpectedly'
export const RUNNER_FILE_TITLE = 'Runner file cannot be written'
