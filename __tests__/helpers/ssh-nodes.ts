/**
 * Real OpenSSH servers as the "nodes" of a remote server: each sshd runs in a network namespace of its own with its
 * own address (a veth pair made here, as root), with host keys, authorized_keys and an ssh_config in the test's
 * temporary directory; nothing of /root/.ssh or /etc/ssh is used. The namespaces share the file system and pids,
 * so the same node and dist/ run on every node.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const SSHD = '/usr/sbin/sshd'

/** Why these tests cannot run here, or undefined when they can. */
export function sshNodesMissing(): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root (network namespaces and sshd)'
  if (!existsSync(SSHD)) return `needs ${SSHD} (apt-get install -y openssh-server)`
  if (spawnSync('ip', ['netns', 'list']).status !== 0) return 'needs iproute2 with network namespaces (ip netns)'
  return undefined
}

export interface SshNode {
  /** The ssh destination: root@<its address>. */
  host: string
  address: string
  /** WAIT_FOR_MODEL_SSH_COMMAND for it: the ssh_config with its key and known_hosts. */
  sshCommand: string
  /** The namespace, to run a command inside it. */
  netns: string
  /** The host key's files, to change the key (a "reinstalled" node). */
  hostKey: string
  /** Ends sshd and removes its namespace. */
  close(): void
}

const run = (cmd: string, args: string[]): void => void execFileSync(cmd, args, { stdio: 'pipe' })

/** A node named `name` in `dir`, its sessions' PATH starting with `path` and `env` set for them. */
export async function sshNode(dir: string, name: string, env: Record<string, string> = {}): Promise<SshNode> {
  const r = Math.floor(Math.random() * 0xffff)
  const netns = `wfm-${name}-${r.toString(16)}`
  const [outer, inner] = [`wo${r.toString(16)}`, `wi${r.toString(16)}`]
  const subnet = `10.${200 + (r % 50)}.${r >> 8}`
  const [local, address] = [`${subnet}.1`, `${subnet}.2`]
  const home = join(dir, name)
  mkdirSync(home, { recursive: true })
  run('ip', ['netns', 'add', netns])
  let sshd: ChildProcess | undefined
  const close = (): void => {
    sshd?.kill('SIGKILL')
    spawnSync('ip', ['netns', 'del', netns])
    spawnSync('ip', ['link', 'del', outer])
  }
  try {
    run('ip', ['link', 'add', outer, 'type', 'veth', 'peer', 'name', inner])
    run('ip', ['link', 'set', inner, 'netns', netns])
    run('ip', ['addr', 'add', `${local}/30`, 'dev', outer])
    run('ip', ['link', 'set', outer, 'up'])
    run('ip', ['netns', 'exec', netns, 'ip', 'addr', 'add', `${address}/30`, 'dev', inner])
    run('ip', ['netns', 'exec', netns, 'ip', 'link', 'set', inner, 'up'])
    run('ip', ['netns', 'exec', netns, 'ip', 'link', 'set', 'lo', 'up'])
    const hostKey = join(home, 'host_key')
    const key = join(home, 'id')
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey])
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key])
    writeFileSync(join(home, 'authorized_keys'), readFileSync(`${key}.pub`))
    writeFileSync(join(home, 'known_hosts'), `${address} ${readFileSync(`${hostKey}.pub`, 'utf8')}`)
    // the node shares this machine's files: its sessions' temporary files (a log made by mktemp) go in its folder
    const tmp = join(home, 'tmp')
    mkdirSync(tmp, { recursive: true })
    const setEnv = Object.entries({ TMPDIR: tmp, ...env }).map(([k, v]) => `${k}=${v}`)
    writeFileSync(
      join(home, 'sshd_config'),
      [
        `ListenAddress ${address}`,
        `HostKey ${hostKey}`,
        `AuthorizedKeysFile ${join(home, 'authorized_keys')}`,
        `PidFile ${join(home, 'sshd.pid')}`,
        'StrictModes no',
        'UsePAM no',
        'PermitRootLogin prohibit-password',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'MaxSessions 50',
        'MaxStartups 50',
        `SetEnv ${setEnv.join(' ')}`
      ].join('\n') + '\n'
    )
    writeFileSync(
      join(home, 'ssh_config'),
      [
        'Host *',
        '  User root',
        `  IdentityFile ${key}`,
        '  IdentitiesOnly yes',
        `  UserKnownHostsFile ${join(home, 'known_hosts')}`,
        '  GlobalKnownHostsFile /dev/null',
        '  StrictHostKeyChecking yes',
        '  LogLevel ERROR'
      ].join('\n') + '\n'
    )
    // sshd's privilege separation directory (empty; Debian's package makes it at boot)
    mkdirSync('/run/sshd', { recursive: true })
    sshd = spawn('ip', ['netns', 'exec', netns, SSHD, '-D', '-e', '-f', join(home, 'sshd_config')], {
      stdio: ['ignore', 'ignore', 'pipe']
    })
    let said = ''
    sshd.stderr?.on('data', (d: Buffer) => (said += d.toString()))
    const sshCommand = `ssh -F ${join(home, 'ssh_config')}`
    for (let i = 0; ; i++) {
      const probe = spawnSync('ssh', ['-F', join(home, 'ssh_config'), '-o', 'BatchMode=yes', address, 'true'])
      if (probe.status === 0) break
      if (i > 50) throw new Error(`sshd in ${netns} did not answer: ${said} ${probe.stderr.toString()}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    return { host: `root@${address}`, address, sshCommand, netns, hostKey, close }
  } catch (e) {
    close()
    throw e
  }
}

/** Processes that carry `marker` in their environment: what a run left on the nodes (they share this machine). */
export const markedProcesses = (marker: string): number[] =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/environ`, 'latin1').includes(`WAIT_FOR_MODEL_RUN=${marker}`)
      } catch {
        return false
      }
    })
    .map(Number)
