/**
 * States waiting cannot change (`wrong-model`, `engine-dead`, generations failing alike: `generation-failed`): each
 * turns the answer that settles it fatal.
 */
import { nearestModel } from '../engines/match.js'
import { DEAD_ANSWERS_IN_A_ROW } from '../engines/readiness.js'
import type { Assessment } from '../facts/answer.js'

export interface WrongModelWatch {
  /** The answer as it stands, or the fatal `wrong-model` one once the list has not changed for long enough. */
  see(assessment: Assessment, now: number): Assessment
}

/**
 * `afterMs` (0: never) of the same list without `model` from an engine that serves only the models it was started
 * with (vLLM, SGLang, TGI, llama.cpp outside router mode); a list that changes starts over.
 */
export function wrongModelWatch(afterMs: number, servesOneModel: () => boolean): WrongModelWatch {
  let since: { at: number; list: string } | undefined
  return {
    see(a, now) {
      const missing = a.answer.missing
      if (afterMs <= 0 || a.state !== 'waiting' || missing?.what !== 'model' || a.models === undefined) {
        since = undefined
        return a
      }
      if (missing.partial !== undefined || a.models.length === 0 || !servesOneModel()) {
        since = undefined
        return a
      }
      const list = JSON.stringify(a.models)
      if (since?.list !== list) since = { at: now, list }
      const forMs = now - since.at
      if (forMs < afterMs) return a
      const serving = a.answer.models ?? a.models
      // the nearest of several names; one listed name is named already
      const nearest = a.models.length > 1 ? nearestModel(a.models, missing.model) : undefined
      const wrongModel = { model: missing.model, serving, nearest, forMs }
      const answer = { ...a.answer, state: 'fatal' as const, missing: undefined, wrongModel }
      return { ...a, state: 'fatal', fatalReason: 'wrong-model', answer }
    }
  }
}

export interface DeadEngineStreak {
  /** After a generation check: the fatal `engine-dead` answer on the third dead-engine error in a row. */
  see(assessment: Assessment, dead: boolean, request: string): Assessment
}

export function deadEngineStreak(): DeadEngineStreak {
  let count = 0
  return {
    see(a, dead, request) {
      count = dead ? count + 1 : 0
      if (count < DEAD_ANSWERS_IN_A_ROW) return a
      const engineDead = { request, by: 'generations' as const, status: a.answer.generation?.answer.status, count }
      return { ...a, state: 'fatal', fatalReason: 'engine-dead', answer: { ...a.answer, state: 'fatal', engineDead } }
    }
  }
}

export interface FailingGenerations {
  /**
   * After each answer: `request` when a generation was sent (the model listed, the engine ready). The fatal
   * `generation-failed` answer once every generation has got the same server error for long enough.
   */
  see(assessment: Assessment, request: string | undefined, now: number): Assessment
}

/**
 * Statuses that say "not yet" or "too busy" rather than an error: a server may answer them while it warms up or
 * sheds load, so they never count as the same failure.
 */
const NOT_YET_STATUSES = new Set([408, 425, 429, 503])

/** One server error as compared: its status and words, with numbers (request ids, times) left out. */
function errorKey(a: Assessment): string | undefined {
  const g = a.answer.generation?.answer
  if (g === undefined || g.state === 'ready' || g.status === undefined || g.error !== undefined) return undefined
  if (g.status < 400 || NOT_YET_STATUSES.has(g.status)) return undefined
  return `${g.status} ${(g.said ?? '').replace(/\d+/g, '#')}`
}

/** `after.ms` and `after.attempts` (whichever comes later) of the same server error from consecutive generations. */
export function failingGenerations(after: { ms: number; attempts: number }): FailingGenerations {
  let since: { at: number; key: string; count: number } | undefined
  return {
    see(a, request, now) {
      const key = request === undefined || a.state !== 'waiting' ? undefined : errorKey(a)
      if (key === undefined || request === undefined) {
        since = undefined
        return a
      }
      since = since?.key === key ? { ...since, count: since.count + 1 } : { at: now, key, count: 1 }
      const forMs = now - since.at
      if (forMs < after.ms || since.count < after.attempts) return a
      const status = a.answer.generation?.answer.status as number
      const generationsFailing = { request, status, forMs, count: since.count }
      return {
        ...a,
        state: 'fatal',
        fatalReason: 'generation-failed',
        answer: { ...a.answer, state: 'fatal', generationsFailing }
      }
    }
  }
}
