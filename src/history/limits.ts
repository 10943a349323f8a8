/**
 * How much the history keeps and averages over. Apart from the store, so that reading the inputs (which checks
 * `median-of`-style bounds against these) does not load the store before the first probe.
 */

/** Runs kept per key. */
export const KEEP_RUNS = 100
/** Ready runs the expected startup is the median of. */
export const MEDIAN_OF = 10
