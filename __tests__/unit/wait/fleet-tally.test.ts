import { fleetStops } from '../../../src/wait/fleet-tally.js'
import type { Halt } from '../../../src/facts/halt.js'
import type { TargetOutcome } from '../../../src/facts/outcome.js'
import { Halter } from '../../../src/runtime/halter.js'

const url = (i: number): URL => new URL(`http://127.0.0.1:${8000 + i}/v1/models`)
const halters = (n: number): Array<Halter<Halt>> => Array.from({ length: n }, () => new Halter<Halt>())

describe('the fleet tally: every endpoint must be ready', () => {
  it('the first failure of its own ends the others still waiting, and only those', () => {
    const h = halters(3)
    const stops = fleetStops(h)
    stops.settled(0, { url: url(0), ready: true, reason: 'ready' })
    expect(h.map((x) => x.halted)).toEqual([undefined, undefined, undefined])
    stops.settled(1, { url: url(1), ready: false, reason: 'server-exited' })
    const halt = {
      reason: 'cancelled',
      detail: 'http://127.0.0.1:8001/v1/models can no longer become ready (server-exited)'
    }
    expect(h.map((x) => x.halted)).toEqual([undefined, undefined, halt])
    expect(stops.halted({ url: url(2), halt: h[2].halted } as TargetOutcome)).toBe(true)
    expect(stops.halted({ url: url(1), reason: 'server-exited' } as TargetOutcome)).toBe(false)
  })
  it("a timeout ends nobody else sooner: it is every endpoint's deadline", () => {
    const h = halters(2)
    fleetStops(h).settled(0, { url: url(0), ready: false, reason: 'timeout' })
    expect(h[1].halted).toBeUndefined()
  })
  it('all ready: the last one settles nothing that still waits', () => {
    const h = halters(2)
    const stops = fleetStops(h)
    stops.settled(0, { url: url(0), ready: true, reason: 'ready' })
    stops.settled(1, { url: url(1), ready: true, reason: 'ready' })
    expect(h.map((x) => x.halted)).toEqual([undefined, undefined])
  })
})
