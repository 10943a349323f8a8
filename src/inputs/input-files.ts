/** The inputs that name a file, checked when the inputs are read, so that a wrong path fails before any request. */
import { readFileSync, type Stats, statSync } from 'node:fs'
import { ProblemError } from './input-error.js'
import { printable } from '../runtime/text.js'
import { isSymlink, notRegularFile } from '../runtime/own-files.js'

const CA_FORM = 'the path of a PEM file of CA certificates (-----BEGIN CERTIFICATE-----)'

/** `ca-cert`: reads and checks the PEM file now. */
export function readCaCert(path: string): string {
  const value = printable(path)
  let pem: string
  try {
    pem = readFileSync(path, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message
    throw new ProblemError({ problem: `cannot read "${value}" (${code})`, form: CA_FORM }, { cause: e })
  }
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  if (blocks.length === 0) throw new ProblemError({ value, problem: 'holds no certificate', form: CA_FORM })
  for (const block of blocks) {
    try {
      // node:crypto only here, for a ca-cert: loading it costs 5 ms and 3 MB on Node 24
      new (process.getBuiltinModule('node:crypto').X509Certificate)(block)
    } catch {
      throw new ProblemError({ value, problem: 'holds a certificate that cannot be read', form: CA_FORM })
    }
  }
  return pem
}

/**
 * `log-file`: a log that exists must be a regular file (followed through symlinks): a FIFO blocks whoever opens it,
 * and a device such as /dev/zero never ends. One not written yet is fine: the server writes it. Where the action
 * writes it (`writer`: the output of the server `start` runs, or of the `container`, through its engine), it must
 * not be a symbolic link either: the output would go wherever the link points. A log only read (`pid`) may be one.
 */
export function checkLogFile(path: string, writer?: 'start' | 'container'): void {
  if (writer !== undefined && isSymlink(path))
    throw new ProblemError({
      value: printable(path),
      problem: `is a symbolic link, and ${writer === 'start' ? '"start" writes the server\'s output' : 'the container\'s output (from "container") is written'} to it; a link is never followed`,
      form: 'the path of a regular file (or of one to create), not a link to it'
    })
  let stat: Stats
  try {
    stat = statSync(path)
  } catch {
    return
  }
  const what = notRegularFile(stat)
  if (what !== undefined)
    throw new ProblemError({
      value: printable(path),
      problem: `is ${what}`,
      form: "the path of a regular file (the server's log)"
    })
}
