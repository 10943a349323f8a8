import { EventEmitter } from 'node:events'
import { dropOutputToClosedPipes } from '../../../src/runtime/closed-pipes.js'

/** Which stream errors the entry points absorb: a reader gone (EPIPE) only. Real pipes: e2e/pipes.e2e.test.ts. */
const failure = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`write ${code}`), { code })

it('absorbs EPIPE on every stream it is given', () => {
  const streams = [new EventEmitter(), new EventEmitter()]
  dropOutputToClosedPipes(streams)
  for (const s of streams) expect(() => s.emit('error', failure('EPIPE'))).not.toThrow()
})

it('leaves any other write error to fail the run', () => {
  const stream = new EventEmitter()
  dropOutputToClosedPipes([stream])
  expect(() => stream.emit('error', failure('EIO'))).toThrow('write EIO')
  expect(() => stream.emit('error', failure('ENOSPC'))).toThrow('write ENOSPC')
})
