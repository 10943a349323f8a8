/**
 * Keeps the action's memory flat whatever a server sends: V8's heuristics, tuned for throughput, let garbage pile up
 * and recompile hot code at a cost in memory; a wait loop does little work and can afford to be frugal.
 */
import { setFlagsFromString } from 'node:v8'

const FULL_COLLECTION_MS = 30_000

/**
 * Called by each entry point before the first connection (later, the first turn of the event loop runs without it).
 * - A tiering budget no wait reaches keeps undici's WebAssembly parser on the baseline compiler (`--liftoff-only`
 *   set at run time is ignored on Node 24).
 * - No optimising compilers: compiling the few hot functions costs more memory than the CPU it saves.
 * - A full collection every 30 s: young collections move a little garbage into the old generation, so RSS creeps.
 * - The young generation kept at its first size: V8 doubles it after one large model list, and it stays grown.
 */
export function keepMemoryFlat(): void {
  setFlagsFromString('--wasm-tiering-budget=1000000000')
  setFlagsFromString('--no-turbofan')
  setFlagsFromString('--no-maglev')
  setFlagsFromString('--semi-space-growth-factor=1')
  setInterval(collectGarbage, FULL_COLLECTION_MS).unref()
}

let gc: (() => void) | undefined

function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc')
    // node:vm only now: a wait whose answers stay small never collects, nor loads it
    gc = process.getBuiltinModule('node:vm').runInNewContext('gc') as () => void
  }
  gc()
}

export interface BodyCollector {
  /** A body has arrived and is about to be parsed; the bodies before it are no longer referenced. */
  arrived(bytes: number): void
}

/**
 * One per wait, shared by its HTTP clients (a fleet's answers come at once): once earlier bodies total `afterBytes`,
 * a full collection runs before the next is parsed, since V8 would keep their megabytes for tens of probes.
 */
export function createBodyCollector(afterBytes = 256 * 1024): BodyCollector {
  let pending = 0
  return {
    arrived(bytes) {
      if (pending >= afterBytes) {
        collectGarbage()
        pending = 0
      }
      pending += bytes
    }
  }
}
