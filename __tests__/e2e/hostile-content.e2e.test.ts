import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, rmSync, symlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { ownPath } from '../helpers/loopback.js'
import { ANSWER_TIMEOUT_MS, expectEndedByDeadline, HANG_MS } from '../helpers/bounds.js'
import { errors } from '../helpers/support.js'
import { hostileKit, list, MiB, send, sleeper } from '../helpers/hostile-kit.js'

/**
 * What a hostile log or body can write (the logs, the bodies; hostile-output.e2e.test.ts: commands, markup, secrets, false ready), through the packaged action (and the CLI): memory and time stay
 * bounded, nothing becomes a workflow command or markup, no secret leaks in any form, and nothing that is not
 * a completion or a model list reads as one. The bounds asserted here are the ones docs/guarantees.md states; time
 * bounds on the step's own clock (helpers/bounds.ts), and a case that needs an answer to judge gets ANSWER_TIMEOUT_MS.
 */

const { dir, net, run, measured } = hostileKit('wait-for-model-content-')

describe('a log-file that is not a regular file', () => {
  const fifo = join(dir, 'fifo.log')
  execFileSync('mkfifo', [fifo])
  const zero = join(dir, 'zero.log')
  symlinkSync('/dev/zero', zero)
  const directory = join(dir, 'a-directory.log')
  mkdirSync(directory)
  it.each([
    ['a FIFO nobody writes', fifo, /is a FIFO/],
    ['a symlink to /dev/zero', zero, /is a character device/],
    ['a directory', directory, /is a directory/]
  ])('%s is an input error before anything runs', async (_what, path, says) => {
    let requests = 0
    const own = ownPath()
    const url = await net.http((req, res) => (req.url?.startsWith(own) && requests++, send(res, 200, list(['kimi']))))
    const r = await run({ url: `${url}${own}/v1/models`, 'log-file': path, 'fail-pattern': 'Error', timeout: '3s' })
    expect(r.killed).toBe(false)
    expect(requests).toBe(0)
    const found = errors(r.stdout)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(/^::error title=Invalid input::Input "log-file": /)
    expect(found[0]).toMatch(says)
    expect(found[0]).toMatch(/give the path of a regular file/)
    // before anything runs, by the server's count; how soon on an idle machine: npm run bench -- --only bounds
    expect(r.wallMs).toBeLessThan(HANG_MS)
  })
})

describe('a log that turns into a directory mid-wait', () => {
  it('ends the wait with a clear reason and the outputs written, no uncaught exception', async () => {
    const url = await net.http((_req, res) => send(res, 503, '{"error":"loading"}'))
    const log = join(dir, 'turns.log')
    const fd = openSync(log, 'w')
    writeSync(fd, 'INFO starting\n')
    closeSync(fd)
    let seen = ''
    const r = await run(
      { url: `${url}/v1/models`, 'log-file': log, timeout: '60s', interval: '200ms' },
      {},
      {
        // once the wait has begun (its first answer is on stdout), however late a busy machine started it
        onStart: (child) =>
          child.stdout?.on('data', (d: Buffer) => {
            if (seen.includes(': HTTP 503') || !(seen += String(d)).includes(': HTTP 503')) return
            rmSync(log)
            mkdirSync(log)
          })
      }
    )
    expect(r.stdout).not.toMatch(/Unexpected error|EISDIR/)
    // the wait ended on the change, not at its timeout
    expect(r.outputs).toMatchObject({ ready: 'false', reason: 'log-error' })
    expect(errors(r.stdout)[0]).toMatch(/is no longer a regular file \(it is a directory now\)/)
    expect(r.killed).toBe(false)
  })
})

describe('a large or flooding log', () => {
  it('a 200 MB log of a server watched with pid delays neither the first probe nor costs its size in memory', async () => {
    const big = join(dir, 'big.log')
    const fd = openSync(big, 'w')
    const block = Buffer.from(
      'INFO 12-01 10:00:00 engine.py:100] some ordinary log line of a busy server\n'.repeat(14_000)
    )
    for (let written = 0; written < 200 * MiB; written += block.length) writeSync(fd, block)
    writeSync(fd, 'ERROR the last line before the wait\n')
    closeSync(fd)
    const server = sleeper()
    let probes = 0
    const url = await net.http((_req, res) => {
      probes++
      send(res, 503, '{"error":"loading"}')
    })
    try {
      const r = await run({
        url: `${url}/v1/models`,
        pid: String(server.pid),
        'log-file': big,
        timeout: `${ANSWER_TIMEOUT_MS}ms`
      })
      measured('a 200 MB existing log, with `pid`', r)
      expect(probes).toBeGreaterThan(0)
      // when the first probe went out, on the step's own clock (its first answer's line): node's own start is most
      // of this second, which a busy machine stretches (idle, spawn to first probe: npm run bench -- --only bounds)
      const first = /^(\d+(?:\.\d+)?)(m?s): HTTP 503 loading$/m.exec(r.stdout)
      expect(first).not.toBeNull()
      expect(Number(first?.[1]) * (first?.[2] === 's' ? 1000 : 1)).toBeLessThan(1_000 * r.stretch)
      expect(r.peakRssMb).toBeLessThan(100)
      expectEndedByDeadline(r, ANSWER_TIMEOUT_MS)
      // the tail still ends with the file's last line, numbered
      expect(r.stdout).toMatch(/^\d+: ERROR the last line before the wait$/m)
    } finally {
      server.end()
    }
  }, 60_000)

  it('a server that floods its log (yes | head -c 100000000) cannot hold the action or grow it', async () => {
    const url = await net.http((_req, res) => send(res, 503, '{"error":"loading"}'))
    const log = join(dir, 'flood.log')
    const r = await run(
      {
        url: `${url}/v1/models`,
        start: 'yes | head -c 100000000; sleep 30',
        // the test's own server answers for it, as a proxy in front of it would
        'port-check': 'false',
        'log-file': log,
        'fail-pattern': 'CUDA error',
        timeout: '4s'
      },
      {},
      { killMs: 15_000 }
    )
    measured('a server flooding its log (`yes`, 100 MB)', r)
    expect(r.killed).toBe(false)
    expect(r.outputs).toMatchObject({ ready: 'false', reason: 'timeout' })
    expectEndedByDeadline(r, 4_000)
    expect(r.peakRssMb).toBeLessThan(100)
  }, 30_000)

  it('a fail-pattern that backtracks cannot hold the action past its deadline', async () => {
    const url = await net.http((_req, res) => send(res, 503, '{"error":"loading"}'))
    const log = join(dir, 'backtrack.log')
    const line = 'INFO worker_process_start_loading_the_weights_of_the_model_from_the_shared_cache_dir now'
    const r = await run(
      {
        url: `${url}/v1/models`,
        start: `echo '${line}'; sleep 30`,
        // the test's own server answers for it, as a proxy in front of it would
        'port-check': 'false',
        'log-file': log,
        'fail-pattern': '(\\w+\\s?)+: CUDA error',
        // long enough for a late-starting process to read the line: the point is what it says of the pattern
        timeout: `${ANSWER_TIMEOUT_MS}ms`
      },
      {},
      { killMs: 20_000 }
    )
    expect(r.killed).toBe(false)
    expectEndedByDeadline(r, ANSWER_TIMEOUT_MS)
    expect(r.outputs.ready).toBe('false')
    expect(r.stdout).toMatch(/fail-pattern .* ran out of time on line 1/)
  }, 30_000)
})

describe('bodies under the 1 MiB cap', () => {
  const depth = 512 * 1024 - 8
  const cases: Array<[string, () => string]> = [
    ['deeply nested JSON', () => `${'['.repeat(depth)}${']'.repeat(depth)}`],
    ['60,000 models', () => list(Array.from({ length: 60_000 }, (_, i) => `m${i}`))]
  ]
  it.each(cases)('%s: peak RSS under 100 MB, summary under 1 MiB', async (what, body) => {
    const text = body()
    expect(text.length).toBeLessThanOrEqual(MiB)
    const url = await net.http((_req, res) => send(res, 200, text))
    const r = await run({
      url: `${url}/v1/models`,
      model: 'kimi',
      timeout: `${ANSWER_TIMEOUT_MS}ms`,
      interval: '300ms'
    })
    measured(`${what} (1 MiB)`, r)
    // an answer was read (so its memory is what was measured)
    expect(r.outputs).toMatchObject({ ready: 'false', reason: 'timeout', 'status-code': '200' })
    expect(r.peakRssMb).toBeLessThan(100)
    expect(Buffer.byteLength(r.summary)).toBeLessThan(MiB)
    expect(r.stdout.length).toBeLessThan(64 * 1024)
  })

  it('100,000 tiny response headers: peak RSS under 100 MB', async () => {
    const head = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${'a: b\r\n'.repeat(100_000)}content-length: 2\r\nconnection: close\r\n\r\n{}`
    // every probe answered so, for the whole timeout (about 20 answers): each left 3 MB of garbage and no body to
    // count, and over 20 of them peaked at 105 MB until an overflow counted as a body for the collector (probe.ts)
    let answered = 0
    const url = await net.tcp((socket) =>
      socket.once('data', () => {
        answered++
        socket.end(head)
      })
    )
    const r = await run({
      url: `${url}/v1/models`,
      model: 'kimi',
      timeout: `${ANSWER_TIMEOUT_MS}ms`,
      interval: '300ms'
    })
    expect(answered).toBeGreaterThan(0)
    measured('100,000 tiny response headers', r)
    expect(r.outputs.ready).toBe('false')
    expect(r.peakRssMb).toBeLessThan(100)
  })

  it('a fleet of 10 URLs answering 1 MiB each: peak RSS under 100 MB, summary under 1 MiB', async () => {
    const urls: string[] = []
    for (let i = 0; i < 10; i++) {
      const body = list(Array.from({ length: 40_000 }, (_, j) => `f${i}-${j}`)).slice(0, MiB)
      urls.push(`${await net.http((_req, res) => send(res, 200, body))}/v1/models`)
    }
    const r = await run({ url: urls.join('\n'), model: 'kimi', timeout: `${ANSWER_TIMEOUT_MS}ms`, interval: '300ms' })
    measured('a fleet of 10 URLs answering 1 MiB (40,000 models) each', r)
    expect(r.outputs.ready).toBe('false')
    // issue 12 asked for 150 MB; 124-152 MB before answers were let go of and collected across the fleet
    expect(r.peakRssMb).toBeLessThan(100)
    expect(Buffer.byteLength(r.summary)).toBeLessThan(MiB)
  })

  it('a model list that changes on every probe: memory, log and summary stay bounded', async () => {
    // 64 lists, then a 401 that ends the wait at once: bound by the answers (more than the timeline keeps), not by
    // how many fit in a timeout on a busy machine
    const LISTS = 64
    let n = 0
    const url = await net.http((_req, res) => {
      if (n === LISTS) return send(res, 401, '{"error":"Unauthorized"}')
      n++
      send(res, 200, list(Array.from({ length: 5_000 }, (_, j) => `p${n}-${j}`)))
    })
    const r = await run(
      { url: `${url}/v1/models`, model: 'kimi', timeout: '10m', interval: '100ms' },
      {},
      { killMs: 110_000 }
    )
    measured(`a list of 5,000 models changing on every probe (${n} probes)`, r)
    expect(r.outputs).toMatchObject({ ready: 'false', reason: 'unauthorized' })
    expect(n).toBe(LISTS)
    expect(r.peakRssMb).toBeLessThan(100)
    expect(r.stdout.length).toBeLessThan(512 * 1024)
    expect(Buffer.byteLength(r.summary)).toBeLessThan(256 * 1024)
    expect(r.summary).toMatch(/\d+ changes? left out/)
    // the first and the last answers are both kept
    expect(r.summary).toContain('p1-0')
    expect(r.summary).toContain(`p${LISTS}-0,`)
  }, 120_000)
})
