import { readFileSync } from 'node:fs'
import { envReport } from '../../../src/server/env-report.js'
import { ncclText } from '../../../src/report/progress.js'
import {
  NcclLines,
  ncclVariables,
  ncclVariableText,
  ncclJoined,
  ranges,
  setInside,
  unconfirmed
} from '../../../src/server/nccl-log.js'

const fixture = (name: string): string[] =>
  readFileSync(new URL(`../../fixtures/nccl/${name}`, import.meta.url), 'utf8').split('\n')

const read = (lines: readonly string[]): ReturnType<NcclLines['view']> => {
  const nccl = new NcclLines()
  lines.forEach((l) => nccl.line(l))
  return nccl.view()
}

describe("NCCL's own lines (NCCL_DEBUG=INFO)", () => {
  it("a log made from NCCL 2.21.5's format strings: the version, each rank, what each took", () => {
    const view = read(fixture('nccl-2.21.5-synthetic-from-source.log'))
    expect(view?.version).toBe('2.21.5+cuda12.4')
    expect(view?.processes.map((p) => [p.rank, p.nranks, p.pid, p.host])).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((r) => [r, 8, 1301 + r, 'gpu-node-7'])
    )
    expect(view?.processes[3].env).toEqual({
      NCCL_SOCKET_IFNAME: 'eth0',
      // param.cc's "%lld." ends in a full stop that is not the value's
      NCCL_IB_DISABLE: '1',
      NCCL_PROTO: 'LL',
      NCCL_ALGO: 'Ring'
    })
    expect(ncclVariables(view!).map(ncclVariableText)).toEqual([
      'NCCL_ALGO=Ring in ranks 0–7',
      'NCCL_IB_DISABLE=1 in ranks 0–7',
      'NCCL_PROTO=LL in ranks 0–7',
      'NCCL_SOCKET_IFNAME=eth0 in ranks 0–7'
    ])
  })

  it("NCCL 2.30's `%s comm %p …` and a prefix before the host (a launcher's, a timestamp); other lines are not NCCL's word", () => {
    const view = read([
      '[2026-12-06 17:00:01] node1:500:510 [1] NCCL INFO NCCL_PROTO set by environment to Simple',
      'node1:500:510 [1] NCCL INFO ncclCommInitRankConfig comm 0x7f00 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x1 - Init COMPLETE',
      // a smaller communicator of the same process does not change its rank
      'node1:500:510 [1] NCCL INFO ncclCommSplit comm 0x7f10 rank 0 nranks 1 cudaDev 1 nvmlDev 1 busId 2a000 parent 0x7f00 splitCount 1 color 0 key 0 - Init COMPLETE',
      'node1:499:499 [0] NCCL INFO ncclCommInitRankConfig comm 0x7e00 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1 - Init COMPLETE',
      'echo NCCL_PROTO set by environment to LL',
      'node1:501:501 [0] NCCL WARN NCCL_ALGO set by environment to Tree'
    ])
    expect(view?.processes.map((p) => [p.rank, p.pid, p.env])).toEqual([
      [0, 499, {}],
      [1, 500, { NCCL_PROTO: 'Simple' }]
    ])
    expect(ncclVariables(view!).map(ncclVariableText)).toEqual(['NCCL_PROTO=Simple in rank 1; not said by rank 0'])
  })

  it('no NCCL line: nothing to say', () => {
    expect(read(['INFO vLLM API server', 'Loading safetensors checkpoint shards: 1 Completed'])).toBeUndefined()
  })

  it('a flood of NCCL lines is held to a bound', () => {
    const nccl = new NcclLines()
    for (let pid = 1; pid <= 3000; pid++)
      nccl.line(`h:${pid}:${pid} [0] NCCL INFO NCCL_P${pid} set by environment to 1.`)
    for (let i = 0; i < 1000; i++) nccl.line(`h:1:1 [0] NCCL INFO NCCL_X${i} set by environment to ${'v'.repeat(500)}`)
    const view = nccl.view()!
    expect(view.processes).toHaveLength(1024)
    expect(Object.keys(view.processes[0].env)).toHaveLength(200)
    expect(Object.values(view.processes[0].env)[1]).toHaveLength(200)
  })

  it("env-report's NCCL variables no line confirms; NCCL_DEBUG is proven by the lines themselves", () => {
    const view = read(fixture('nccl-2.21.5-synthetic-from-source.log'))!
    expect(
      unconfirmed(
        new Set(['NCCL_PROTO', 'NCCL_IB_HCA', 'NCCL_DEBUG', 'NCCL_DEBUG_SUBSYS', 'HF_HOME', 'NCCL_ALGO']),
        view
      )
    ).toEqual(['NCCL_IB_HCA'])
  })

  it('numbers as runs', () => {
    expect(ranges([1308, 1301, 1302, 1303, 1305, 1305])).toBe('1301–1303, 1305, 1308')
    expect(ranges([0])).toBe('0')
  })

  it("what NCCL took that a worker's environment at start did not hold; only for reported names, never a credential", () => {
    const view = read([
      'h:11:11 [0] NCCL INFO NCCL_PROTO set by environment to LL',
      'h:11:11 [0] NCCL INFO NCCL_ALGO set by environment to Ring',
      'h:11:11 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.',
      'h:11:11 [0] NCCL INFO NCCL_TOKEN_X set by environment to abc',
      'h:12:12 [1] NCCL INFO NCCL_PROTO set by environment to LL',
      // a process nvidia-smi did not show: nothing known of its start
      'h:13:13 [2] NCCL INFO NCCL_PROTO set by environment to LL'
    ])!
    const patterns = ['NCCL_PROTO', 'NCCL_ALGO', 'NCCL_TOKEN_*']
    const workers = [
      { pid: 11, env: envReport(patterns, { NCCL_ALGO: 'Ring', NCCL_TOKEN_X: 'other' }) },
      { pid: 12, env: envReport(patterns, { NCCL_PROTO: 'LL' }) }
    ]
    expect(setInside(patterns, view, workers).map((s) => [s.name, s.value, s.by.map((p) => p.pid)])).toEqual([
      ['NCCL_PROTO', 'LL', [11]]
    ])
  })
})

describe('a real capture: NCCL 2.28.9 on one H100, one rank', () => {
  const lines = fixture('nccl-2.28.9-h100-one-rank.log')

  it('its version, its one process and what NCCL says it took (no tuning with one rank: no NCCL_PROTO, NCCL_ALGO)', () => {
    const view = read(lines)
    expect(view?.version).toBe('2.28.9+cuda13.0')
    expect(view?.processes).toEqual([
      {
        host: 'vm',
        pid: 520,
        rank: 0,
        nranks: 1,
        env: { NCCL_SOCKET_IFNAME: 'lo', NCCL_IB_DISABLE: '1', NCCL_NVLS_ENABLE: '0' }
      }
    ])
    // set in its environment, never said taken: the one-rank group read neither
    expect(unconfirmed(new Set(['NCCL_PROTO', 'NCCL_ALGO', 'NCCL_IB_DISABLE', 'NCCL_DEBUG']), view!)).toEqual([
      'NCCL_ALGO',
      'NCCL_PROTO'
    ])
  })

  it('the report says why a group of one rank confirms neither, and only then', () => {
    const view = read(lines)!
    const unsaid = unconfirmed(new Set(['NCCL_PROTO', 'NCCL_ALGO']), view)
    expect(ncclText({ nccl: { ...view, unconfirmed: unsaid } })?.lines.at(-1)).toBe(
      'Every NCCL group here has one rank: NCCL runs no tuning then, and never reads NCCL_ALGO or NCCL_PROTO.'
    )
    const two = { ...view, processes: view.processes.map((p) => ({ ...p, nranks: 2 })) }
    expect(ncclText({ nccl: { ...two, unconfirmed: unsaid } })?.lines.at(-1)).toMatch(/^Not confirmed by NCCL/)
  })

  it("a launcher's `[rank3]:` before NCCL's prefix (torchrun --tee) is not taken for the host", () => {
    const line = `[rank3]:${lines.find((l) => l.endsWith('- Init COMPLETE'))}`
    expect(ncclJoined(line)).toBe('vm:520:0')
    expect(read([line])?.processes[0]).toMatchObject({ host: 'vm', pid: 520, rank: 0 })
  })

  it('one GPU joined: Init COMPLETE counts, Init START, Destroy COMPLETE and the timings line do not', () => {
    expect(lines.map(ncclJoined).filter((k) => k !== undefined)).toEqual(['vm:520:0'])
    expect(lines.filter((l) => / Init START$| Destroy COMPLETE$|Init timings/.test(l))).toHaveLength(3)
  })
})
