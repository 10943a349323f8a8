import { fleetTally } from '../../../src/wait/fleet-tally.js'

const url = (i: number): URL => new URL(`http://127.0.0.1:${8000 + i}/v1/models`)

describe('the fleet tally (fleet-min-ready)', () => {
  it('all must be ready (the default): the first failure of its own ends the others', () => {
    const t = fleetTally(3, 3)
    expect(t.settled(url(0), true, 'ready')).toBeUndefined()
    expect(t.settled(url(1), false, 'server-exited')).toEqual({
      reason: 'cancelled',
      detail: 'http://127.0.0.1:8001/v1/models can no longer become ready (server-exited)'
    })
    expect(t.ready).toBe(false)
  })
  it("a timeout ends nobody else sooner: it is every endpoint's deadline", () => {
    const t = fleetTally(2, 2)
    expect(t.settled(url(0), false, 'timeout')).toBeUndefined()
  })
  it('7 of 8: one failure is borne, the seventh ready one ends the wait for the eighth', () => {
    const t = fleetTally(8, 7)
    expect(t.settled(url(2), false, 'log-error')).toBeUndefined()
    for (let i = 0; i < 6; i++) expect(t.settled(url(i + 3), true, 'ready')).toBeUndefined()
    expect(t.ready).toBe(false)
    expect(t.settled(url(9), true, 'ready')).toEqual({
      reason: 'cancelled',
      detail: 'not waited for any longer: 7 of 8 endpoints are ready (fleet-min-ready: 7)'
    })
    expect(t.ready).toBe(true)
  })
  it('7 of 8: a second failure leaves too few, and ends the others at once; a timeout before it counts too', () => {
    const t = fleetTally(8, 7)
    expect(t.settled(url(1), false, 'timeout')).toBeUndefined()
    expect(t.settled(url(2), false, 'server-exited')?.detail).toBe(
      'http://127.0.0.1:8002/v1/models can no longer become ready (server-exited): 2 of 8 endpoints have failed, ' +
        'so fewer than fleet-min-ready (7) can be ready'
    )
  })
  it('all ready: the last one settles nothing that still waits', () => {
    const t = fleetTally(2, 2)
    expect(t.settled(url(0), true, 'ready')).toBeUndefined()
    expect(t.settled(url(1), true, 'ready')).toBeUndefined()
    expect(t.ready).toBe(true)
  })
})
