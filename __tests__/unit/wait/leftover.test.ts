import { type Holder, listenerOrigin } from '../../../src/wait/servers/leftover.js'

/** Who started the process that answered, from its tracking id and start time against this step's start. */
const OURS = 'github_this-job'
const STEP = 1_000_000
const holder = (trackingId: string | undefined, startedAt: number | undefined, pid = 42): Holder => ({
  pid,
  command: 'vllm serve kimi',
  environ: trackingId === undefined ? { PATH: '/usr/bin' } : { RUNNER_TRACKING_ID: trackingId },
  startedAt
})

describe('listenerOrigin', () => {
  it("another job's id, started before this step: a leftover, naming the holder", () => {
    const h = holder('github_earlier', STEP - 60_000)
    expect(listenerOrigin([h], OURS, STEP)).toEqual({ kind: 'leftover', holder: h })
  })

  it("this job's id: fine, whenever it started", () => {
    expect(listenerOrigin([holder(OURS, STEP - 60_000)], OURS, STEP)).toEqual({ kind: 'fine' })
    // a forked worker of this job's server beside a holder from elsewhere: the server is this job's
    expect(listenerOrigin([holder('github_earlier', 0, 1), holder(OURS, 5, 2)], OURS, STEP)).toEqual({ kind: 'fine' })
  })

  it('no tracking id (a system service, or one started outside any job): fine', () => {
    expect(listenerOrigin([holder(undefined, STEP - 60_000)], OURS, STEP)).toEqual({ kind: 'fine' })
    expect(listenerOrigin([holder('', STEP - 60_000)], OURS, STEP)).toEqual({ kind: 'fine' })
  })

  it("another job's id, started after this step began: another job beside this one, not told as a leftover", () => {
    expect(listenerOrigin([holder('github_beside', STEP + 10)], OURS, STEP)).toMatchObject({ kind: 'unknown' })
  })

  it('what /proc cannot tell is unknown, with why', () => {
    expect(listenerOrigin([], OURS, STEP)).toEqual({ kind: 'unknown', why: "its process is another user's" })
    const unreadable: Holder = { pid: 7, command: 'x' }
    expect(listenerOrigin([unreadable], OURS, STEP)).toEqual({
      kind: 'unknown',
      why: 'the environment of process 7 cannot be read'
    })
    expect(listenerOrigin([holder('github_earlier', undefined)], OURS, STEP)).toMatchObject({ kind: 'unknown' })
    expect(listenerOrigin([holder('github_earlier', 0)], OURS, undefined)).toMatchObject({ kind: 'unknown' })
  })
})
