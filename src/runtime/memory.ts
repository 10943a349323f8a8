/**
 * Keeps the action's memory flat whatever a server sends. V8's own heuristics are tuned for throughput: they
 * let garbage pile up for tens of megabytes before collecting it, and recompile hot code at a cost of tens of
 * megabytes more. A wait loop does little work and can afford to be frugal.
 */
import { setFlagsFromString } from 'node:v8'

/** How often a long wait collects its garbage in full. */
const FULL_COLLECTION_MS = 30_000

/**
 * Called once by each entry point, before the first connection. Not later, though node:v8 and these settings
 * cost about 1 ms of start-up on Node 24 (timed in a copy of the bundle): called in the first turn of the event
 * loop (`setImmediate`) instead, a fleet of 200 peaked at 111 MB against 97 MB and took 5.3% of a core against
 * 4.4% (`npm run bench -- --only fleet`, Node 20): the first turn, which makes every endpoint's clients, ran
 * before any of the settings below.
 *
 * undici's HTTP parser is WebAssembly; once its functions run hot, V8's optimising compiler recompiles them,
 * which alone took 25-35 MB (Node 20 at the first connection, Node 24 after a few probes). A tiering budget
 * no wait reaches keeps the baseline compiler, fast enough for a body capped at 1 MiB. (The budget is read at
 * each tier-up; `--liftoff-only` set at run time works on Node 20 but not on 24.)
 *
 * The same holds for JavaScript: a 10-minute wait runs the port watch 6,000 times, and once V8's optimising
 * compilers took up its functions, RSS rose by 8 MB (the compilers' own code paged in, their working memory,
 * the code they make) to save a fraction of a millisecond per round. Without them the wait costs the same CPU
 * (about 0.8% of a core either way in `npm run bench`).
 *
 * And each young-generation collection (every few seconds) moves a little garbage into the old generation,
 * which V8 collects only once it has grown past a limit: RSS crept up by a megabyte a minute. A full
 * collection every 30 s, a few milliseconds each, keeps it flat. The timer does not hold the process open.
 *
 * The young generation starts at 1 MB and V8 doubles it, up to 16 MB a half, each time a scavenge finds most of
 * it alive: a 1 MiB body read into 60,000 model entries does that in one probe, and the grown space stays. Kept
 * at its first size (growth factor 1), a 60,000-model list peaked at 80 MB instead of 109 MB; a fleet of ten
 * 1 MiB lists or a list that changes on every probe likewise (measured in hostile-content.e2e.test.ts).
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
 * count came round (the fleet of 10 hostile answers in hostile-content.e2e.test.ts).
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
