/**
 * A real Docker engine for the container tests: dockerd on a private socket, its data and exec roots in the run's
 * temporary folder (vfs, no bridge, no iptables: nothing of the machine changes), and a test image imported from
 * a local rootfs (this node binary, the libraries `ldd` lists for it and /bin/sh, and dist/ as /app), since no
 * registry can be reached. Containers run with --network host only, so that every test's traffic stays on
 * loopback. Everything is stopped and removed by `stop()`. Where no dockerd is installed (or this is not root),
 * `startEngine` answers why, and the suites skip with that message.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { runProcess, type ProcessRun } from './support.js'

export const IMAGE = 'wfm-test:1'
const dist = new URL('../../dist/', import.meta.url).pathname

export interface TestEngine {
  /** DOCKER_HOST for the action and the client: `unix://…/d.sock`. */
  host: string
  socket: string
  /** Runs the docker client against this engine. */
  docker(...args: string[]): Promise<ProcessRun>
  stop(): Promise<void>
}

const onPath = (name: string): string | undefined =>
  ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin', ...(process.env.PATH ?? '').split(':')]
    .map((d) => join(d, name))
    .find((p) => existsSync(p))

/** Why the engine cannot run here, or undefined when it can. */
export function engineMissing(): string | undefined {
  if (process.platform !== 'linux') return 'the container tests need Linux'
  if (onPath('dockerd') === undefined || onPath('docker') === undefined)
    return 'no dockerd here: install docker.io (apt-get install -y docker.io) to run the container tests'
  if (process.getuid?.() !== 0) return 'dockerd needs root: the container tests run as root only'
  if (!existsSync(join(dist, 'cli.js'))) return 'no dist/cli.js: run npm run build first'
  return undefined
}

export async function startEngine(): Promise<TestEngine> {
  // a unix socket's path has at most 107 bytes: a short folder of the run's temporary one
  const dir = mkdtempSync(join(tmpdir(), 'dk-'))
  const socket = join(dir, 'd.sock')
  const host = `unix://${socket}`
  const log = join(dir, 'dockerd.log')
  // the engine's own temporary files (containerd's `containerd.<pid>.stacks.log` on a slow stop) go with its folder
  const engineTmp = join(dir, 'tmp')
  mkdirSync(engineTmp)
  const dockerd: ChildProcess = spawn(
    'sh',
    [
      '-c',
      `exec ${onPath('dockerd')} --data-root ${dir}/root --exec-root ${dir}/exec -H ${host} --pidfile ${dir}/d.pid ` +
        `--storage-driver vfs --bridge=none --iptables=false --ip6tables=false > ${log} 2>&1`
    ],
    { detached: true, stdio: 'ignore', env: { ...process.env, DOCKER_HOST: host, TMPDIR: engineTmp } }
  )
  const docker = (...args: string[]): Promise<ProcessRun> =>
    runProcess(onPath('docker') as string, args, { env: { PATH: process.env.PATH, DOCKER_HOST: host, HOME: dir } })
  const stop = async (): Promise<void> => {
    const ids = (await docker('ps', '-aq')).stdout.split('\n').filter(Boolean)
    if (ids.length > 0) await docker('rm', '-f', ...ids)
    await docker('rmi', '-f', IMAGE)
    const exited = new Promise((resolve) => dockerd.once('exit', resolve))
    if (dockerd.exitCode === null) dockerd.kill('SIGTERM')
    let timer: NodeJS.Timeout | undefined
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 15_000)))])
    clearTimeout(timer)
    if (dockerd.exitCode === null) dockerd.kill('SIGKILL')
    // dockerd leaves its network namespace mounted in the exec root (nsfs): unmounted before the folder goes
    const mounts = readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' ')[1])
      .filter((m) => m !== undefined && m.startsWith(`${dir}/`))
    for (const m of mounts.reverse()) execFileSync('umount', ['-l', m])
    // the engine's last helper processes (conmon, containerd-shim) may still write there for a moment
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  }
  const until = Date.now() + 30_000
  while ((await docker('version', '--format', '{{.Server.Version}}')).code !== 0) {
    if (Date.now() > until || dockerd.exitCode !== null) {
      const said = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : ''
      await stop()
      throw new Error(`dockerd did not start: ${said}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  const imported = await importImage(dir, docker)
  if (imported.code !== 0) {
    await stop()
    throw new Error(`docker import failed: ${imported.stderr}`)
  }
  return { host, socket, docker, stop }
}

/** The test image: the rootfs (`buildRootfs`) as a tarball, imported. */
async function importImage(dir: string, docker: TestEngine['docker']): Promise<ProcessRun> {
  const root = join(dir, 'rootfs')
  buildRootfs(root)
  const tar = join(dir, 'rootfs.tar')
  execFileSync('tar', ['-C', root, '-cf', tar, '.'])
  rmSync(root, { recursive: true, force: true })
  const run = await docker('import', tar, IMAGE)
  rmSync(tar, { force: true })
  return run
}

/**
 * The rootfs at `root`: /bin/node (this one), /bin/sh (dash), the `more` host binaries (at the same path), their
 * libraries at the paths ldd names, and dist/ as /app. Also the podman suite's (helpers/podman-engine.ts).
 */
export function buildRootfs(root: string, more: string[] = []): void {
  const put = (from: string, to: string): void => {
    mkdirSync(dirname(join(root, to)), { recursive: true })
    copyFileSync(from, join(root, to))
  }
  const sh = existsSync('/bin/dash') ? '/bin/dash' : '/bin/sh'
  put(process.execPath, '/bin/node')
  put(sh, '/bin/sh')
  for (const binary of more) put(binary, binary)
  for (const binary of [process.execPath, sh, ...more])
    for (const line of execFileSync('ldd', [binary], { encoding: 'utf8' }).split('\n')) {
      const lib = /(\/\S+) \(0x/.exec(line)?.[1]
      if (lib !== undefined && !existsSync(join(root, lib))) put(lib, lib)
    }
  cpSync(dist, join(root, 'app'), { recursive: true })
  mkdirSync(join(root, 'tmp'), { recursive: true })
}
