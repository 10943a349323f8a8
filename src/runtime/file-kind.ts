/** What a path is, in words, for a message about a file that must be a regular one. */
import type { Stats } from 'node:fs'

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
