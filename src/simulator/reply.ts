/** What the simulated engines answer with: a status, a body and its type, and the phase the engine is in. */

export type Phase = 'loading' | 'ready'
export interface Reply {
  status: number
  /** An object is sent as compact JSON; a string as it is. */
  body?: unknown
  type?: string
}

export const json = (body: unknown, status = 200): Reply => ({ status, body, type: 'application/json' })
export const empty = (status: number): Reply => ({ status })

export const CREATED = 1767225600
