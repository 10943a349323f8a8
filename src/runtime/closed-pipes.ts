/**
 * A reader that leaves early (`wait-for-model … 2>&1 | head -1`) closes the pipe under stdout or stderr. The
 * next write then fails with EPIPE, which Node reports as an 'error' event on the stream: with no listener,
 * an uncaught exception that prints a stack trace and ends the process with status 1, although the server may
 * be ready. The reader has what it wanted, so the rest of that stream's output is dropped (a destroyed stream
 * discards later writes without another event) and the run ends with its own exit status.
 */
export function dropOutputToClosedPipes(streams: readonly NodeJS.EventEmitter[]): void {
  for (const stream of streams)
    stream.on('error', (e: NodeJS.ErrnoException) => {
      // anything else is a real fault, left to fail the run
      if (e.code !== 'EPIPE') throw e
    })
}
