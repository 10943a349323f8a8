import { LogFollower } from '../../../src/server/log-follower.js'
import { startServer } from '../../../src/server/process.js'
import { watchServer } from '../../../src/server/watch.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { type Stop, Stopper } from '../../../src/wait/stop.js'
import { sandbox } from '../../helpers/sandbox.js'

/** The watch over real processes and files: which stop it gives, and why. */
const box = sandbox('wait-for-model-watch-')

const stopped = (stopper: Stopper): Promise<Stop | undefined> =>
  new Promise((resolve) =>
    stopper.signal.aborted
      ? resolve(stopper.stopped)
      : stopper.signal.addEventListener('abort', () => resolve(stopper.stopped))
  )

function watchCommand(command: string, failPattern?: RegExp) {
  const file = box.path('server.log')
  const server = startServer(command, file, { PATH: process.env.PATH ?? '' }, systemClock)
  box.pids.push(server.pid)
  const log = new LogFollower(file, 10, { fromStart: true })
  const stopper = new Stopper()
  return { stopper, watch: watchServer({ stopper, server, log, failPattern, pollMs: 50 }), server, file }
}

describe('watchServer', () => {
  it('gives log-error for a matching line, with its number, while the server still runs', async () => {
    const { stopper, watch, server, file } = watchCommand(
      'echo loading; echo "torch.OutOfMemoryError: CUDA out of memory."; exec sleep 30',
      /CUDA out of memory/
    )
    try {
      expect(await stopped(stopper)).toEqual({
        reason: 'log-error',
        detail: `line 2 of ${file} matches fail-pattern: torch.OutOfMemoryError: CUDA out of memory.`
      })
    } finally {
      watch.close()
      process.kill(-server.pid, 'SIGKILL')
    }
  })

  it('prefers the matching line when the server prints it and exits at once, and says how it exited', async () => {
    const { stopper, watch, server } = watchCommand('echo "NCCL error: unhandled system error"; exit 1', /NCCL error/)
    try {
      const stop = await stopped(stopper)
      expect(stop?.reason).toBe('log-error')
      expect(stop?.detail).toMatch(
        new RegExp(`NCCL error: unhandled system error; the server process ${server.pid} then exited with code 1$`)
      )
    } finally {
      watch.close()
    }
  })

  it('gives server-exited when nothing matched, and explains an exit with code 0', async () => {
    const { stopper, watch, server } = watchCommand('nohup sleep 1 > /dev/null 2>&1 &', /CUDA out of memory/)
    try {
      expect(await stopped(stopper)).toEqual({
        reason: 'server-exited',
        detail: `the server process ${server.pid} exited with code 0 ("start" must run the server in the foreground, without & or nohup: the action puts it in the background)`
      })
    } finally {
      watch.close()
    }
  })

  it('gives cancelled when the job is cancelled', async () => {
    const cancel = new Stopper<NodeJS.Signals>()
    const stopper = new Stopper()
    const watch = watchServer({ stopper, cancel })
    cancel.stop('SIGINT')
    expect(await stopped(stopper)).toEqual({ reason: 'cancelled', detail: 'the job was cancelled (SIGINT)' })
    watch.close()
  })
})
