/**
 * Writing only our own files: every file we create or rewrite is opened without following a symbolic link and must
 * be a regular file; a new one is created exclusively, under a random name where a name would be predictable. A link
 * planted at our path in a shared folder (a runner's tool cache, /tmp) fails the open instead of redirecting it.
 */
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readSync,
  type Stats,
  writeSync
} from 'node:fs'
import { basename, dirname, join } from 'node:path'

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = constants

export class SymlinkRefused extends Error {
  constructor(readonly path: string) {
    super(`${path} is a symbolic link; it is not followed (give the file itself)`)
  }
}

/** True when `path` is itself a symbolic link (a missing path, or one under a file, is not: opening it says why). */
export function isSymlink(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true
  } catch {
    return false
  }
}

/** O_NONBLOCK: a FIFO nobody writes to would block the whole process, deaf to signals; a regular file never blocks. */
export function openOwn(path: string, flags: number, mode = 0o644): number {
  let fd: number
  try {
    fd = openSync(path, flags | O_NOFOLLOW | O_NONBLOCK, mode)
  } catch (e) {
    // Linux says ELOOP for a link at the last component; macOS says EMLINK or ELOOP.
    const code = (e as NodeJS.ErrnoException).code
    if ((code === 'ELOOP' || code === 'EMLINK') && isSymlink(path)) throw new SymlinkRefused(path)
    throw e
  }
  const kind = notRegularFile(fstatSync(fd))
  if (kind === undefined) return fd
  closeSync(fd)
  throw new Error(`${path} is ${kind}, not a regular file`)
}

export const createOwn = (path: string, mode = 0o644): number => openOwn(path, O_WRONLY | O_CREAT | O_EXCL, mode)

/** Beside `path`, so a rename over it stays on one file system, under a name no one can guess. */
export function createTempBeside(path: string, mode = 0o644): { temp: string; fd: number } {
  const { randomBytes } = process.getBuiltinModule('node:crypto')
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`)
  return { temp, fd: createOwn(temp, mode) }
}

export function writeOwnFile(path: string, text: string): void {
  const fd = openOwn(path, O_WRONLY | O_CREAT)
  try {
    // truncated once open: O_TRUNC would empty a FIFO's or a device's writer before the check refused it
    ftruncateSync(fd, 0)
    const bytes = Buffer.from(text)
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at, at)
  } finally {
    closeSync(fd)
  }
}

export function notRegularFile(stat: Stats): string | undefined {
  if (stat.isFile()) return undefined
  if (stat.isDirectory()) return 'a directory'
  if (stat.isFIFO()) return 'a FIFO'
  if (stat.isCharacterDevice()) return 'a character device'
  if (stat.isBlockDevice()) return 'a block device'
  if (stat.isSocket()) return 'a socket'
  return 'not a regular file'
}

/**
 * A small file another process wrote (a pid file), read whole: opened without blocking (a FIFO would block, deaf to
 * signals), only a regular file (a device never ends), and at most `maxBytes` (a sparse file can claim gigabytes).
 * Throws an Error whose message says why, in words.
 */
export function readSmallFile(path: string, maxBytes: number): string {
  const fd = openSync(path, O_RDONLY | O_NONBLOCK)
  try {
    const stat = fstatSync(fd)
    const kind = notRegularFile(stat)
    if (kind !== undefined) throw new Error(`it is ${kind}, not a regular file`)
    if (stat.size > maxBytes) throw new Error(`it is ${stat.size} bytes; at most ${maxBytes} are read`)
    const buffer = Buffer.alloc(maxBytes + 1)
    let length = 0
    // it may grow while read: never past the bound
    for (let n = 1; n > 0 && length <= maxBytes; length += n)
      n = readSync(fd, buffer, length, buffer.length - length, length)
    if (length > maxBytes) throw new Error(`it holds more than ${maxBytes} bytes`)
    return buffer.toString('utf8', 0, length)
  } finally {
    closeSync(fd)
  }
}
