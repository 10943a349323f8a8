/** No server at all (a URL and a model): nothing to check before, launch, follow, read or release. */
import type { LaunchedServer, ServerSeam } from './seam.js'

const nothing: LaunchedServer = {
  followLog: () => undefined,
  beforeWait: () => undefined,
  whoAnswered: (results) => results,
  afterWait: async () => undefined,
  release: () => undefined
}

export const noServer: ServerSeam = {
  preflight: async () => undefined,
  launch: () => nothing,
  abandon: () => undefined
}
