/**
 * The job-end half of each kind of server (seam.ts's `JobEndSeam`): the state the main step saved, read back by
 * the kind it belongs to, and that kind's stop. The post step imports this module alone, not process.ts or
 * container.ts: its bundle holds the stops and nothing of the wait.
 */
import { readContainerEndState } from '../../server/container-state.js'
import { stopContainerAtJobEnd } from '../../server/container-stop.js'
import { readJobEndState } from '../../server/job-end.js'
import { stopAtJobEnd } from '../../server/stop.js'
import type { JobEndSeam, SavedServer } from './seam.js'

/** A process `start` launched: signalled by its pid, only while it is still the process recorded at launch. */
const processJobEnd: JobEndSeam = {
  saved: (get) => {
    const state = readJobEndState(get)
    return state && { pid: state.pid, heedsCancel: true, stop: (deps) => stopAtJobEnd(state, deps) }
  }
}

/** A container: stopped through its engine (`docker stop`), never by the pid of its process. */
const containerJobEnd: JobEndSeam = {
  saved: (get) => {
    const state = readContainerEndState(get)
    // a cancel makes the engine kill it at once (stop?t=0, also mid-stop), told as a cancelled stop
    return state && { heedsCancel: true, stop: (deps) => stopContainerAtJobEnd(state, deps) }
  }
}

/**
 * Each kind in the order it is asked: a container first, whose state reads as its own or not at all (it never
 * refuses), then a process, whose state may be refused whole.
 */
const KINDS: readonly JobEndSeam[] = [containerJobEnd, processJobEnd]

/**
 * The server one state names, to the first kind that reads it as its own; undefined when the main step saved
 * none. Throws JobEndStateError for a value not in the form the main step writes.
 */
export function savedServer(get: (name: string) => string): SavedServer | undefined {
  for (const kind of KINDS) {
    const server = kind.saved(get)
    if (server !== undefined) return server
  }
  return undefined
}
