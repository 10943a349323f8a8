/**
 * Why a wait ends early (a halt): the reason and its explanation, carried to every sleep and request of the wait
 * by a `Halter<Halt>` (src/runtime/halter.ts). "Halt", not "stop": stopping is what `wait-for-model stop` does to a
 * server process (src/server/stop.ts).
 */
import type { Reason } from './answer.js'

/** Why the wait must end now, whatever the server answers: the reason and its explanation. */
export interface Halt {
  reason: Extract<Reason, 'server-exited' | 'log-error' | 'cancelled' | 'port-busy' | 'gpu-busy' | 'wrong-server'>
  detail: string
}
