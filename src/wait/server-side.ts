/**
 * What only a wait with a server to start or follow, or a server log to read, needs. `gate` imports it then and
 * only then: it is a chunk of the bundle of its own, so a plain wait (a URL, a model) neither compiles nor holds
 * it (about 40 KB of the action's own code; `npm run bench -- --only startup`).
 */
export { envReport } from '../server/env-report.js'
export { gpuSnapshot, memoryHeldBy } from '../gpu/nvidia-smi.js'
export { LogFollower } from '../server/log-follower.js'
export { isDockerProxy, listenerOwnership, localPort, processTree } from '../server/port-owner.js'
export { preflight, preflightVerdict } from '../server/preflight.js'
export { attachServer, newLogFile, resolvePid, serverEnv, startServer } from '../server/process.js'
