import { LogFollower } from '../../../src/server/log-follower.js'
import { startServer } from '../../../src/server/process.js'
import { watchServer } from '../../../src/server/watch.js'
import { systemClock } from '../../../src/runtime/clock.js'
import type { Halt } from '../../../src/facts/halt.js'
import { Halter } from '../../../src/runtime/halter.js'
import { sandbox } from '../../helpers/sandbox.js'

/** The watch over real processes and files: which halt it gives, and why. */
const box = sandbox('wait-for-model-watch-')

const halted = (halter: Halter<Halt>): Promise<Halt | undefined> =>
  new Promise((resolve) =>
    halter.signal.aborted
      ? resolve(halter.halted)
      : halter.signal.addEventListener('abort', () => resolve(halter.halted))
  )

function watchCommand(command: string, failPattern?: RegExp) {
  const file = box.path('server.log')
  const server = startServer(command, file, { PATH: process.env.PATH ?? '' }, systemClock)
  box.pids.push(server.pid)
  const log = new LogFollower(file, 10, { fromStart: true })
  const halter = new Halter<Halt>()
  return { halter, watch: watchServer({ halter, server, log, failPattern, pollMs: 50 }), server, file }
}

describe('watchServer', () => {
  it('gives log-error for a matching line, with its number, while the server still runs', async () => {
    const { halter, watch, server, file } = watchCommand(
      'echo loading; echo "torch.OutOfMemoryError: CUDA out of memory."; exec sleep 30',
      /CUDA out of memory/
    )
    try {
      expect(await halted(halter)).toEqual({
        reason: 'log-error',
        detail: `line 2 of ${file} matches fail-pattern: torch.OutOfMemoryError: CUDA out of memory.`
      })
    } finally {
      watch.close()
      process.kill(-server.pid, 'SIGKILL')
    }
  })

  it('prefers the matching line when the server prints it and exits at once, and says how it exited', async () => {
    const { halter, watch, server } = watchCommand('echo "NCCL error: unhandled system error"; exit 1', /NCCL error/)
    try {
      const halt = await halted(halter)
      expect(halt?.reason).toBe('log-error')
      expect(halt?.detail).toMatch(
        new RegExp(`NCCL error: unhandled system error; the server process ${server.pid} then exited with code 1$`)
      )
    } finally {
      watch.close()
    }
  })

  it('reads all that a server wrote before it exited, not one look of it, before it explains the exit', async () => {
    // 3000 lines in a burst, then the cause, then the exit: a look reads 1000 lines at most
    const { halter, watch, server } = watchCommand(
      'seq 1 3000; echo "NCCL error: unhandled system error"; exit 1',
      /NCCL error/
    )
    try {
      const halt = await halted(halter)
      expect(halt?.reason).toBe('log-error')
      expect(halt?.detail).toMatch(
        new RegExp(`^line 3001 of .*; the server process ${server.pid} then exited with code 1$`)
      )
    } finally {
      watch.close()
    }
  })

  it('gives server-exited when nothing matched, and explains an exit with code 0', async () => {
    const { halter, watch, server } = watchCommand('nohup sleep 1 > /dev/null 2>&1 &', /CUDA out of memory/)
    try {
      expect(await halted(halter)).toEqual({
        reason: 'server-exited',
        detail: `the server process ${server.pid} exited with code 0 ("start" must run the server in the foreground, without & or nohup: the action puts it in the background)`
      })
    } finally {
      watch.close()
    }
  })

  it('gives cancelled when the job is cancelled', async () => {
    const cancel = new Halter<NodeJS.Signals>()
    const halter = new Halter<Halt>()
    const watch = watchServer({ halter, cancel })
    cancel.halt('SIGINT')
    expect(await halted(halter)).toEqual({ reason: 'cancelled', detail: 'the job was cancelled (SIGINT)' })
    watch.close()
  })
})

describe('watchServer with the engine’s known fatal lines', () => {
  it('quotes the cause that follows a bare failure line within the exit grace, whatever the reads split', async () => {
    const file = box.path('cause.log')
    // the failure line, then (after a read has surely seen it alone) the line that says why, then the exit
    const server = startServer(
      'echo "EngineCore failed to start."; sleep 0.08; echo "torch.OutOfMemoryError: CUDA out of memory."; exit 1',
      file,
      { PATH: process.env.PATH ?? '' },
      systemClock
    )
    box.pids.push(server.pid)
    const log = new LogFollower(file, 10, { fromStart: true })
    const seen: Array<{ number: number; text: string; cause: boolean }> = []
    // as the startup profile does: the first line that names a cause, else the first failure
    const readLines = (lines: Array<{ number: number; text: string }>) => {
      for (const l of lines) {
        if (/CUDA out of memory/.test(l.text)) seen.push({ ...l, cause: true })
        else if (/EngineCore failed to start/.test(l.text)) seen.push({ ...l, cause: false })
      }
      const f = seen.find((x) => x.cause) ?? seen[0]
      return f && { line: { number: f.number, text: f.text }, cause: f.cause, engineLabel: 'vLLM' }
    }
    const halter = new Halter<Halt>()
    const watch = watchServer({ halter, server, log, readLines, pollMs: 20 })
    try {
      expect((await halted(halter))?.detail).toMatch(
        /^line 2 of .* is a known fatal vLLM line: torch\.OutOfMemoryError: CUDA out of memory\./
      )
    } finally {
      watch.close()
    }
  })
})
