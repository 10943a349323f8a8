/**
 * When the server turned ready, for `startup-seconds` and the end of the startup's last phase: the truth, not the
 * moment a probe happened to go out. The answers bound it: after the last probe that was told "not ready" went
 * out, and by the first answer that said ready. Within those bounds the engine's ready line says when (by its own
 * stamp where it has one); a line from outside them (written before a probe was still told "not ready", a server
 * that says it is ready before it is) yields to the answers.
 */
export function readyMoment({
  readySeenAt,
  notReadySentAt,
  readyLineAt,
  now
}: {
  /** When the answers first said ready; undefined: not ready (the wait ended otherwise). */
  readySeenAt?: number
  /** When the last probe answered "not ready" went out; undefined: the first answer was ready. */
  notReadySentAt?: number
  /** When the engine's ready line was written (see `StartupProfile.readyLineTime`); undefined: not seen. */
  readyLineAt?: number
  /** The wait is over now: the moment for a wait that was not ready. */
  now: number
}): number {
  if (readySeenAt === undefined) return now
  if (readyLineAt === undefined) return readySeenAt
  return Math.min(readySeenAt, Math.max(notReadySentAt ?? -Infinity, readyLineAt))
}
