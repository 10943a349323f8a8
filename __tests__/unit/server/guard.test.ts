import { type ChildProcess, spawn } from 'node:child_process'
import { bootId, identify, markedProcesses, processGuard, RUN_MARKER } from '../../../src/server/guard.js'
import { procStat } from '../../../src/server/proc.js'
import { sandbox } from '../../helpers/sandbox.js'

/** The guard against real processes: this test's own, its ancestors, and children started with and without a marker. */
const box = sandbox('wfm-guard-')
const marker = 'feedfacefeedfacefeedfacefeedface'

function sleeper(env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { env, stdio: 'ignore' })
  box.pids.push(child.pid as number)
  return child
}

describe('processGuard', () => {
  it('spares this process, its ancestors, pid 1 and the groups they are in; not a child', () => {
    const child = sleeper()
    const guard = processGuard()
    expect(guard.spared(process.pid)).toBe('self')
    expect(guard.spared(process.ppid)).toBe('ancestor')
    expect(guard.spared(1)).toBe('init')
    expect(guard.spared(child.pid as number)).toBeUndefined()
    expect(guard.groupSpared(procStat(process.pid)?.pgrp as number)).toBe(true)
    expect(guard.groupSpared(child.pid as number)).toBe(false)
  })
})

describe('identify', () => {
  it('tells the process recorded at launch from one that holds its pid now', () => {
    const child = sleeper()
    const pid = child.pid as number
    const startTicks = procStat(pid)?.startTicks as number
    expect(identify(pid, { startTicks, bootId: bootId() })).toEqual({ kind: 'same' })
    expect(identify(pid, { startTicks: startTicks - 1 })).toEqual({
      kind: 'reused',
      startTicks,
      expectedTicks: startTicks - 1
    })
    expect(identify(pid, { startTicks, bootId: '00000000-0000-0000-0000-000000000000' })).toEqual({ kind: 'rebooted' })
    expect(identify(pid, {})).toEqual({ kind: 'unchecked' })
    // no /proc: nothing can be checked
    expect(identify(pid, { startTicks }, box.dir())).toEqual({ kind: 'unchecked' })
  })
})

describe('markedProcesses', () => {
  it('finds the processes whose environment carries the marker, and only those', async () => {
    const tagged = sleeper({ ...process.env, [RUN_MARKER]: marker })
    const other = sleeper({ ...process.env, [RUN_MARKER]: `${marker.slice(0, 31)}0` })
    // spawn returns once exec has succeeded: the environments are there to read
    const seen = new Map<string, boolean>()
    const found = markedProcesses(marker, 0, seen)
    expect(found).toContain(tagged.pid)
    expect(found).not.toContain(other.pid)
    // none that started before the server did
    const ticks = procStat(tagged.pid as number)?.startTicks as number
    expect(markedProcesses(marker, ticks + 1, seen)).not.toContain(tagged.pid)
  })
})
