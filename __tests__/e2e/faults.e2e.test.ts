import { writeFileSync } from 'node:fs'
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { freePort } from '../../src/simulator/server.js'
import { Loopback, selfSignedCert } from '../helpers/loopback.js'
import { ANSWER_TIMEOUT_MS, expectEndedByDeadline } from '../helpers/bounds.js'
import { errors, type MeasuredRun, runMeasured } from '../helpers/support.js'

/**
 * The fault matrix: the packaged action (dist/index.js in its own process) against a real local server or
 * socket that misbehaves in one way each. Every case checks the verdict, the end time (timeout + 1 s at
 * most, on the step's own clock: helpers/bounds.ts), the peak memory of the action's process, and the log line a
 * user reads. A case that times out gets ANSWER_TIMEOUT_MS, so that a process that starts late on a loaded machine
 * still sends the probes whose answer the line quotes; a case that ends ready is bound by that event, and its
 * timeout only by a hang.
 */
const list = (...ids: string[]): string =>
  JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) })
const json = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body)
}
const MB = 1024 * 1024
const READY_TIMEOUT_MS = 30_000

/** Streams `total` bytes (or without end) as fast as the client reads, and counts what it sent in this answer. */
function flood(res: ServerResponse, total: number | undefined, sent: { bytes: number }): void {
  const chunk = Buffer.alloc(64 * 1024, 'a')
  res.writeHead(
    200,
    total === undefined
      ? { 'content-type': 'text/plain' }
      : { 'content-type': 'text/plain', 'content-length': String(total) }
  )
  const pump = (): void => {
    while ((total === undefined || sent.bytes < total) && !res.destroyed) {
      sent.bytes += chunk.length
      if (!res.write(chunk)) return void res.once('drain', pump)
    }
    if (!res.destroyed) res.end()
  }
  pump()
}

interface Fault {
  fault: string
  /** Starts the faulty server on `net`; returns the URL to poll and any inputs besides `url`. */
  start(net: Loopback): Promise<{ url: string; inputs?: Record<string, string>; check?(run: MeasuredRun): void }>
  timeoutMs: number
  ready: boolean
  reason: string
  /** A line the user reads in the log. */
  line: RegExp
}

const faults: Fault[] = [
  {
    fault: 'connection refused',
    start: async () => ({ url: `http://127.0.0.1:${await freePort()}/v1/models` }),
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /^[\d.]+m?s: connection refused$/m
  },
  {
    fault: 'connection reset mid-response',
    start: async (net) => ({
      url: `${await net.tcp((socket) => socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"da', () => socket.resetAndDestroy())))}/v1/models`
    }),
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /: HTTP 200, then connection (reset by the server|closed by the server before a complete answer)$/m
  },
  {
    fault: 'accepts the connection and never answers',
    start: async (net) => ({
      url: `${await net.tcp(() => undefined)}/v1/models`,
      check: (run) => expect(run.outputs.attempts).toBe('1')
    }),
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /: no answer \(request timed out\)$/m
  },
  {
    fault: 'answers the headers and never sends the body',
    start: async (net) => ({
      url: `${await net.http((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' }).flushHeaders())}/v1/models`,
      check: (run) => expect(run.outputs['status-code']).toBe('200')
    }),
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /: HTTP 200, but the body did not arrive in time$/m
  },
  {
    fault: 'sends the body one byte per second',
    async start(net) {
      const body = list('kimi')
      const url = await net.http((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) }).flushHeaders()
        let i = 0
        const timer = setInterval(() => res.write(body[i++]), 1_000)
        req.socket.once('close', () => clearInterval(timer))
      })
      return { url: `${url}/v1/models`, inputs: { model: 'kimi', interval: '100ms' } }
    },
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /: HTTP 200, but the body did not arrive in time$/m
  },
  {
    fault: 'sends a 1 GiB body',
    async start(net) {
      const answers: Array<{ bytes: number }> = []
      const url = await net.http((_req, res) => flood(res, 1024 * MB, answers[answers.push({ bytes: 0 }) - 1]))
      return {
        url: `${url}/v1/models`,
        inputs: { model: 'kimi' },
        // the action stops reading each answer at 1 MiB and drops the connection; socket buffers let a little more
        check: () => expect(Math.max(...answers.map((a) => a.bytes))).toBeLessThan(64 * MB)
      }
    },
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /: HTTP 200 a+… — the answer is not a model list, so "kimi" cannot be found in it \(body over 1 MiB, cut\)$/m
  },
  {
    fault: 'sends an endless chunked body',
    async start(net) {
      const answers: Array<{ bytes: number }> = []
      const url = await net.http((_req, res) => flood(res, undefined, answers[answers.push({ bytes: 0 }) - 1]))
      return {
        url: `${url}/v1/models`,
        inputs: { model: 'kimi' },
        check: () => expect(Math.max(...answers.map((a) => a.bytes))).toBeLessThan(64 * MB)
      }
    },
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /\(body over 1 MiB, cut\)$/m
  },
  {
    fault: 'Content-Length larger than what it sends',
    start: async (net) => ({
      url: `${await net.tcp((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{"data":[]}')))}/v1/models`
    }),
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /: HTTP 200, then connection closed by the server before a complete answer$/m
  },
  {
    fault: 'invalid JSON',
    start: async (net) => ({
      url: `${await net.http((_req, res) => json(res, 200, '{"data":[{"id":"kimi"'))}/v1/models`,
      inputs: { model: 'kimi' }
    }),
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /: HTTP 200 \{"data":\[\{"id":"kimi" — the answer is not a model list, so "kimi" cannot be found in it$/m
  },
  {
    fault: 'a JSON body that is not an object',
    start: async (net) => ({
      url: `${await net.http((_req, res) => json(res, 200, '["kimi"]'))}/v1/models`,
      inputs: { model: 'kimi' }
    }),
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /: HTTP 200 \["kimi"\] — the answer is not a model list/m
  },
  {
    fault: 'non-UTF-8 bytes in the body',
    async start(net) {
      const body = Buffer.concat([
        Buffer.from('{"object":"list","data":[{"id":"kimi-'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}]}')
      ])
      return {
        url: `${await net.http((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body))}/v1/models`,
        inputs: { model: 'kimi' },
        check: (run) => expect(run.outputs['model-id']).toBe('kimi-\ufffd\ufffd')
      }
    },
    timeoutMs: READY_TIMEOUT_MS,
    ready: true,
    reason: 'ready',
    line: /: HTTP 200, serving \[kimi-\ufffd\ufffd\]$/m
  },
  {
    fault: 'a 3xx redirect loop',
    async start(net) {
      let requests = 0
      const url = await net.http((req, res) => {
        requests++
        res.writeHead(302, { location: req.url === '/a' ? '/b' : '/a' }).end()
      })
      // each probe follows 5 redirects, then gives up: 6 requests a probe (the last one may be cut by the deadline)
      return {
        url: `${url}/a`,
        check(run) {
          const attempts = Number(run.outputs.attempts)
          expect(requests).toBeGreaterThanOrEqual(6 * (attempts - 1))
          expect(requests).toBeLessThanOrEqual(6 * attempts)
        }
      }
    },
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /: HTTP 302, then more than 5 redirects \(a redirect loop\?\)$/m
  },
  {
    fault: 'a redirect to another host, which gets no credentials',
    async start(net) {
      const seen: IncomingHttpHeaders[] = []
      const other = await net.http((req, res) => {
        seen.push(req.headers)
        json(res, 200, list('kimi'))
      }, '127.0.0.2')
      const first = await net.http((req, res) => {
        seen.push(req.headers)
        res.writeHead(307, { location: `${other}/v1/models` }).end()
      })
      return {
        url: `${first}/v1/models`,
        inputs: {
          model: 'kimi',
          'api-key': 'sk-redirect-secret',
          headers: 'X-Api-Key: k-redirect-secret\nCookie: c=redirect-secret\nX-Trace: t-1'
        },
        check() {
          const [atFirst, atOther] = seen
          expect(atFirst).toMatchObject({
            authorization: 'Bearer sk-redirect-secret',
            'x-api-key': 'k-redirect-secret',
            cookie: 'c=redirect-secret'
          })
          expect(atOther).toMatchObject({ 'x-trace': 't-1' })
          expect(JSON.stringify(atOther)).not.toMatch(/redirect-secret|authorization|x-api-key|cookie/i)
        }
      }
    },
    timeoutMs: READY_TIMEOUT_MS,
    ready: true,
    reason: 'ready',
    line: /: HTTP 200, serving \[kimi\]$/m
  },
  {
    fault: '429 with Retry-After',
    async start(net) {
      const at: number[] = []
      const url = await net.http((_req, res) => {
        at.push(performance.now())
        if (at.length === 1) json(res, 429, '{"error":"rate limited"}', { 'retry-after': '1' })
        else json(res, 200, list('kimi'))
      })
      return {
        url: `${url}/v1/models`,
        inputs: { model: 'kimi', interval: '300ms' },
        // asked for 1 s, more than the 300 ms interval and less than its 4 × 1.2 s cap: granted in full
        check: () => expect(at[1] - at[0]).toBeGreaterThanOrEqual(950)
      }
    },
    timeoutMs: READY_TIMEOUT_MS,
    ready: true,
    reason: 'ready',
    line: /: HTTP 429 rate limited$/m
  },
  {
    fault: 'a 5xx storm',
    async start(net) {
      const pages: Array<[number, string]> = [
        [500, '{"error":"Internal Server Error"}'],
        [502, '<html><head><title>502 Bad Gateway</title></head></html>'],
        [503, '{"error":{"message":"Loading model"}}'],
        [504, '<html><head><title>504 Gateway Time-out</title></head></html>']
      ]
      let i = 0
      const url = await net.http((_req, res) => {
        const [status, body] = pages[i++ % pages.length]
        res.writeHead(status, { 'content-type': body.startsWith('<') ? 'text/html' : 'application/json' }).end(body)
      })
      return {
        url: `${url}/v1/models`,
        inputs: { interval: '100ms' },
        // it kept probing through the storm, and said each new answer
        check: (run) =>
          expect(
            new Set(run.stdout.match(/: HTTP 50\d .*$/gm)?.map((l) => l.slice(2, 10))).size
          ).toBeGreaterThanOrEqual(3)
      }
    },
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /: HTTP 502 502 Bad Gateway$/m
  },
  {
    fault: 'HTTP/1.0 with Connection: close',
    start: async (net) => ({
      url: `${await net.tcp((socket) =>
        socket.once('data', () =>
          socket.end(
            `HTTP/1.0 200 OK\r\nConnection: close\r\nContent-Type: application/json\r\n\r\n${list('/models/kimi-k2')}`
          )
        )
      )}/v1/models`,
      inputs: { model: 'kimi' }
    }),
    timeoutMs: READY_TIMEOUT_MS,
    ready: true,
    reason: 'ready',
    line: /: HTTP 200, serving \[\/models\/kimi-k2\]$/m
  },
  {
    fault: 'becomes ready during an in-flight probe',
    async start(net) {
      const readyAt = performance.now() + 500
      const url = await net.http((_req, res) => {
        // holds the first request past the moment it becomes ready, then answers with how it is now
        setTimeout(
          () =>
            performance.now() >= readyAt ? json(res, 200, list('kimi')) : json(res, 503, '{"error":"Loading model"}'),
          1_000
        )
      })
      return {
        url: `${url}/v1/models`,
        inputs: { model: 'kimi', interval: '5s' },
        check: (run) => expect(run.outputs.attempts).toBe('1')
      }
    },
    timeoutMs: READY_TIMEOUT_MS,
    ready: true,
    reason: 'ready',
    line: /^Ready after [\d.]+s \(1 probe\); model "kimi"/m
  },
  {
    // a label over 63 characters: the resolver refuses it without sending a query, so no traffic leaves the machine
    fault: 'DNS failure for the host',
    start: async () => ({ url: `http://${'a'.repeat(64)}.invalid/v1/models` }),
    timeoutMs: ANSWER_TIMEOUT_MS,
    ready: false,
    reason: 'timeout',
    line: /: host not found \(DNS\)$/m
  },
  {
    fault: 'localhost when the server listens on ::1 only',
    start: async (net) => ({
      url: `${(await net.http((_req, res) => json(res, 200, list('kimi')), '::1')).replace('[::1]', 'localhost')}/v1/models`,
      inputs: { model: 'kimi' }
    }),
    timeoutMs: READY_TIMEOUT_MS,
    ready: true,
    reason: 'ready',
    line: /: HTTP 200, serving \[kimi\]$/m
  },
  {
    fault: 'localhost when the server listens on 127.0.0.1 only',
    start: async (net) => ({
      url: `${(await net.http((_req, res) => json(res, 200, list('kimi')))).replace('127.0.0.1', 'localhost')}/v1/models`,
      inputs: { model: 'kimi' }
    }),
    timeoutMs: READY_TIMEOUT_MS,
    ready: true,
    reason: 'ready',
    line: /: HTTP 200, serving \[kimi\]$/m
  },
  ...(
    [
      ['', false, 'tls', /: TLS error: self-signed certificate$/m],
      ['ca-cert', true, 'ready', /: HTTP 200, serving \[kimi\]$/m],
      [
        'insecure-tls',
        true,
        'ready',
        /^::warning title=TLS certificate checks are off::insecure-tls is on: the server's certificate is not checked/m
      ]
    ] as const
  ).map(([input, ready, reason, line]): Fault => ({
    fault: `a TLS server with a self-signed certificate${input ? `, with ${input}` : ''}`,
    async start(net) {
      const url = await net.https((_req, res) => json(res, 200, list('kimi')))
      const inputs: Record<string, string> = { model: 'kimi' }
      if (input === 'ca-cert') inputs['ca-cert'] = selfSignedCert
      if (input === 'insecure-tls') inputs['insecure-tls'] = 'true'
      return { url: `${url}/v1/models`, inputs }
    },
    timeoutMs: ready ? READY_TIMEOUT_MS : ANSWER_TIMEOUT_MS,
    ready,
    reason,
    line
  }))
]

/** What each case measured; FAULT_FIGURES=<file> writes them as the Markdown table the README shows. */
const figures = new Map<string, string>()
afterAll(() => {
  if (!process.env.FAULT_FIGURES) return
  const rows = faults.map((f) => figures.get(f.fault)).filter((row) => row !== undefined)
  writeFileSync(
    process.env.FAULT_FIGURES,
    [
      '| fault | verdict | ended after (timeout) | peak memory | the log says |',
      '|---|---|---|---|---|',
      ...rows,
      ''
    ].join('\n')
  )
})

describe('fault matrix: the packaged action against a misbehaving server', () => {
  it.concurrent.each(faults)(
    '$fault → ready=$ready, reason=$reason',
    async ({ fault, start, timeoutMs, ready, reason, line }) => {
      const net = new Loopback()
      try {
        const { url, inputs = {}, check } = await start(net)
        const run = await runMeasured({ url, timeout: `${timeoutMs}ms`, interval: '250ms', ...inputs })
        const said = (line.exec(run.stdout)?.[0] ?? '').replace(/^(?:[\d.]+m?s)?: /, '').replace(/\|/g, '\\|')
        const shownSaid = said.length > 90 ? `${said.slice(0, 40)}…${said.slice(-45)}` : said
        figures.set(
          fault,
          `| ${fault} | ${run.outputs.reason} | ${(run.wallMs / 1000).toFixed(1)} s (${timeoutMs / 1000} s) | ${Math.round(run.peakRssMb)} MB | ${shownSaid} |`
        )
        expect(run.outputs).toMatchObject({ ready: String(ready), reason })
        expect(run.code).toBe(ready ? 0 : 1)
        expect(run.stdout).toMatch(line)
        expect(errors(run.stdout)).toHaveLength(ready ? 0 : 1)
        expectEndedByDeadline(run, timeoutMs)
        expect(run.peakRssMb).toBeLessThan(100)
        check?.(run)
      } finally {
        await net.close()
      }
    }
  )
})
