import { execFileSync } from 'node:child_process'
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readSmallFile } from '../../../src/runtime/own-files.js'

/** readSmallFile: a small file another process wrote (a pid file), read whole, never blocking nor unbounded. */
describe('readSmallFile', () => {
  let dir = ''
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'wfm-own-files-'))))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('reads a small regular file whole', () => {
    writeFileSync(join(dir, 'server.pid'), '4242\n')
    expect(readSmallFile(join(dir, 'server.pid'), 4096)).toBe('4242\n')
  })

  it('refuses a FIFO without blocking, a device, a directory and a file over the bound, saying which', () => {
    const fifo = join(dir, 'fifo')
    execFileSync('mkfifo', [fifo])
    const big = join(dir, 'big')
    const fd = openSync(big, 'w')
    ftruncateSync(fd, 4097)
    closeSync(fd)
    expect(() => readSmallFile(fifo, 4096)).toThrow('it is a FIFO, not a regular file')
    expect(() => readSmallFile('/dev/zero', 4096)).toThrow('it is a character device, not a regular file')
    expect(() => readSmallFile(dir, 4096)).toThrow('it is a directory, not a regular file')
    expect(() => readSmallFile(big, 4096)).toThrow('it is 4097 bytes; at most 4096 are read')
  })
})
