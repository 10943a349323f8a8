/**
 * The action's post step (`runs.post`, `post-if: always()`): stops the server the main step launched with
 * `start`, as `stop: job-end` asks (with `stop: always`, also one given by `pid` or `container`), and says how in
 * the log and the job summary. It never fails the job: a server that outlives SIGKILL, or GPU memory not released
 * in time, is a warning.
 */
import { readCachedHistory, saveHistory } from '../history/actions-cache.js'
import { gpuSnapshot } from '../gpu/nvidia-smi.js'
import {
  type FleetMember,
  fleetMemberText,
  jobEndCancelledText,
  jobEndErrorText,
  jobEndSummary,
  jobEndSummaryErrorText,
  historyNotSavedText,
  NOTHING_TO_STOP,
  refusedStateText,
  stopLines
} from '../report/lifecycle-report.js'
import { logTailTitle } from '../report/markdown.js'
import { summaryBudget, summaryTail } from '../report/summary-budget.js'
import { JobEndStateError, readJobEndState, readServerEndState } from '../server/job-end.js'
import type { JobEnd } from '../server/stop.js'
import { type SavedServer, savedServer } from '../wait/servers/kind.js'
import { systemClock } from '../runtime/clock.js'
import { cancelOnSignals } from '../runtime/halter.js'
import { annotate, info, jobSummary, untrustedGroup } from './github.js'

/**
 * The post step as its entry runs it: whatever goes wrong, in `post` or in a callback of its own (an exception
 * thrown from an event, a rejection no one awaited), is a warning, and the step exits 0: the job-end step never
 * fails the job.
 */
export async function runPost(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const warn = (e: unknown): void => {
    process.exitCode = 0
    try {
      annotate('warning', jobEndErrorText(undefined, e instanceof Error ? e.message : String(e)))
    } catch {
      // nothing left to say it with
    }
  }
  process.on('uncaughtException', warn)
  process.on('unhandledRejection', warn)
  try {
    await post(env)
  } catch (e) {
    warn(e)
  }
  try {
    await saveCached(env)
  } catch (e) {
    warn(e)
  }
  process.exitCode = 0
}

/** The history the main step restored from the Actions cache and appended to, saved; never a failure. */
async function saveCached(env: NodeJS.ProcessEnv): Promise<void> {
  const history = readCachedHistory((env.STATE_history ?? '').trim(), env.RUNNER_TEMP)
  if (history === undefined) return
  const saved = await saveHistory(history)
  if ('saved' in saved) return info(`History saved to the Actions cache as ${saved.saved}.`)
  if ('unchanged' in saved) return
  const line = historyNotSavedText(saved.problem)
  annotate('warning', line)
  if (env.GITHUB_STEP_SUMMARY)
    await (
      await jobSummary()
    )
      .addRaw(`\n> ${line}\n`)
      .write()
      .catch(() => undefined)
}

async function post(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // as core.getState reads what the main step saved
  const get = (name: string): string => (env[`STATE_${name}`] ?? '').trim()
  let states: unknown[]
  try {
    // nothing saved: one server with nothing to stop, which the log's debug lines say
    states = readJobEndState(get)
    if (states.length === 0) states = [null]
  } catch (e) {
    if (e instanceof JobEndStateError) return void annotate('warning', refusedStateText(e))
    throw e
  }
  // A cancel must not leave a server running (Node's default on SIGTERM, SIGINT or SIGHUP is to die at once): the
  // stop goes on without waiting, SIGKILL at once, and says so.
  const { cancel, release } = cancelOnSignals()
  // Each server's stop is said whole, one after another, as it ends: the log's lines and the summary's sections
  // of two servers never mix.
  let said = Promise.resolve()
  const say = (telling: () => Promise<void>): Promise<void> => (said = said.then(telling))
  // the step's summary is every server's section: together under GitHub's 1 MiB, however many and however long
  const summaryPart = summaryBudget()
  /** Server `i`: the main step's entry for it, read back, handed to the stop of its kind. */
  const stopOne = async (i: number): Promise<void> => {
    let server: SavedServer | undefined
    try {
      const state = readServerEndState(states[i], i)
      server = state && savedServer(state)
    } catch (e) {
      // a value the main step did not write: refused whole, nothing signalled, and still no failure of the job
      if (e instanceof JobEndStateError) return void annotate('warning', refusedStateText(e))
      throw e
    }
    if (server === undefined) return void annotate('debug', NOTHING_TO_STOP)
    const member = states.length > 1 ? { n: i + 1, of: states.length } : undefined
    try {
      const end = await server.stop({
        clock: systemClock,
        // nvidia-smi: 5 s at most a snapshot, and none once the step is cancelled (it must end at once)
        gpu: () => gpuSnapshot({ env, timeoutMs: 5_000, signal: cancel.signal }),
        cancel: cancel.signal
      })
      await say(() => tell(end, env, summaryPart, cancel.halted, member))
    } catch (e) {
      annotate('warning', jobEndErrorText(server.pid, (e as Error).message))
    }
  }
  try {
    // a fleet's servers are stopped at the same time: one after another, eight stop timeouts would add up
    // (at most STOPS_AT_ONCE at a time: each reads nvidia-smi, and a fleet may have up to 1000 lines)
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < states.length) await stopOne(next++)
    }
    await Promise.all(Array.from({ length: Math.min(STOPS_AT_ONCE, states.length) }, worker))
  } finally {
    release()
  }
}

/** How many of a fleet's servers are stopped at the same time. */
const STOPS_AT_ONCE = 16

/** How the stop went, in the log and the job summary. */
async function tell(
  end: JobEnd,
  env: NodeJS.ProcessEnv,
  summaryPart: (part: string) => string,
  cancelledBy?: NodeJS.Signals,
  member?: FleetMember
): Promise<void> {
  // of a fleet, each line names whose server it is: eight "Stopped the server's process group N" are no help
  const memberText = member === undefined ? '' : fleetMemberText(member)
  const whose = member === undefined ? '' : `${memberText.charAt(0).toUpperCase()}${memberText.slice(1)}: `
  for (const line of stopLines(end.record)) {
    if (line.level === 'info') info(`${whose}${line.text}`)
    else annotate(line.level, `${whose}${line.text}`)
  }
  if (cancelledBy !== undefined) annotate('warning', jobEndCancelledText(cancelledBy))
  if (end.logTail !== undefined)
    await untrustedGroup(
      logTailTitle(end.logTail, end.logFile),
      end.logTail.map((l) => `${l.number}: ${l.text}`),
      info
    )
  // the stop is done and said: a summary that cannot be written is no failure to stop
  const section = env.GITHUB_STEP_SUMMARY ? summaryPart(jobEndSummary(shortTail(end), cancelledBy, member)) : ''
  if (section !== '')
    await (
      await jobSummary()
    )
      .addRaw(section)
      .write()
      .catch((e: Error) => annotate('warning', jobEndSummaryErrorText(e.message)))
}

/** The stop with as much of its log's tail as a summary shows of one server (the log gets it whole). */
const shortTail = (end: JobEnd): JobEnd =>
  end.logTail === undefined ? end : { ...end, logTail: summaryTail(end.logTail) }
