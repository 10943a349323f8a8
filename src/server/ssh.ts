/**
 * A host reached with OpenSSH's own client: one multiplexed connection per host (a ControlMaster in a private temp
 * directory), over which every remote command and port forward runs. Scripts go on stdin, never on a command line.
 */
import type { ChildProcess } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { printable } from '../runtime/text.js'

// node:child_process only where a host is given
const cp = (): typeof import('node:child_process') => process.getBuiltinModule('node:child_process')

/** The variable that gives the ssh command with its options, as GIT_SSH_COMMAND does for git. */
export const SSH_COMMAND_VARIABLE = 'WAIT_FOR_MODEL_SSH_COMMAND'

/** How long the first connection (and a remote command) may take before the host is called unreachable. */
const CONNECT_TIMEOUT_S = 10

/** A remote command's answer. */
export interface RemoteRun {
  code: number | null
  stdout: string
  stderr: string
}

/** A port on loopback that nothing listens on now. */
function freeLocalPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = process.getBuiltinModule('node:net').createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** The ssh command's words: `ssh -F ./ssh_config -i './my key'`, split as a shell would (quotes, no expansion). */
export function sshWords(text: string | undefined): string[] {
  if (text === undefined || text.trim() === '') return ['ssh']
  const words: string[] = []
  for (const m of text.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g))
    words.push(m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? m[3])
  return words
}

/** A word for a POSIX shell, quoted whole. */
export const shellQuoted = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`

/** Why a connection failed, from ssh's own words: a changed host key and an unknown one are told as such. */
export function connectFailure(host: string, stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^[@W]/.test(l) && !l.startsWith('Warning: Permanently added'))
  const said = printable(lines.find((l) => /denied|refused|timed out|resolve|unreachable|No route/i.test(l)) ?? '')
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key for .* has changed/.test(stderr))
    return `the host key of ${host} has changed since it was recorded in known_hosts (a reinstalled host, or someone in between): check it, then update known_hosts`
  if (/Host key verification failed|No .* host key is known/.test(stderr))
    return `the host key of ${host} is not in known_hosts (host-key checking stays on): add it (ssh-keyscan, checked) first`
  return `cannot reach ${host} over ssh (${said || printable(lines[lines.length - 1] ?? 'no answer')})`
}

/** One host, through one master connection; `open` makes it, `close` ends it. */
export class SshHost {
  private readonly dir: string
  private readonly words: string[]

  constructor(
    readonly host: string,
    sshCommand: string | undefined
  ) {
    this.words = sshWords(sshCommand)
    // a private directory (0700): the control socket is the connection itself
    this.dir = mkdtempSync(join(tmpdir(), 'wfm-ssh-'))
  }

  private get controlPath(): string {
    return join(this.dir, 'cm')
  }

  /** ssh's own arguments for one command over the connection, the host last. */
  args(...extra: string[]): string[] {
    return [
      ...this.words.slice(1),
      '-o',
      'BatchMode=yes',
      '-o',
      `ConnectTimeout=${CONNECT_TIMEOUT_S}`,
      '-o',
      `ControlPath=${this.controlPath}`,
      ...extra,
      '--',
      this.host
    ]
  }

  get program(): string {
    return this.words[0]
  }

  /**
   * Opens the master connection (it persists in the background until `close`, or a minute after its last use);
   * the error names the host and why (unreachable, a changed or unknown host key).
   */
  open(): string | undefined {
    const errFile = join(this.dir, 'connect.err')
    const err = openSync(errFile, 'wx', 0o600)
    try {
      // stderr to a file: the backgrounded master keeps it open, and a pipe would never close
      const run = cp().spawnSync(
        this.program,
        [...this.args('-o', 'ControlMaster=yes', '-o', 'ControlPersist=60'), 'true'],
        { stdio: ['ignore', 'ignore', err], timeout: (CONNECT_TIMEOUT_S + 5) * 1000 }
      )
      if (run.status === 0) return undefined
      const stderr = readFileSync(errFile, 'utf8')
      return run.error !== undefined && (run.error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `cannot run "${printable(this.program)}" to reach ${this.host} (not found; ${SSH_COMMAND_VARIABLE} gives the ssh command)`
        : connectFailure(this.host, stderr)
    } finally {
      closeSync(err)
    }
  }

  /** Runs `script` with the remote host's POSIX shell, given on stdin. */
  run(script: string, timeoutMs = 10_000, signal?: AbortSignal): Promise<RemoteRun> {
    return new Promise((resolve) => {
      const child = cp().spawn(this.program, [...this.args(), 'sh -s'], { stdio: ['pipe', 'pipe', 'pipe'] })
      const out: Buffer[] = []
      const err: Buffer[] = []
      child.stdout.on('data', (d: Buffer) => out.push(d))
      child.stderr.on('data', (d: Buffer) => err.push(d))
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
      const onAbort = (): void => void child.kill('SIGKILL')
      signal?.addEventListener('abort', onAbort, { once: true })
      child.once('error', (e) => {
        clearTimeout(timer)
        resolve({ code: null, stdout: '', stderr: e.message })
      })
      child.once('close', (code) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') })
      })
      child.stdin.on('error', () => undefined)
      child.stdin.end(script)
    })
  }

  /** As `run`, blocking: for the few reads that must answer at once (a process's environment). */
  runSync(script: string, timeoutMs = 5_000): RemoteRun {
    const run = cp().spawnSync(this.program, [...this.args(), 'sh -s'], {
      input: script,
      timeout: timeoutMs,
      maxBuffer: 4 * 1024 * 1024
    })
    return { code: run.status, stdout: run.stdout?.toString('utf8') ?? '', stderr: run.stderr?.toString('utf8') ?? '' }
  }

  /** A long-running remote command (a follower, a watcher), its output to `stdout` (a file descriptor) or a pipe. */
  spawn(command: string, stdout: number | 'pipe'): ChildProcess {
    return cp().spawn(this.program, [...this.args(), command], { stdio: ['ignore', stdout, 'ignore'] })
  }

  /** A local port on loopback that leads to `port` on the remote host's loopback, over the connection. */
  async forward(remoteHost: string, port: number): Promise<number | undefined> {
    // ssh takes no port 0 for a local forward: a free one is picked, and picked again should another take it first
    for (let attempt = 0; attempt < 5; attempt++) {
      const local = await freeLocalPort()
      const run = cp().spawnSync(
        this.program,
        this.args('-O', 'forward', '-L', `127.0.0.1:${local}:${remoteHost}:${port}`),
        {
          timeout: CONNECT_TIMEOUT_S * 1000
        }
      )
      if (run.status === 0) return local
    }
    return undefined
  }

  /** Ends the master connection (and every forward over it) and removes the private directory. */
  close(): void {
    cp().spawnSync(this.program, this.args('-O', 'exit'), { stdio: 'ignore', timeout: 5_000 })
    rmSync(this.dir, { recursive: true, force: true })
  }
}
