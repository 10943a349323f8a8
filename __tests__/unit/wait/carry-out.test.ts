import { PassThrough } from 'node:stream'
import { carryOut, type Medium } from '../../../src/wait/carry-out.js'
import { conclude } from '../../../src/wait/conclusion.js'
import type { GateOutcome } from '../../../src/facts/outcome.js'
import type { InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { Halter } from '../../../src/runtime/halter.js'
import { systemClock } from '../../../src/runtime/clock.js'

/** The one order both front ends carry a conclusion out in, told by a medium that writes down what it is asked. */
const url = new URL('http://127.0.0.1:8000/v1/models')
const settings = (inputs: Partial<Record<InputName, string>>) =>
  parseSettings((name) => ({ url: url.href, ...inputs })[name] ?? '')
const timedOut: GateOutcome = (() => {
  const one = { url, ready: false, reason: 'timeout' as const, elapsedMs: 3_000, attempts: 2, models: [], timeline: [] }
  return { ...one, results: [one], server: { logFile: '/tmp/s.log', logTail: [{ number: 7, text: 'CUDA oom' }] } }
})()

function recording(onGroup?: () => void): { medium: Medium; said: string[] } {
  const said: string[] = []
  const medium: Medium = {
    log: (line) => said.push(`log ${line}`),
    finalLine: (line, ready) => said.push(`final ${ready} ${line}`),
    logTail: async (title, lines) => void said.push(`tail ${title}: ${lines.join(' | ')}`),
    group: async (title, body) => {
      said.push(`group ${title}`)
      onGroup?.()
      await body()
    },
    commandOutput: new PassThrough(),
    outputs: async (values, summary) => void said.push(`outputs ${values.reason}`, `summary ${summary().length > 0}`),
    verdict: ({ kind, title }) => void said.push(`${kind} ${title}`)
  }
  return { medium, said }
}

it('the final line, the log tail, the diagnostics, the outputs and the summary, then the verdicts', async () => {
  const s = settings({ diagnostics: 'true', timeout: '3s' })
  const { medium, said } = recording()
  const code = await carryOut(conclude(timedOut, s), s, { cancel: new Halter(), clock: systemClock }, medium)
  expect(code).toBe(1)
  expect(said).toEqual([
    expect.stringMatching(/^final false Not ready after 3\.0s/),
    'tail Last 1 line of /tmp/s.log: 7: CUDA oom',
    'group Diagnostics: true',
    'outputs timeout',
    'summary true',
    'fail Model server not ready (timeout)'
  ])
})

it('a cancel while the diagnostics run: concluded again, its final line, outputs and failure say cancelled', async () => {
  const s = settings({ diagnostics: 'true' })
  const cancel = new Halter<NodeJS.Signals>()
  const { medium, said } = recording(() => cancel.halt('SIGTERM'))
  const code = await carryOut(conclude(timedOut, s), s, { cancel, clock: systemClock }, medium)
  expect(code).toBe(1)
  expect(said.slice(3)).toEqual([
    expect.stringMatching(/^log \(stopped: the job was cancelled\)$/),
    expect.stringMatching(/^final false .*cancelled/),
    'outputs cancelled',
    'summary true',
    'fail Model server not ready (cancelled)'
  ])
})
