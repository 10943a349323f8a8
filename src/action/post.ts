/**
 * The action's post step (`runs.post`, `post-if: always()`): stops the server the main step launched with
 * `start`, as `stop: job-end` asks, and says how in the log and the job summary. It never fails the job: a server
 * that outlives SIGKILL, or GPU memory not released in time, is a warning.
 */
import { gpuSnapshot } from '../gpu/nvidia-smi.js'
import {
  jobEndErrorText,
  jobEndSummary,
  jobEndSummaryErrorText,
  NOTHING_TO_STOP,
  stopLines
} from '../report/lifecycle-report.js'
import { logTailTitle } from '../report/markdown.js'
import { readJobEndState } from '../server/job-end.js'
import { readContainerEndState } from '../server/container-state.js'
import { stopContainerAtJobEnd } from '../server/container-stop.js'
import { stopAtJobEnd } from '../server/stop.js'
import { systemClock } from '../runtime/clock.js'
import { annotate, info, jobSummary, untrustedGroup } from './github.js'

export async function post(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // as core.getState reads what the main step saved
  const get = (name: string): string => (env[`STATE_${name}`] ?? '').trim()
  const state = readJobEndState(get)
  const container = readContainerEndState(get)
  if (state === undefined && container === undefined) return void annotate('debug', NOTHING_TO_STOP)
  try {
    const deps = { clock: systemClock, gpu: () => gpuSnapshot({ env, timeoutMs: 5_000 }) }
    // a container through its engine; a process by its pid
    const end =
      container !== undefined
        ? await stopContainerAtJobEnd(container, deps)
        : await stopAtJobEnd(state as NonNullable<typeof state>, deps)
    for (const line of stopLines(end.record)) {
      if (line.level === 'info') info(line.text)
      else annotate(line.level, line.text)
    }
    if (end.logTail !== undefined)
      await untrustedGroup(
        logTailTitle(end.logTail, end.logFile),
        end.logTail.map((l) => `${l.number}: ${l.text}`),
        info
      )
    // the stop is done and said: a summary that cannot be written is no failure to stop
    if (env.GITHUB_STEP_SUMMARY)
      await (
        await jobSummary()
      )
        .addRaw(jobEndSummary(end))
        .write()
        .catch((e: Error) => annotate('warning', jobEndSummaryErrorText(e.message)))
  } catch (e) {
    annotate('warning', jobEndErrorText(state?.pid, (e as Error).message))
  }
}
