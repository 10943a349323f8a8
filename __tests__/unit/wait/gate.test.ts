import { gate } from '../../../src/wait/gate.js'
import { type InputName, parseSettings } from '../../../src/inputs/settings.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { sandbox } from '../../helpers/sandbox.js'

/** The gate releases what it acquired (a process watch, the log's poll, the port poller) however it ends. */
const box = sandbox('wait-for-model-gate-')

const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length

describe('gate', () => {
  it('leaves no timer behind when it throws after the server watch has started', async () => {
    // `pid` starts polling the process (this one: it runs); a `log-file` that is a directory then fails to read.
    const inputs: Partial<Record<InputName, string>> = {
      url: 'http://127.0.0.1:9/v1/models',
      pid: String(process.pid),
      'log-file': box.dir(),
      'history-file': ''
    }
    const before = timers()
    const lines: string[] = []
    await expect(
      gate(
        parseSettings((name) => inputs[name] ?? ''),
        { clock: systemClock, log: (l) => lines.push(l) }
      )
    ).rejects.toThrow(/EISDIR/)
    // it had got as far as watching the process
    expect(lines).toEqual([`Watching the server process ${process.pid} and its log ${box.dir()}`])
    expect(timers()).toBe(before)
  })
})
