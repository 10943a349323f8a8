/**
 * What the action loads once its first probe is on its way (see src/wait/first-probe.ts): the gate, the
 * conclusion and the job summary, most of the action's own code. One module, so that the bundle has one chunk for
 * them.
 */
export { gate } from '../wait/gate.js'
export { conclude } from '../wait/conclusion.js'
export { concludedSince } from '../wait/cancelled.js'
export { summaryMarkdown } from '../report/summary.js'
export { defaultHistoryFile } from '../history/store.js'
