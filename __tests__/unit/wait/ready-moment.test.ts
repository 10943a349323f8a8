import { readyMoment } from '../../../src/wait/server-wait.js'

describe('readyMoment: when the server turned ready, for startup-seconds', () => {
  it('the ready line, by its stamp, when it lies between the last "not ready" and the first "ready"', () => {
    // told "loading" at 800, seen ready at 5,800 (a late probe), the line stamped 2,440: 2,440
    expect(readyMoment({ notReadySentAt: 800, readySeenAt: 5_800, readyLineAt: 2_440, now: 5_810 })).toBe(2_440)
  })

  it('without a ready line: the first answer that said ready, not the end of the wait', () => {
    expect(readyMoment({ notReadySentAt: 800, readySeenAt: 1_000, now: 1_900 })).toBe(1_000)
  })

  it('a line the answers contradict yields to them', () => {
    // the line came, but a probe after it was still told "not ready": ready after that probe went out
    expect(readyMoment({ notReadySentAt: 3_000, readySeenAt: 3_200, readyLineAt: 2_000, now: 3_300 })).toBe(3_000)
    // a line stamped after the answer that said ready (a clock off): the answer
    expect(readyMoment({ notReadySentAt: 800, readySeenAt: 1_000, readyLineAt: 1_500, now: 1_600 })).toBe(1_000)
    // ready at the first answer (a server started long before): the line, however early
    expect(readyMoment({ readySeenAt: 60_000, readyLineAt: 2_000, now: 60_010 })).toBe(2_000)
  })

  it('not ready: now', () => {
    expect(readyMoment({ readyLineAt: 2_000, now: 9_000 })).toBe(9_000)
  })
})
