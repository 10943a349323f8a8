/**
 * The GitHub layer: inputs in; outputs, summary and failure out. The wait is `gate`'s and what follows it is
 * `conclude`'s: this module only carries the conclusion out with the runner's commands.
 */
import { mkdirSync, mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { cancelOnSignals, type Halter } from '../runtime/halter.js'
import { gate } from '../wait/gate.js'
import { conclude } from '../wait/conclusion.js'
import { carryOut } from '../wait/carry-out.js'
import { defaultHistoryFile, historyKey } from '../history/store.js'
import { type CachedHistory, cachePrefix, HISTORY_NAME, restoreHistory } from '../history/actions-cache.js'
import { ACTIONS_CACHE, type Settings } from '../inputs/settings.js'
import {
  annotate,
  group,
  info,
  jobSummary,
  stateSaver,
  setFailed,
  setOutputs,
  setSecret,
  untrustedGroup
} from './github.js'
import { commandSafe } from '../report/command-safe.js'
import { redact } from '../inputs/secrets.js'
import { INPUT_DEFAULTS, INPUT_NAMES, type InputName } from '../inputs/input-names.js'
import { InputError } from '../inputs/input-error.js'
import { parseSettings } from '../inputs/parse-settings.js'
import { inputVariable, unknownInput } from '../inputs/variables.js'
import { systemClock } from '../runtime/clock.js'
import {
  INPUT_ERROR_TITLE,
  INSECURE_TLS_WARNING,
  NOTE_TITLES,
  type NoteKind,
  RUNNER_FILE_TITLE,
  UNEXPECTED_ERROR_TITLE
} from '../report/annotation-titles.js'
import {
  outputsLostText,
  runnerFileText,
  stateKeptText,
  stateLostStoppedText,
  stateRefusedStartText,
  stopLines,
  summaryLostText,
  historyNotSavedText
} from '../report/lifecycle-report.js'
import {
  JOB_END_STATE_NAME,
  jobEndState,
  readJobEndState,
  readServerEndState,
  serverEndStates,
  stopsAnyAtJobEnd
} from '../server/job-end.js'
import { savedServer } from '../wait/servers/kind.js'
import { gpuSnapshot } from '../gpu/nvidia-smi.js'
import type { ServerFacts } from '../facts/outcome.js'

/**
 * An input as @actions/core's getInput reads it; one missing from the environment (outside a runner) takes its
 * action.yml default, as the runner would give it, and one set to '' stays '' (history-file '' is history off).
 */
const actionInput = (name: InputName): string => (process.env[inputVariable(name)] ?? INPUT_DEFAULTS[name]).trim()

/**
 * The Actions cache's newest entry of this history key, restored into a folder of this step's under RUNNER_TEMP
 * (removed by the runner at the job's end).
 */
async function restoreCached(
  settings: Settings
): Promise<{ history: CachedHistory; path: string } | { problem: string }> {
  const temp = process.env.RUNNER_TEMP
  if (!temp) return { problem: 'History is off: RUNNER_TEMP is not set, where the Actions cache is restored.' }
  const key =
    settings.historyKey ??
    historyKey(
      settings.servers.map((s) => s.targets.map((t) => t.url.href).join('\n')).join('\n'),
      settings.model,
      settings.servers.map((s) => s.start ?? '').join('\n')
    )
  mkdirSync(temp, { recursive: true })
  const restored = await restoreHistory(mkdtempSync(join(temp, 'wait-for-model-history-')), cachePrefix(key))
  return 'problem' in restored
    ? restored
    : { history: restored.history, path: join(restored.history.dir, HISTORY_NAME) }
}

export async function run(): Promise<void> {
  let secrets: string[] = []
  // as core.info writes it, redacted and defused: no secret and no workflow command reaches the log
  const say = (line: string): void => info(commandSafe(redact(line, secrets)))
  // Each kind of warning or notice is annotated once a run, the same kind again goes to the log only: GitHub shows
  // ten warnings a step, and a server that flaps must not crowd out the ones that matter.
  const annotated = new Set<NoteKind>()
  const note = (kind: 'warning' | 'notice', line: string, what: NoteKind): void => {
    if (annotated.has(what)) return say(`${kind}: ${line}`)
    annotated.add(what)
    annotate(kind, commandSafe(redact(line, secrets)), NOTE_TITLES[what])
  }
  // SIGINT, then SIGTERM, when the job is cancelled (SIGHUP when its service goes): the wait ends, reason=cancelled
  const { cancel, release } = cancelOnSignals()
  try {
    // an input action.yml does not declare would be ignored: a typo, or an input this action no longer has
    const unknown = unknownInput(process.env, INPUT_NAMES)
    if (unknown !== undefined) return setFailed(unknown, INPUT_ERROR_TITLE)
    const settings = parseSettings(actionInput, undefined, process.env)
    secrets = settings.secrets
    if (settings.insecureTls) note('warning', INSECURE_TLS_WARNING, 'insecure-tls')

    // The job-end step stops what `start` launched by the state saved here, at once as each server is launched:
    // a runner file that cannot take it refuses the start, as nothing could stop the server afterwards.
    const cached = settings.historyFile === ACTIONS_CACHE ? await restoreCached(settings) : undefined
    const saveNow = stopsAnyAtJobEnd(settings) || cached !== undefined ? await stateSaver() : undefined
    const saveFails = (values: Record<string, string>): string | undefined => {
      try {
        saveNow?.(values)
        return undefined
      } catch (e) {
        return runnerFileText('GITHUB_STATE', process.env.GITHUB_STATE, e)
      }
    }
    const nothingToStop = { [JOB_END_STATE_NAME]: JSON.stringify(settings.servers.map(() => null)) }
    const refused = saveFails(nothingToStop)
    if (refused !== undefined) return setFailed(stateRefusedStartText(refused), RUNNER_FILE_TITLE)
    const launches = launchStates(settings, saveFails, (state) => stopNow(state, cancel, say))
    const outcome = await gate(settings, {
      clock: systemClock,
      // The clock's zero is the process start, so elapsed-seconds counts from the step's start.
      startedAt: 0,
      log: say,
      // Probe lines only when the run has debug logging on, as core.isDebug() tells.
      debug:
        process.env.RUNNER_DEBUG === '1' ? (line) => annotate('debug', commandSafe(redact(line, secrets))) : undefined,
      warn: (line, what) => note('warning', line, what),
      notice: (line, what) => note('notice', line, what),
      cancel,
      defaultHistory: defaultHistoryFile(process.env, 'action'),
      launched: launches.launched,
      cachedHistory: cached && ('problem' in cached ? { notice: cached.problem } : { path: cached.path })
    })
    // the job-end step saves what this run appended to the restored copy
    const historyLost =
      cached !== undefined && 'history' in cached ? saveFails({ history: JSON.stringify(cached.history) }) : undefined
    if (historyLost !== undefined) annotate('warning', historyNotSavedText(historyLost), RUNNER_FILE_TITLE)

    const concluded = conclude(outcome, settings)
    // The post step stops the server at the job end: it learns which one from the runner's state.
    // saved whole after the wait: what was saved at a launch (a container then known only by its name) is replaced
    const lost = saveNow === undefined ? undefined : saveFails(concluded.jobEndState ?? nothingToStop)
    const unsaved = await launches.settled()
    if (unsaved !== undefined) setFailed(stateLostStoppedText(unsaved), RUNNER_FILE_TITLE)
    else if (lost !== undefined) annotate('warning', stateKeptText(lost), RUNNER_FILE_TITLE)
    await carryOut(
      concluded,
      settings,
      { cancel, clock: systemClock },
      {
        log: say,
        finalLine: say,
        // The server wrote these lines: they must not act as workflow commands.
        logTail: (title, lines) => untrustedGroup(title, [...lines], say),
        group: (title, body) => group(redact(title, secrets), body),
        commandOutput: process.stdout,
        async outputs(values, summary) {
          // Registered for the steps after this one; this step's own lines were redacted as they were written.
          secrets.forEach(setSecret)
          // a history the Actions cache could not give is said once, in the summary too
          const off = cached !== undefined && 'problem' in cached ? `\n> ${cached.problem}\n` : ''
          await setOutputs(values).catch((e: unknown) =>
            setFailed(outputsLostText(runnerFileText('GITHUB_OUTPUT', process.env.GITHUB_OUTPUT, e)), RUNNER_FILE_TITLE)
          )
          if (process.env.GITHUB_STEP_SUMMARY)
            await (
              await jobSummary()
            )
              .addRaw(summary() + off)
              .write()
              .catch((e: unknown) =>
                annotate(
                  'warning',
                  summaryLostText(runnerFileText('GITHUB_STEP_SUMMARY', process.env.GITHUB_STEP_SUMMARY, e)),
                  RUNNER_FILE_TITLE
                )
              )
        },
        verdict: ({ kind, message, title }) =>
          kind === 'warn'
            ? annotate('warning', commandSafe(redact(message, secrets)), title)
            : setFailed(commandSafe(redact(message, secrets)), title)
      }
    )
  } catch (e) {
    if (e instanceof InputError) setFailed(e.message, INPUT_ERROR_TITLE)
    else setFailed(redact(`Unexpected error: ${(e as Error).stack ?? String(e)}`, secrets), UNEXPECTED_ERROR_TITLE)
  } finally {
    release()
  }
}

/**
 * The job-end state saved as servers are launched: once for the launches of one tick (a fleet's are launched
 * together; a list of 1000 saved 1000 times would be 150 MB), before any wait goes on. A server whose state the
 * runner's file refused could be stopped by nothing after this step: it is stopped now, and the wait ends on its
 * exit. `settled` waits for those stops and says why the state was refused, if it was.
 */
function launchStates(
  settings: Settings,
  saveFails: (values: Record<string, string>) => string | undefined,
  stop: (state: Record<string, string>) => Promise<void>
): { launched(i: number, facts: ServerFacts): void; settled(): Promise<string | undefined> } {
  const launched: Array<ServerFacts | undefined> = []
  // the servers whose state was saved, or that are being stopped for want of it
  const handled = new Set<number>()
  const stops: Array<Promise<void>> = []
  let unsaved: string | undefined
  let pending = false
  const save = (): void => {
    pending = false
    const state = jobEndState(serverEndStates(settings, (n) => launched[n]))
    const lost = state === undefined ? undefined : saveFails(state)
    if (lost !== undefined) unsaved = lost
    launched.forEach((facts, n) => {
      if (facts === undefined || handled.has(n)) return
      handled.add(n)
      const own =
        lost === undefined ? undefined : jobEndState(serverEndStates(settings, (m) => (m === n ? facts : undefined)))
      if (own !== undefined) stops.push(stop(own))
    })
  }
  return {
    launched: (i, facts) => {
      // A container is known by its name at launch, before its engine says this run created it: a `docker run`
      // refused for a name another job holds must never leave that job's container to be stopped. Saved after the wait.
      if (settings.servers[i].container !== undefined) return
      launched[i] = facts
      if (!pending) process.nextTick(save)
      pending = true
    },
    settled: async () => {
      await Promise.all(stops)
      return unsaved
    }
  }
}

/** The servers of this state stopped now, as the job-end step would, their stops said in the log. */
async function stopNow(
  state: Record<string, string>,
  cancel: Halter<NodeJS.Signals>,
  say: (line: string) => void
): Promise<void> {
  const entries = readJobEndState((name) => state[name] ?? '')
  await Promise.all(
    entries.map(async (entry, i) => {
      const saved = readServerEndState(entry, i)
      if (saved === undefined) return
      const end = await savedServer(saved).stop({
        clock: systemClock,
        gpu: () => gpuSnapshot({ timeoutMs: 5_000, signal: cancel.signal }),
        cancel: cancel.signal
      })
      for (const line of stopLines(end.record)) say(line.text)
    })
  )
}
