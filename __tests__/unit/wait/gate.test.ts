import { gate } from '../../../src/wait/gate.js'
import type { InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { sandbox } from '../../helpers/sandbox.js'

/** The gate releases what it acquired (a process watch, the log's poll, the port poller) however it ends. */
const box = sandbox('wait-for-model-gate-')

const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length

describe('gate', () => {
  it('leaves no timer behind when it throws after the server watch has started', async () => {
    // `pid` starts polling the process (this one: it runs) and `log-file` the log's poll; the first line after the
    // watch has started (the request headers, on the debug channel) then throws.
    const inputs: Partial<Record<InputName, string>> = {
      url: 'http://127.0.0.1:9/v1/models',
      pid: String(process.pid),
      'log-file': box.path('server.log'),
      'history-file': ''
    }
    const before = timers()
    const lines: string[] = []
    await expect(
      gate(
        parseSettings((name) => inputs[name] ?? ''),
        {
          clock: systemClock,
          log: (l) => lines.push(l),
          debug: () => {
            throw new Error('the debug channel broke')
          }
        }
      )
    ).rejects.toThrow(/the debug channel broke/)
    // it had got as far as watching the process and its log, and beginning the wait
    expect(lines[0]).toBe(`Watching the server process ${process.pid} and its log ${box.path('server.log')}`)
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^Waiting up to /)])
    expect(timers()).toBe(before)
  })
})
