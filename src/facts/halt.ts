/** Why a wait ends early (a halt), carried to every sleep and request by a `Halter<Halt>`; a stop is of a server. */
import type { Reason } from './answer.js'

/** Why the wait must end now, whatever the server answers: the reason and its explanation. */
export interface Halt {
  reason: Extract<
    Reason,
    'server-exited' | 'log-error' | 'cancelled' | 'port-busy' | 'gpu-busy' | 'wrong-server' | 'leftover-server'
  >
  detail: string
}
