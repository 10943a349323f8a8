/**
 * A reader that leaves early (`… | head -1`) makes the next write fail with EPIPE, an uncaught 'error' that would
 * end the run with status 1 although the server may be ready: the rest of that output is dropped instead.
 */
export function dropOutputToClosedPipes(streams: readonly NodeJS.EventEmitter[]): void {
  for (const stream of streams)
    stream.on('error', (e: NodeJS.ErrnoException) => {
      // anything else is a real fault, left to fail the run
      if (e.code !== 'EPIPE') throw e
    })
}
