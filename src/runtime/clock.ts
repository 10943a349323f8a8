/** Time as the core sees it: injected, so that the wait loop runs on a fake clock in tests. */
export interface Clock {
  /** Monotonic. */
  now(): number
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** Milliseconds since the Unix epoch, for dates people read (a history record's `at`); never for durations. */
  wallMs(): number
}

/** process.uptime() counts from the process's start as performance.now() does, without loading node:perf_hooks. */
export const systemClock: Clock = {
  now: () => process.uptime() * 1000,
  wallMs: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve()
      const done = (): void => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, Math.max(0, ms))
      signal?.addEventListener('abort', done, { once: true })
    })
}

/** `850ms`, `12.3s`, `4m05s`, `1h02m`: short, and exact enough to read at a glance. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`
  if (ms < 59_950) return `${seconds(ms)}s`
  const totalS = Math.floor(ms / 1000)
  const h = Math.floor(totalS / 3600)
  const m = Math.floor((totalS % 3600) / 60)
  const s = totalS % 60
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s).padStart(2, '0')}s`
}

/** Seconds with one decimal, as the outputs give them. */
export const seconds = (ms: number): string => (Math.round(ms / 100) / 10).toFixed(1)
