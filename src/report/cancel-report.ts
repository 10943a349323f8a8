/** The words of a cancelled run: which signal came, and at what point of the run. Text only. */

/** Where the run was when the cancel came: the wait itself is worded by the watch (src/server/watch.ts). */
export type CancelStage = 'before-wait' | 'after-wait' | 'smoke-test' | 'diagnostics'

const AT: Record<CancelStage, string> = {
  'before-wait': 'before the wait began (nothing was started)',
  'after-wait': 'as the wait ended',
  'smoke-test': 'during the smoke test',
  diagnostics: 'while the diagnostics ran'
}

/** `the job was cancelled (SIGTERM) during the smoke test`: the halt's detail, as the watch words a cancelled wait. */
export const cancelledText = (signal: string, stage: CancelStage): string =>
  `the job was cancelled (${signal}) ${AT[stage]}`
