/**
 * A credential in the history is never its value: `env-report` masks it, and where the history must tell that it
 * changed between runs (drift), it keeps a keyed hash of it, HMAC-SHA-256 under a random key of this history's own
 * (`<history>.key`, 32 random bytes, mode 0600, created exclusively beside it on first use). Without the key a
 * hash cannot be tested against guesses (a short password would otherwise fall to a dictionary), and one history
 * copied elsewhere (an artifact, a CSV export) says nothing about the same password in another.
 */
import { closeSync, constants, readSync, writeSync } from 'node:fs'
import { createOwn, openOwn } from '../runtime/own-files.js'

/** How a masked value starts in the history: `***` alone (no key), or `*** hmac:<16 hex>`. */
export const MASKED = '***'
const KEY_HEX = 64

/** This history's key, made on first use; undefined when it cannot be made or read (a hash is then not kept). */
export function historySecretKey(historyPath: string): Buffer | undefined {
  const path = `${historyPath}.key`
  const { randomBytes } = process.getBuiltinModule('node:crypto')
  try {
    const fd = createOwn(path, 0o600)
    const hex = randomBytes(KEY_HEX / 2).toString('hex')
    try {
      writeSync(fd, hex)
    } finally {
      closeSync(fd)
    }
    return Buffer.from(hex, 'hex')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return undefined
  }
  try {
    const fd = openOwn(path, constants.O_RDONLY)
    const buffer = Buffer.alloc(KEY_HEX + 1)
    let got: number
    try {
      got = readSync(fd, buffer, 0, buffer.length, 0)
    } finally {
      closeSync(fd)
    }
    const hex = buffer.subarray(0, got).toString('latin1')
    // one being written by another process right now, or not ours: no hash this run
    return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : undefined
  } catch {
    return undefined
  }
}

/** What the history keeps of a credential: the mask, and its keyed hash when there is a key. */
export function maskedRecord(value: string, key: Buffer | undefined): string {
  if (key === undefined) return MASKED
  const hash = process.getBuiltinModule('node:crypto').createHmac('sha256', key).update(value).digest('hex')
  return `${MASKED} hmac:${hash.slice(0, 16)}`
}

/** A value the history keeps masked (a credential): compared by its hash, never shown. */
export const isMasked = (value: string | undefined): boolean => value !== undefined && value.startsWith(MASKED)
