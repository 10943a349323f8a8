import { closeSync, readFileSync, symlinkSync, writeFileSync, writeSync } from 'node:fs'
import { openServerLog } from '../../../src/server/process.js'
import { sandbox } from '../../helpers/sandbox.js'

/**
 * The log a container's output is appended to (issue 26 item 4): never opened through a symbolic link, even one
 * planted after the inputs were checked; a file of its own is appended to, its earlier lines kept.
 */
const box = sandbox('wfm-container-log-')

describe('openServerLog', () => {
  it('refuses a symbolic link with an input error naming log-file, and writes nothing through it', () => {
    const victim = box.path('victim.txt')
    writeFileSync(victim, 'not yours\n')
    const link = box.path('container.log')
    symlinkSync(victim, link)
    expect(() => openServerLog(link)).toThrow(
      new RegExp(`^Input "log-file": ".*container\\.log" cannot be written \\(.*is a symbolic link`)
    )
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
  })

  it('appends to a file of its own, from the size it had', () => {
    const path = box.path('logs', 'container.log')
    const first = openServerLog(path)
    expect(first.offset).toBe(0)
    writeSync(first.fd, 'earlier run\n')
    closeSync(first.fd)
    const again = openServerLog(path)
    expect(again.offset).toBe('earlier run\n'.length)
    writeSync(again.fd, 'this run\n')
    closeSync(again.fd)
    expect(readFileSync(path, 'utf8')).toBe('earlier run\nthis run\n')
  })
})
