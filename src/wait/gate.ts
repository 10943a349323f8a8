/** The whole wait, from settings to outcome, shared by every front end (the action, the CLI). */
import type { Settings } from '../inputs/settings.js'
import type { GateOutcome } from '../facts/outcome.js'
import { type GateDeps, withDefaults } from './deps.js'
import { serverSeam, waitWith } from './sequence.js'
import { cancelledBeforeWait } from './cancelled.js'

export async function gate(settings: Settings, gateDeps: GateDeps): Promise<GateOutcome> {
  const deps = withDefaults(gateDeps)
  const { clock } = deps
  const began = clock.now()
  // A fleet of servers, one per endpoint: each endpoint's own wait, loaded only then (a chunk of its own).
  if (settings.servers !== undefined) return (await import('./fleet.js')).fleetGate(settings, deps)
  const seam = await serverSeam(settings, deps)
  const refused = await seam.preflight()
  // A cancel while the pre-flight looked (nvidia-smi may take seconds): nothing is started, nothing probed.
  const early = deps.cancel?.halted
  if (early !== undefined || refused !== undefined) seam.abandon()
  if (early !== undefined) return cancelledBeforeWait(settings, early, clock.now() - (deps.startedAt ?? began))
  if (refused !== undefined) return refused
  return waitWith(seam, settings, deps)
}
