import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { runAction } from '../../src/simulator/runner.js'
import { procStat } from '../../src/server/proc.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors, savedServers } from '../helpers/support.js'
import { measureLoad } from '../helpers/bounds.js'
import { markedProcesses, type SshNode, sshNode, sshNodesMissing } from '../helpers/ssh-nodes.js'

/**
 * A server on another host (`host`), through dist/: real sshd in a network namespace of its own plays the host,
 * the simulator the server on it, a fake nvidia-smi (the real CSV format) on that host's PATH its GPU. The
 * namespace shares the file system and the pids, so the test sees from here what runs "there".
 */
const post = new URL('../../dist/post.js', import.meta.url).pathname
const cli = new URL('../../dist/cli.js', import.meta.url).pathname
const fakeSmi = new URL('../fixtures/gpu/nvidia-smi', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const missing = sshNodesMissing()
const box = sandbox('wfm-remote-e2e-')
const maybe = missing === undefined ? describe : describe.skip
if (missing !== undefined) it.skip(`remote host tests: ${missing}`, () => undefined)

const alive = (pid: number): boolean => {
  const state = procStat(pid)?.state
  return state !== undefined && state !== 'Z'
}

/** Processes whose command line names `text`: a follower of the remote log, say. */
const naming = (text: string): number[] =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(text)
      } catch {
        return false
      }
    })
    .map(Number)

/** The loop there that watches `port` (its script names the port as /proc/net/tcp prints it). */
const portLoop = (port: number): number[] => naming(`0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`)

let nodes: SshNode[] = []
afterEach(() => {
  nodes.forEach((n) => n.close())
  nodes = []
})

/** A node whose nvidia-smi shows the simulator serving on `port` holding 21090 MiB. */
async function gpuNode(port: number): Promise<SshNode> {
  const bin = box.path('bin')
  mkdirSync(bin, { recursive: true })
  const state = box.path('gpu.json')
  // the fake's state names the process that holds the memory: the simulator on this port, found when asked
  writeFileSync(
    `${bin}/nvidia-smi`,
    `#!/bin/sh
pid=$(cat ${bin}/busy-pid 2>/dev/null || echo 999999)
for d in /proc/[0-9]*; do
  case "$(tr '\\0' ' ' < $d/cmdline 2>/dev/null)" in *simulate*--port\\ ${port}*) pid=\${d#/proc/};; esac
done
printf '{"gpus":[{"index":0,"uuid":"${GPU}","name":"NVIDIA H200","total":143771}],"apps":[{"pid":%s,"name":"python3","mib":21090,"gpu":"${GPU}"}]}' "$pid" > "$FAKE_NVIDIA_SMI"
exec ${process.execPath} ${fakeSmi} "$@"
`
  )
  chmodSync(`${bin}/nvidia-smi`, 0o755)
  const node = await sshNode(box.dir(), 'head', {
    PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`,
    FAKE_NVIDIA_SMI: state
  })
  nodes.push(node)
  return node
}

const simulate = (port: number, args: string): string =>
  `export NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=eth0; exec ${process.execPath} ${cli} simulate --engine vllm --model kimi --port ${port} ${args}`

const mainStep = (node: SshNode, inputs: Record<string, string>) =>
  runAction({
    entry,
    inputs: { model: 'kimi', host: node.host, interval: '200ms', timeout: '60s', 'history-file': '', ...inputs },
    env: { HOME: box.dir(), XDG_CACHE_HOME: box.path('cache'), WAIT_FOR_MODEL_SSH_COMMAND: node.sshCommand }
  })

maybe('a server on another host (host, over real sshd in a network namespace)', () => {
  it('starts it there, is ready through a forwarded port, reads its phases, environment and GPU memory, and the job-end step stops it there', async () => {
    const port = 18000 + Math.floor(Math.random() * 1000)
    const node = await gpuNode(port)
    const run = await mainStep(node, {
      url: `http://localhost:${port}/v1/models`,
      start: simulate(port, '--load 2s'),
      'env-report': 'NCCL_*'
    })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    const pid = Number(run.outputs.pid)
    box.pids.push(pid)
    expect(run.stdout).toContain(`Started the server on ${node.host} (pid ${pid} there)`)
    expect(run.outputs['gpu-memory-mib']).toBe('21090')
    expect(run.stdout).toMatch(/NCCL_DEBUG=INFO/)
    expect(run.stdout).toMatch(/NCCL_SOCKET_IFNAME=eth0/)
    expect(JSON.parse(run.outputs.phases ?? '[]').length).toBeGreaterThan(1)
    const [saved] = savedServers(run.state)
    expect(saved).toMatchObject({ kind: 'remote', host: node.host, pid })
    // a server on the host (its pid, in the shared pid namespace) that the wait left running
    expect(alive(pid)).toBe(true)
    const marker = saved.runMarker as string
    // once the step is over, nothing of ours follows the server there (its log's follower, its watcher): only the
    // server is left running
    const remoteLog = /its log (\S+) there/.exec(run.stdout)?.[1] as string
    expect(remoteLog).toMatch(/model-server-/)
    const ours = (): number[] => [...naming(remoteLog), ...naming(`/proc/${pid}/stat`), ...portLoop(port)]
    for (let i = 0; i < 20 && ours().length > 0; i++) await new Promise((r) => setTimeout(r, 100))
    expect(ours()).toEqual([])
    expect(markedProcesses(marker)).toContain(pid)

    const env: Record<string, string> = { HOME: box.dir(), WAIT_FOR_MODEL_SSH_COMMAND: node.sshCommand }
    for (const [name, value] of Object.entries(run.state)) env[`STATE_${name}`] = value
    const p = await runAction({ entry: post, inputs: {}, env })
    expect(p.code).toBe(0)
    expect(p.stdout).not.toContain('::warning::')
    expect(p.stdout).toMatch(/GPU memory \(21090 MiB\) was released/)
    expect(p.stdout).toMatch(
      new RegExp(
        `^Stopped the server's processes on ${node.host} that carry its run marker \\(\\d+ in all, pid ${pid} there\\): SIGTERM, gone after`,
        'm'
      )
    )
    expect(alive(pid)).toBe(false)
    // nothing of this run is left on the host
    expect(markedProcesses(marker)).toEqual([])
  })

  it("a crash there during load ends the wait within 2 s, with the remote log's fatal line", async () => {
    const port = 18000 + Math.floor(Math.random() * 1000)
    const node = await gpuNode(port)
    const stretch = measureLoad()
    const began = box.path('began')
    const run = await mainStep(node, {
      url: `http://localhost:${port}/v1/models`,
      // the wall clock when it began there, in ms
      start: `echo $(($(date +%s%N) / 1000000)) > ${began}; ${simulate(port, '--load 30s --crash-after 3s')}`
    })
    const endedAt = Date.now()
    const pid = Number(run.outputs.pid)
    if (pid > 0) box.pids.push(pid)
    expect(run.outputs.ready).toBe('false')
    expect(['log-error', 'server-exited']).toContain(run.outputs.reason)
    // the crash 3 s after it began there; the wait over (the step's process gone) within 2 s of it, stretched by
    // the load measured meanwhile
    const crashAt = Number(readFileSync(began, 'utf8')) + 3_000
    expect(endedAt - crashAt).toBeLessThan(2_000 * stretch())
    expect(errors(run.stdout).join('\n')).toMatch(/is a known fatal vLLM line: .*OutOfMemoryError/)
    // the watch of its port there, which never saw it listen, has ended with the connection
    for (let i = 0; i < 30 && portLoop(port).length > 0; i++) await new Promise((r) => setTimeout(r, 100))
    expect(portLoop(port)).toEqual([])
  })

  it('an unreachable host and a changed host key: one clear error naming the host, nothing started', async () => {
    const port = 18000 + Math.floor(Math.random() * 1000)
    const node = await gpuNode(port)
    const flag = box.path('started')
    const start = `touch ${flag}; ${simulate(port, '--load 1s')}`
    // the node's key changes (a reinstalled host, or someone in between)
    writeFileSync(
      box.path('head', 'known_hosts'),
      `${node.address} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n`
    )
    const changed = await mainStep(node, { url: `http://localhost:${port}/v1/models`, start })
    expect(changed.code).not.toBe(0)
    expect(errors(changed.stdout).join('\n')).toMatch(
      new RegExp(`host key of ${node.host.replace(/\./g, '\\.')} has changed`)
    )
    // the node goes away: its address leads nowhere
    node.close()
    const down = await mainStep(node, { url: `http://localhost:${port}/v1/models`, start, timeout: '30s' })
    expect(down.code).not.toBe(0)
    expect(errors(down.stdout).join('\n')).toMatch(
      new RegExp(`cannot reach ${node.host.replace(/\./g, '\\.')} over ssh`)
    )
    expect(existsSync(flag)).toBe(false)
  })

  it('before start: a port held on the host refuses it (port-busy), and so do GPUs held there with gpu-check: fail', async () => {
    const port = 18000 + Math.floor(Math.random() * 1000)
    const node = await gpuNode(port)
    const flag = box.path('started')
    const start = `touch ${flag}; ${simulate(port, '--load 1s')}`
    // an earlier job's server, still listening on the host's loopback
    const holder = spawn(
      'ip',
      [
        'netns',
        'exec',
        node.netns,
        process.execPath,
        '-e',
        `require('net').createServer().listen(${port}, '127.0.0.1')`
      ],
      { stdio: 'ignore' }
    )
    try {
      await new Promise((resolve) => setTimeout(resolve, 500))
      const busy = await mainStep(node, { url: `http://localhost:${port}/v1/models`, start })
      expect(busy.outputs.reason).toBe('port-busy')
      expect(errors(busy.stdout).join('\n')).toContain(`port ${port} on ${node.host} is already in use`)
      // the same holder, now holding GPU memory there, and the port free
      writeFileSync(box.path('bin', 'busy-pid'), String(holder.pid))
      const other = port + 1
      const gpuBusy = await mainStep(node, {
        url: `http://localhost:${other}/v1/models`,
        start: `touch ${flag}; ${simulate(other, '--load 1s')}`,
        'gpu-check': 'fail'
      })
      expect(gpuBusy.outputs.reason).toBe('gpu-busy')
      expect(errors(gpuBusy.stdout).join('\n')).toContain(`${node.host}: `)
      expect(existsSync(flag)).toBe(false)
    } finally {
      holder.kill('SIGKILL')
    }
  })

  it('pid: a server already running on the host is watched there, its environment read, and stopped with stop: always', async () => {
    const port = 18000 + Math.floor(Math.random() * 1000)
    const node = await gpuNode(port)
    const log = box.path('remote-server.log')
    const server = spawn(
      'ip',
      ['netns', 'exec', node.netns, 'sh', '-c', `${simulate(port, '--load 2s')} > ${log} 2>&1`],
      {
        stdio: 'ignore',
        detached: true
      }
    )
    box.pids.push(server.pid as number)
    // the simulator itself (sh execs it, and ip netns exec too)
    const pid = server.pid as number
    const run = await mainStep(node, {
      url: `http://localhost:${port}/v1/models`,
      pid: String(pid),
      'log-file': log,
      'env-report': 'NCCL_*',
      stop: 'always'
    })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    expect(run.stdout).toContain(`Watching the server on ${node.host} (pid ${pid} there)`)
    expect(run.stdout).toMatch(/NCCL_DEBUG=INFO/)
    expect(savedServers(run.state)).toMatchObject([{ kind: 'remote', host: node.host, pid }])
    const env: Record<string, string> = { HOME: box.dir(), WAIT_FOR_MODEL_SSH_COMMAND: node.sshCommand }
    for (const [name, value] of Object.entries(run.state)) env[`STATE_${name}`] = value
    const p = await runAction({ entry: post, inputs: {}, env })
    expect(p.code).toBe(0)
    expect(alive(pid)).toBe(false)
  })

  it("wrong-server: a ready answer on the host's loopback from a process that is not the watched server ends the wait", async () => {
    const port = 18000 + Math.floor(Math.random() * 1000)
    const node = await gpuNode(port)
    const inNode = (command: string) =>
      spawn('ip', ['netns', 'exec', node.netns, 'sh', '-c', command], { stdio: 'ignore', detached: true })
    // the watched server listens on no port; another process there answers on the URL's
    const watched = inNode(`exec ${process.execPath} -e 'setInterval(() => {}, 1000)'`)
    const stranger = inNode(simulate(port, '--load 0s'))
    box.pids.push(watched.pid as number, stranger.pid as number)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const run = await mainStep(node, { url: `http://localhost:${port}/v1/models`, pid: String(watched.pid) })
    expect(run.outputs.ready).toBe('false')
    expect(run.outputs.reason).toBe('wrong-server')
    expect(errors(run.stdout).join('\n')).toContain(
      `port ${port} on ${node.host} answered ready, but it is held by process ${stranger.pid}`
    )
  })

  it("several nodes (host and start with a line each, the head first): ready with the head, a worker's death ends the wait naming it, the job-end step stops every node", async () => {
    const port = 18000 + Math.floor(Math.random() * 1000)
    const head = await gpuNode(port)
    const worker = await sshNode(box.dir(), 'worker')
    nodes.push(worker)
    const env = { HOME: box.dir(), XDG_CACHE_HOME: box.path('cache'), WAIT_FOR_MODEL_SSH_COMMAND: head.sshCommand }
    // one ssh_config for both: the head's key is the worker's too, and its known_hosts knows both
    writeFileSync(
      box.path('head', 'known_hosts'),
      readFileSync(box.path('head', 'known_hosts'), 'utf8') + readFileSync(box.path('worker', 'known_hosts'), 'utf8')
    )
    writeFileSync(box.path('worker', 'authorized_keys'), readFileSync(box.path('head', 'id.pub')))
    // a headless worker: never exits by itself
    const headless = `exec ${process.execPath} -e 'console.log("worker joined"); setInterval(() => {}, 1000)'`
    const run = await runAction({
      entry,
      inputs: {
        url: `http://localhost:${port}/v1/models`,
        model: 'kimi',
        host: `${head.host}\n${worker.host}`,
        start: `${simulate(port, '--load 2s')}\n${headless}`,
        interval: '200ms',
        timeout: '60s',
        'history-file': ''
      },
      env
    })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    expect(run.stdout).toContain(`Started node 2 of the server on ${worker.host}`)
    const [saved] = savedServers(run.state)
    const workerPid = (saved.nodes as Array<{ pid: number }>)[0].pid
    expect(alive(workerPid)).toBe(true)
    const postEnv: Record<string, string> = { ...env }
    for (const [name, value] of Object.entries(run.state)) postEnv[`STATE_${name}`] = value
    const p = await runAction({ entry: post, inputs: {}, env: postEnv })
    expect(p.code).toBe(0)
    expect(alive(workerPid)).toBe(false)
    expect(markedProcesses(saved.runMarker as string)).toEqual([])

    // a worker that dies while the head loads ends the wait, naming it
    const diedAt = box.path('died-at')
    const dies = `exec ${process.execPath} -e 'setTimeout(() => { require("fs").writeFileSync("${diedAt}", String(Date.now())); process.exit(7) }, 2000)'`
    const stretch = measureLoad()
    const other = port + 1
    const died = await runAction({
      entry,
      inputs: {
        url: `http://localhost:${other}/v1/models`,
        model: 'kimi',
        host: `${head.host}\n${worker.host}`,
        start: `${simulate(other, '--load 30s')}\n${dies}`,
        interval: '200ms',
        timeout: '60s',
        'history-file': '',
        stop: 'never'
      },
      env
    })
    const endedAt = Date.now()
    if (died.outputs.pid) box.pids.push(Number(died.outputs.pid))
    expect(died.outputs.reason).toBe('server-exited')
    expect(errors(died.stdout).join('\n')).toContain(`node 2 (${worker.host}): the server process`)
    // the step over within 2 s of the worker's death, stretched by the load measured meanwhile
    expect(endedAt - Number(readFileSync(diedAt, 'utf8'))).toBeLessThan(2_000 * stretch())
  })
})
