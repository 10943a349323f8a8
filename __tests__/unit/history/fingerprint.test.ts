import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { historySecretKey, maskedRecord } from '../../../src/history/fingerprint.js'
import type { RunRecord } from '../../../src/history/record.js'
import { envDrift } from '../../../src/history/stats.js'
import { driftText } from '../../../src/report/profile-report.js'
import { sandbox } from '../../helpers/sandbox.js'

const box = sandbox('wfm-fingerprint-')
const run = (env: Record<string, string>): RunRecord => ({
  v: 1,
  key: 'k',
  at: '2026-01-01T00:00:00Z',
  ready: true,
  reason: 'ready',
  elapsedSeconds: 1,
  phases: [],
  env,
  envReport: '*'
})

describe('a credential in the history', () => {
  it('is a keyed hash under a random key of its own, made once (mode 0600) and kept beside the history', () => {
    const history = box.path('history.jsonl')
    const key = historySecretKey(history)
    expect(key).toHaveLength(32)
    expect(statSync(`${history}.key`).mode & 0o777).toBe(0o600)
    expect(historySecretKey(history)).toEqual(key)
    const record = maskedRecord('hunter2', key)
    expect(record).toMatch(/^\*\*\* hmac:[0-9a-f]{16}$/)
    expect(record).not.toContain('hunter2')
    expect(maskedRecord('hunter2', key)).toBe(record)
    expect(maskedRecord('hunter3', key)).not.toBe(record)
    // another history, another key: the same password hashes differently
    expect(maskedRecord('hunter2', historySecretKey(box.path('other.jsonl')))).not.toBe(record)
  })

  it('has no hash where the key is a symbolic link or not ours', () => {
    const history = box.path('history.jsonl')
    writeFileSync(box.path('elsewhere'), 'a'.repeat(64))
    symlinkSync(box.path('elsewhere'), `${history}.key`)
    expect(historySecretKey(history)).toBeUndefined()
    expect(maskedRecord('x', undefined)).toBe('***')
    expect(readFileSync(box.path('elsewhere'), 'utf8')).toBe('a'.repeat(64))
  })

  it('says "changed" for a changed credential, never its hashes, and nothing for one masked without a hash', () => {
    const key = historySecretKey(box.path('h'))
    const [drift] = envDrift([run({ DB: maskedRecord('one', key) })], run({ DB: maskedRecord('two', key) }))
    expect(drift).toMatchObject({ name: 'DB', secret: true })
    expect(driftText(drift)).toBe('DB (a credential) changed: the same value in the last run, another now')
    expect(envDrift([run({ DB: maskedRecord('one', key) })], run({ DB: maskedRecord('one', key) }))).toEqual([])
    expect(envDrift([run({ DB: '***' })], run({ DB: maskedRecord('two', key) }))).toEqual([])
    const [gone] = envDrift([run({ DB: maskedRecord('one', key) })], run({}))
    expect(driftText(gone)).toBe('DB (a credential) was set in the last run, now unset')
  })
})
