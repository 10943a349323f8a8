/**
 * What the action loads once its first probe is on its way (see src/wait/first-probe.ts): the gate, the
 * conclusion and its carrying out, most of the action's own code. One module, so that the bundle has one chunk for
 * them.
 */
export { gate } from '../wait/gate.js'
export { conclude } from '../wait/conclusion.js'
export { carryOut } from '../wait/carry-out.js'
export { defaultHistoryFile } from '../history/store.js'
