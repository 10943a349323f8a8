import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { join } from 'node:path'
import { type ActionRun, runAction } from '../../src/simulator/runner.js'
import { loopback } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors, runProcess } from '../helpers/support.js'

/**
 * Issue 26, as an attacker would try it through the packaged action and CLI: credentials by value in the server's
 * environment (items 1), files that are not ours (item 4). docs/guarantees.md names each case.
 */
const box = sandbox('wfm-not-ours-')
const net = loopback('file')
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const send = (res: ServerResponse, status: number, body: string): void =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(body)
const modelList = JSON.stringify({ object: 'list', data: [{ id: 'kimi' }] })

async function run(inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> {
  const r = await runAction({ entry, inputs, env })
  // a server `start` launched outlives the action by design: the test ends it
  if (r.outputs.pid) box.pids.push(Number(r.outputs.pid))
  return r
}
const everything = (r: ActionRun, ...files: string[]): string =>
  [r.stdout, r.stderr, r.summary, JSON.stringify(r.outputs), JSON.stringify(r.state), ...files].join('\n')

/** Credentials whose names the old rule (TOKEN, KEY, SECRET, PASSWORD) did not know: each with the part that must never show. */
const PLANTED: Record<string, { value: string; secret: string }> = {
  DATABASE_URL: { value: 'postgres://app:Pg-s3cret-9f2e@db/x', secret: 'Pg-s3cret-9f2e' },
  SENTRY_DSN: { value: 'https://5f1e0c2ab4d34c7e9a@o1.ingest.sentry.io/42', secret: '5f1e0c2ab4d34c7e9a' },
  MYSQL_PWD: { value: 'My-s3cret-4471', secret: 'My-s3cret-4471' },
  PGPASS: { value: 'Pgpass-s3cret-18', secret: 'Pgpass-s3cret-18' },
  CI_JOB_JWT: {
    value: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJqb2IifQ.c2lnLXNlY3JldC14',
    secret: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJqb2IifQ'
  },
  GH_PAT: { value: 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ng0000abcd', secret: 'R4nd0mT0k3nV4lu3F0rT3st1ng' },
  MACHINE_CONF: { value: 'machine api.example.com login ci password Netrc-s3cret-55', secret: 'Netrc-s3cret-55' },
  HUB_CFG: { value: 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345', secret: 'AbCdEfGhIjKlMnOpQrStUvWxYz' },
  LLM_UPSTREAM: { value: 'sk-proj-Zz9Yy8Xx7Ww6Vv5Uu4', secret: 'Zz9Yy8Xx7Ww6Vv5Uu4' },
  CHAT_BOT: { value: 'xoxb-2048-4096-S1ackS3cretV4lue', secret: 'S1ackS3cretV4lue' },
  CLOUD_ID: { value: 'AKIAZ7EXAMPLEKEYID42', secret: 'AKIAZ7EXAMPLEKEYID42' },
  DEPLOY_IDENTITY: {
    value:
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAPEMs3cretB0dy\n-----END OPENSSH PRIVATE KEY-----',
    secret: 'PEMs3cretB0dy'
  }
}

describe('credentials by name and by value (issue 26 item 1)', () => {
  it('env-report: * with 12 planted credentials writes none of them to the log, summary, outputs or history', async () => {
    const url = await net.http((_req, res) => send(res, 200, modelList))
    const history = box.path('history.jsonl')
    const inputs = {
      url: `${url}/v1/models`,
      start: 'sleep 30',
      // the test's own server answers for it, as a proxy in front of it would
      'port-check': 'false',
      'env-report': '*',
      'history-file': history,
      'history-key': 'planted',
      timeout: '5s'
    }
    const env = {
      ...Object.fromEntries(Object.entries(PLANTED).map(([n, p]) => [n, p.value])),
      NCCL_DEBUG: 'INFO'
    }
    const first = await run(inputs, env)
    expect(first.outputs.ready).toBe('true')
    // a second run with one credential changed: the drift is told, neither value nor hash is shown
    const second = await run(inputs, { ...env, MYSQL_PWD: 'My-s3cret-4472' })
    expect(second.outputs.ready).toBe('true')
    const file = readFileSync(history, 'utf8')
    for (const r of [first, second]) {
      const all = everything(r, file)
      for (const [name, p] of Object.entries(PLANTED)) {
        expect(all).not.toContain(p.secret)
        expect(r.stdout).toContain(`${name}=***`)
      }
      expect(all).not.toContain('My-s3cret-4472')
      expect(r.stdout).toContain('NCCL_DEBUG=INFO')
    }
    expect(file.split('\n').filter(Boolean)).toHaveLength(2)
    expect(file).toMatch(/"MYSQL_PWD":"\*\*\* hmac:[0-9a-f]{16}"/)
    expect(second.stdout).toMatch(/MYSQL_PWD \(a credential\) changed: the same value in the last run, another now/)
    expect(second.stdout).not.toMatch(/DATABASE_URL \(a credential\) changed/)
    expect(second.stdout).not.toMatch(/hmac:/)
    // the key lives beside the history, for its owner only
    expect(lstatSync(`${history}.key`).mode & 0o777).toBe(0o600)
  })
})

describe('files: only our own (issue 26 item 4)', () => {
  const historyLine = (i: number): string =>
    JSON.stringify({
      v: 1,
      key: 'trim',
      at: '2026-01-01T00:00:00Z',
      ready: true,
      reason: 'ready',
      elapsedSeconds: i,
      phases: []
    })

  it('a trim never writes through a link planted at the old predictable <history>.<pid>.tmp names', async () => {
    const url = await net.http((_req, res) => send(res, 200, modelList))
    const history = box.path('history.jsonl')
    // 100 runs of the key: this run's makes 101, and the trim rewrites the file
    writeFileSync(history, Array.from({ length: 100 }, (_, i) => historyLine(i) + '\n').join(''))
    const victim = box.path('victim.txt')
    writeFileSync(victim, 'not yours\n')
    // the next few hundred pids, as an attacker on a shared runner would plant them
    const last = Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'))
    for (let pid = last; pid < last + 400; pid++) symlinkSync(victim, `${history}.${pid}.tmp`)
    const r = await run({ url: `${url}/v1/models`, 'history-file': history, 'history-key': 'trim', timeout: '5s' })
    expect(r.outputs.ready).toBe('true')
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
    expect(lstatSync(history).isFile()).toBe(true)
    const lines = readFileSync(history, 'utf8').split('\n').filter(Boolean)
    // trimmed to the last 100: the oldest dropped, this run's kept
    expect(lines).toHaveLength(100)
    expect(lines[0]).toContain('"elapsedSeconds":1,')
    // nothing of ours is left beside it but the history (and the planted links, untouched)
    const ours = readdirSync(box.dir()).filter((n) => !/^history\.jsonl\.\d+\.tmp$/.test(n))
    expect(ours.sort()).toEqual(['history.jsonl', 'victim.txt'])
  })

  it('a history-file that is a symbolic link is an input error naming it, and nothing is written through it', async () => {
    const victim = box.path('victim.txt')
    writeFileSync(victim, 'not yours\n')
    const link = box.path('history.jsonl')
    symlinkSync(victim, link)
    const r = await run({ url: 'http://127.0.0.1:9/v1/models', 'history-file': link, timeout: '2s' })
    const found = errors(r.stdout)
    expect(found).toHaveLength(1)
    expect(found[0]).toContain(`Input "history-file": "${link}" is a symbolic link, which is never followed`)
    expect(r.code).not.toBe(0)
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
  })

  it('the default history (a tool cache where a link was planted) is off, with a notice naming it', async () => {
    const url = await net.http((_req, res) => send(res, 200, modelList))
    const cache = box.path('tool-cache')
    const victim = box.path('victim.txt')
    writeFileSync(victim, 'not yours\n')
    const { mkdirSync } = await import('node:fs')
    mkdirSync(join(cache, 'wait-for-model'), { recursive: true })
    symlinkSync(victim, join(cache, 'wait-for-model', 'history.jsonl'))
    const r = await run(
      { url: `${url}/v1/models`, 'history-file': 'auto', timeout: '5s' },
      { RUNNER_TOOL_CACHE: cache }
    )
    expect(r.outputs.ready).toBe('true')
    expect(r.stdout).toContain(`History is off: ${join(cache, 'wait-for-model', 'history.jsonl')} is a symbolic link`)
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
  })

  it('the CLI: a --summary-file or a --log-file for --start that is a link is refused; the default log is random', async () => {
    const victim = box.path('victim.txt')
    writeFileSync(victim, 'not yours\n')
    const link = box.path('summary.md')
    symlinkSync(victim, link)
    const env = { PATH: process.env.PATH ?? '', HOME: box.dir(), TMPDIR: box.dir() }
    const summary = await runProcess(
      process.execPath,
      [cli, '--url', 'http://127.0.0.1:9/v1/models', '--timeout', '1s', '--summary-file', link],
      { env }
    )
    expect(summary.code).toBe(2)
    expect(summary.stderr).toContain(`${link} is a symbolic link`)
    const log = await runProcess(
      process.execPath,
      [cli, '--url', 'http://127.0.0.1:9/v1/models', '--timeout', '1s', '--start', 'true', '--log-file', link],
      { env }
    )
    expect(log.code).toBe(2)
    expect(log.stderr).toMatch(/log-file.*is a symbolic link/)
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
    const started = await runProcess(
      process.execPath,
      [cli, '--url', 'http://127.0.0.1:9/v1/models', '--timeout', '1s', '--start', 'true', '--json'],
      { env }
    )
    expect(JSON.parse(started.stdout)['log-file']).toMatch(/\/model-server-\d+-[0-9a-f]{12}\.log$/)
    expect(existsSync(JSON.parse(started.stdout)['log-file'])).toBe(true)
  })
})
