/**
 * A credential in the history is its mask and, to tell that it changed, an HMAC under the history's own random key
 * (`<history>.key`, mode 0600): without the key a hash cannot be tested against guesses, nor matched across copies.
 */
import { closeSync, constants, readSync, writeSync } from 'node:fs'
import { createOwn, openOwn } from '../runtime/own-files.js'

/** How a masked value starts in the history: `***` alone (no key), or `*** hmac:<16 hex>`. */
export const MASKED = '***'
const KEY_HEX = 64

/** Made on first use; undefined when it cannot be made or read (no hash is kept then). */
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

export function maskedRecord(value: string, key: Buffer | undefined): string {
  if (key === undefined) return MASKED
  const hash = process.getBuiltinModule('node:crypto').createHmac('sha256', key).update(value).digest('hex')
  return `${MASKED} hmac:${hash.slice(0, 16)}`
}

export const isMasked = (value: string | undefined): boolean => value !== undefined && value.startsWith(MASKED)
