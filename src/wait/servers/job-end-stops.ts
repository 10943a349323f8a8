/**
 * The job-end half of each kind of server that saves a state (a process, a container): the entry the main step
 * saved, handed to the stop of its kind. The post step imports this module, not process.ts or container.ts: it
 * stops servers and waits for nothing.
 */
import { stopContainerAtJobEnd } from '../../server/container-stop.js'
import type { ServerEndState } from '../../server/job-end.js'
import { stopAtJobEnd } from '../../server/stop.js'
import type { SavedServer } from './seam.js'

export function savedServer(state: ServerEndState): SavedServer {
  // a process `start` launched: signalled by its pid, only while it is still the process recorded at launch
  if (state.kind === 'process') return { pid: state.pid, heedsCancel: true, stop: (deps) => stopAtJobEnd(state, deps) }
  // a container: stopped through its engine (`docker stop`); a cancel makes the engine kill it at once (stop?t=0,
  // also mid-stop), told as a cancelled stop
  return { heedsCancel: true, stop: (deps) => stopContainerAtJobEnd(state, deps) }
}
