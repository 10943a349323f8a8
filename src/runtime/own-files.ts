/**
 * Writing only our own files: every file the action or the CLI creates or rewrites (the history, its lock and key,
 * a temporary file, the server's log, a summary file) is opened without following a symbolic link (O_NOFOLLOW) and
 * must be a regular file; a new one is created exclusively (O_EXCL) under a random name where its name would
 * otherwise be predictable. A symbolic link planted at one of our paths in a shared folder (a self-hosted runner's
 * tool cache, /tmp) makes the open fail instead of writing wherever the link points.
 */
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, type Stats, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_WRONLY } = constants

/** Thrown for a path that is a symbolic link: the message names it. */
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

/**
 * Opens `path` without following a symbolic link, only if it is a regular file. O_NONBLOCK: opening a FIFO nobody
 * writes to would otherwise block the whole process, past its deadline and deaf to signals; it cannot block a
 * regular file's reads and writes. A symbolic link is SymlinkRefused.
 */
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

/** Creates `path` exclusively (it must not exist, a symbolic link included) and opens it for writing. */
export const createOwn = (path: string, mode = 0o644): number => openOwn(path, O_WRONLY | O_CREAT | O_EXCL, mode)

/**
 * A fresh temporary file beside `path` (same folder, so that a rename over `path` stays on one file system), under
 * a name no one can guess (`.<name>.<16 random hex>.tmp`), created exclusively: its name and its descriptor.
 */
export function createTempBeside(path: string, mode = 0o644): { temp: string; fd: number } {
  const { randomBytes } = process.getBuiltinModule('node:crypto')
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`)
  return { temp, fd: createOwn(temp, mode) }
}

/** Writes `text` as the whole of `path` (created, or emptied), a regular file and not a symbolic link. */
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

/** What a path is when it is not a regular file, in words; undefined for a regular file. */
export function notRegularFile(stat: Stats): string | undefined {
  if (stat.isFile()) return undefined
  if (stat.isDirectory()) return 'a directory'
  if (stat.isFIFO()) return 'a FIFO'
  if (stat.isCharacterDevice()) return 'a character device'
  if (stat.isBlockDevice()) return 'a block device'
  if (stat.isSocket()) return 'a socket'
  return 'not a regular file'
}
