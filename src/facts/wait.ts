/** One endpoint's wait as data: what the loop tells while it waits (events) and what it ends with (an outcome). */
import type { Answer, Assessment, Reason } from './answer.js'
import type { Halt } from './halt.js'

export type WaitEvent =
  /** The server's answer differs from the previous one (the first answer is a change too). */
  | { type: 'change'; elapsedMs: number; attempt: number; assessment: Assessment }
  /** It had answered over HTTP and now does not: crashed or restarting. */
  | { type: 'lost'; elapsedMs: number; attempt: number; assessment: Assessment }
  /** Nothing changed for a while (FIXED.progressIntervalMs). */
  | { type: 'progress'; elapsedMs: number; attempt: number; assessment: Assessment }

export interface TimelineEntry {
  elapsedMs: number
  /** The answer that changed here, as the report words it (see `keptAnswer` in src/wait/loop.ts). */
  answer: Answer
  /** The server had answered before and stopped answering here. */
  lost?: boolean
  /** How many changes before this one were left out (see TIMELINE_ENDS). */
  dropped?: number
}

export interface Outcome {
  ready: boolean
  reason: Reason
  elapsedMs: number
  attempts: number
  last?: Assessment
  /** The model ids the server last listed. */
  models: string[]
  firstResponseMs?: number
  /** Latency of the generation request that proved readiness (`probe-generation`). */
  generationMs?: number
  /** Set when the wait was halted (server exited, log error, cancelled). */
  halt?: Halt
  /** The engine's own readiness route (`SGLang GET /health`): when the model was listed, and when it said ready. */
  engineReadiness?: { request: string; listedMs?: number; readyMs?: number }
  timeline: TimelineEntry[]
  /** On the clock's scale: it turned ready after the last "not ready" probe went out, by the first ready answer. */
  readySeenAt?: number
  notReadySentAt?: number
}
