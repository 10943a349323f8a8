/**
 * Keeps the action's memory flat whatever a server sends. V8's own heuristics are tuned for throughput: they
 * let garbage pile up for tens of megabytes before collecting it, and recompile hot code at a cost of tens of
 * megabytes more. A wait loop does little work and can afford to be frugal.
 */
import { setFlagsFromString } from 'node:v8'

/** How often a long wait collects its garbage in full. */
const FULL_COLLECTION_MS = 30_000

/**
 * Called once by each entry point, before the first connection: set any later, the first turn of the event loop
 * (which makes every endpoint's clients) runs without these settings, and a fleet's memory peaks higher.
 *
 * - A tiering budget no wait reaches keeps undici's WebAssembly parser on the baseline compiler, fast enough for a
 *   body capped at 1 MiB; the optimising one costs tens of megabytes. (`--liftoff-only` set at run time works on
 *   Node 20 but not on 24, as the budget is read at each tier-up.)
 * - No optimising JavaScript compilers: a wait runs the same few functions thousands of times, and compiling them
 *   costs more memory than the CPU it saves.
 * - A full collection every 30 s: each young-generation collection moves a little garbage into the old
 *   generation, which V8 collects only past a limit, so RSS would creep up. The timer does not hold the process open.
 * - The young generation kept at its first size: V8 doubles it each time a scavenge finds most of it alive, as a
 *   large model list does in one probe, and the grown space stays.
 */
export function keepMemoryFlat(): void {
  setFlagsFromString('--wasm-tiering-budget=1000000000')
  setFlagsFromString('--no-turbofan')
  setFlagsFromString('--no-maglev')
  setFlagsFromString('--semi-space-growth-factor=1')
  setInterval(collectGarbage, FULL_COLLECTION_MS).unref()
}

let gc: (() => void) | undefined

/** A full garbage collection now. */
function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc')
    // node:vm only now: a wait whose answers stay small never collects, nor loads it
    gc = process.getBuiltinModule('node:vm').runInNewContext('gc') as () => void
  }
  gc()
}

/** Collects the garbage that answers' bodies leave, before the next body is read into objects. */
export interface BodyCollector {
  /** A body of `bytes` has arrived and is about to be parsed; the bodies before it are no longer referenced. */
  arrived(bytes: number): void
}

/**
 * One per wait, shared by every HTTP client of it. Once earlier bodies total `afterBytes`, a full collection
 * runs before the next one is parsed: a body near the 1 MiB cap leaves several megabytes (its text, its
 * buffers, its parsed JSON) that V8 would otherwise keep until its next full collection, tens of probes later.
 * Shared, because ten servers of a fleet answering at once would each leave theirs before any client's own
 * count came round.
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
