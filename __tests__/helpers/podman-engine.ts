/**
 * A real Podman for the container tests: `podman system service` (rootful) on a private socket, its storage (vfs),
 * run root, tmp dir, network and volume folders, events log and containers.conf all in the run's temporary folder,
 * cgroupfs and no systemd, so that nothing of the machine changes. The containers run from a rootfs folder
 * (`--rootfs`, the Docker suite's rootfs plus /bin/ps, as real server images carry procps) rather than an imported
 * image: Podman 4.3's `import` writes a blob cache to /var/lib/containers/cache whatever its --root. Containers run
 * with --network host only. Everything is stopped and removed by `stop()`. Where no podman is installed (or this is
 * not root, or no init for `--init`), `podmanMissing` says why, and the suite skips with that message.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildRootfs } from './docker-engine.js'
import { runProcess, type ProcessRun } from './support.js'

const dist = new URL('../../dist/', import.meta.url).pathname

export interface TestPodman {
  /** DOCKER_HOST for the action and the client: `unix://…/p.sock`. */
  host: string
  socket: string
  /** `podman --remote --url unix://…`: the client of this service, as a `start` line begins. */
  client: string
  /** What stands for the image in a `run` line: `--rootfs <folder>`. */
  image: string
  /** The service's own version (`4.3.1`). */
  version: string
  /** Runs the podman client against this service. */
  podman(...args: string[]): Promise<ProcessRun>
  stop(): Promise<void>
}

const onPath = (name: string): string | undefined =>
  ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin', ...(process.env.PATH ?? '').split(':')]
    .map((d) => join(d, name))
    .find((p) => existsSync(p))

/** What `--init` runs: Podman's catatonit where installed, else tini (docker.io's docker-init is one). */
const initBinary = (): string | undefined =>
  ['/usr/libexec/podman/catatonit', '/usr/bin/catatonit', '/usr/bin/tini', '/usr/bin/docker-init'].find((p) =>
    existsSync(p)
  )

/** Why Podman cannot run here, or undefined when it can. */
export function podmanMissing(): string | undefined {
  if (process.platform !== 'linux') return 'the Podman tests need Linux'
  const podman = onPath('podman')
  if (podman === undefined)
    return 'no podman here: install it (apt-get install -y --no-install-recommends podman catatonit) to run the Podman tests'
  if (process.getuid?.() !== 0) return 'the Podman tests run a rootful podman system service: root only'
  if (onPath('runc') === undefined && onPath('crun') === undefined) return 'no OCI runtime (runc or crun) for podman'
  if (initBinary() === undefined) return 'no init for podman run --init: install catatonit'
  if (!existsSync(join(dist, 'cli.js'))) return 'no dist/cli.js: run npm run build first'
  try {
    execFileSync(podman, ['--version'], { stdio: 'ignore', timeout: 10_000 })
  } catch (e) {
    return `podman --version failed: ${(e as Error).message}`
  }
  return undefined
}

/** A process's hard limits of open files and of processes (`/proc/<pid>/limits`); unlimited as Infinity. */
function hardLimits(pid: number | 'self'): { nofile: number; nproc: number } {
  const text = readFileSync(`/proc/${pid}/limits`, 'utf8')
  const hard = (name: string): number => {
    const m = new RegExp(`^${name}\\s+\\S+\\s+(\\S+)`, 'm').exec(text)
    return m === null || m[1] === 'unlimited' ? Infinity : Number(m[1])
  }
  return { nofile: hard('Max open files'), nproc: hard('Max processes') }
}

export async function startPodman(): Promise<TestPodman> {
  // a unix socket's path has at most 107 bytes: a short folder of the run's temporary one
  const dir = mkdtempSync(join(tmpdir(), 'pm-'))
  const socket = join(dir, 'p.sock')
  const host = `unix://${socket}`
  const log = join(dir, 'service.log')
  const conf = join(dir, 'containers.conf')
  const podmanPath = onPath('podman') as string
  const global = [
    ...['--root', join(dir, 'root'), '--runroot', join(dir, 'run'), '--tmpdir', join(dir, 'tmp')],
    ...['--storage-driver', 'vfs', '--cgroup-manager', 'cgroupfs', '--events-backend', 'file'],
    ...['--network-config-dir', join(dir, 'net'), '--volumepath', join(dir, 'volumes')]
  ]
  // its temporary files too go with its folder
  const tmp = join(dir, 'tmp')
  mkdirSync(tmp, { recursive: true })
  const env = { PATH: process.env.PATH ?? '', HOME: dir, CONTAINERS_CONF: conf, TMPDIR: tmp }
  // A rootful container's rlimits default to 1048576 open files and processes, which runc cannot set where root
  // lacks CAP_SYS_RESOURCE (a sandbox's root): this process's hard limits instead, processes at most pid_max (podman
  // lowered its own to 32768 as it started here, this machine's pid_max), and a second start should it have less
  const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'))
  const writeConf = (limits: { nofile: number; nproc: number }): void => {
    const nofile = Math.min(limits.nofile, 1_048_576)
    const nproc = Math.min(limits.nproc, pidMax)
    writeFileSync(
      conf,
      [
        '[containers]',
        `default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]`,
        `init_path = "${initBinary() as string}"`,
        '[engine]',
        `events_logfile_path = "${join(dir, 'events.log')}"`,
        ''
      ].join('\n')
    )
  }
  let service: ChildProcess | undefined
  const podman = (...args: string[]): Promise<ProcessRun> =>
    runProcess(podmanPath, ['--remote', '--url', host, ...args], { env })
  const stopService = async (): Promise<void> => {
    const running = service
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGTERM')
    let timer: NodeJS.Timeout | undefined
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 15_000)))])
    clearTimeout(timer)
    if (running.exitCode === null && running.signalCode === null) running.kill('SIGKILL')
  }
  const stop = async (): Promise<void> => {
    if (service !== undefined && service.exitCode === null) {
      await podman('rm', '--all', '--force', '--time', '0')
      await stopService()
    }
    // a container's /dev/shm is mounted in the run root: unmounted before the folder goes
    const mounts = readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' ')[1])
      .filter((m) => m !== undefined && m.startsWith(`${dir}/`))
    for (const m of mounts.reverse()) execFileSync('umount', ['-l', m])
    // the engine's last helper processes (conmon, containerd-shim) may still write there for a moment
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  }
  const start = async (): Promise<string> => {
    const out = openSync(log, 'a')
    service = spawn(podmanPath, [...global, 'system', 'service', '--time=0', host], {
      detached: true,
      stdio: ['ignore', out, out],
      env
    })
    closeSync(out)
    const until = Date.now() + 30_000
    for (;;) {
      const version = await podman('version', '--format', '{{.Server.Version}}')
      if (version.code === 0) return version.stdout.trim()
      if (Date.now() > until || service.exitCode !== null) {
        const said = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : ''
        await stop()
        throw new Error(`podman system service did not start: ${said}`)
      }
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  const mine = hardLimits('self')
  writeConf(mine)
  let version = await start()
  const its = hardLimits(service?.pid as number)
  if (its.nofile < Math.min(mine.nofile, 1_048_576) || its.nproc < Math.min(mine.nproc, pidMax)) {
    await stopService()
    writeConf(its)
    version = await start()
  }
  const rootfs = join(dir, 'rootfs')
  buildRootfs(rootfs, existsSync('/bin/ps') ? ['/bin/ps'] : [])
  return {
    host,
    socket,
    client: `${podmanPath} --remote --url ${host}`,
    image: `--rootfs ${rootfs}`,
    version,
    podman,
    stop
  }
}
