import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { freePort } from '../../src/simulator/server.js'
import { expectEndedByDeadline, measureLoad } from '../helpers/bounds.js'
import { engineMissing, IMAGE, startEngine, type TestEngine } from '../helpers/docker-engine.js'
import { loopback, redirectorScript } from '../helpers/loopback.js'
import { sandbox } from '../helpers/sandbox.js'
import { containerSteps, simulate } from '../helpers/container-steps.js'
import { errors, runMeasured, runProcess, savedServers, stateOf, termOnceRunsNvidiaSmi } from '../helpers/support.js'

/**
 * `container`: the server is a container of a REAL Docker engine (dockerd on a private socket, helpers/
 * docker-engine.ts), run with --network host from an image imported from this machine's node and dist/, so that
 * the simulator inside serves on loopback. The main step through dist/index.js, the job-end stop through
 * dist/post.js, as a runner runs them. Skipped, saying why, where no dockerd is installed.
 */
const fakeDir = new URL('../fixtures/gpu/', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const missing = engineMissing()
const suite = missing === undefined ? describe : describe.skip
if (missing !== undefined) console.warn(`containers.e2e: skipped: ${missing}`)

const box = sandbox('wfm-containers-e2e-')
const net = loopback()
let engine: TestEngine
let names = 0
const newName = (): string => `wfm-${process.pid}-${++names}`

const { mainStep, postStep } = containerSteps(() => engine?.host ?? '')

/** `docker run -d --init --name <name> --network host` of the test image, running `command`. */
const detached = (name: string, ...command: string[]) =>
  engine.docker('run', '-d', '--init', '--name', name, '--network', 'host', IMAGE, ...command)

/** Once the container's output shows the simulator serving (at most 60 s of looking). */
async function serving(name: string): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    const logs = await engine.docker('logs', name)
    if (`${logs.stdout}${logs.stderr}`.includes('[simulated vllm] serving')) return
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** `docker kill` once the container's output shows the simulator serving. */
async function killOnceServing(name: string): Promise<void> {
  await serving(name)
  await engine.docker('kill', name)
}

/** A fake nvidia-smi on PATH (fixtures/gpu) that hangs: its environment. */
function hungNvidiaSmi(): Record<string, string> {
  const state = box.path('gpu.json')
  writeFileSync(
    state,
    JSON.stringify({ gpus: [{ index: 0, uuid: GPU, name: 'NVIDIA H200', total: 143771 }], apps: [], hangMs: 600_000 })
  )
  return { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: state }
}

const inspect = async (name: string): Promise<{ Running: boolean; Pid: number; FinishedAt: string } | undefined> => {
  const r = await engine.docker('inspect', '--format', '{{json .State}}', name)
  return r.code === 0 ? JSON.parse(r.stdout) : undefined
}

suite('servers in containers, with a real Docker engine', () => {
  beforeAll(async () => {
    engine = await startEngine()
  }, 120_000)
  afterAll(async () => engine?.stop(), 60_000)

  it('docker run in the foreground in "start": ready, no wrong-server; env-report from the container; stopped at the job end', async () => {
    const port = await freePort()
    const name = newName()
    const run = await mainStep(port, {
      container: name,
      start: `docker run --rm --init --name ${name} --network host -e NCCL_DEBUG=INFO -e HF_TOKEN=hf_secretvalue ${IMAGE} ${simulate(port, '--load 2s')}`,
      'env-report': 'NCCL_*,HF_TOKEN'
    })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
    const state = await inspect(name)
    expect(state?.Running).toBe(true)
    expect(run.outputs.pid).toBe(String(state?.Pid))
    expect(run.stdout).toContain('NCCL_DEBUG=INFO')
    expect(run.stdout).not.toContain('hf_secretvalue')
    expect(Number(run.outputs['startup-seconds'])).toBeGreaterThan(1.5)
    const saved = savedServers(run.state)[0]
    expect(saved.container).toMatch(/^[0-9a-f]{64}$/)

    const p = await postStep(run.state)
    expect(p.code).toBe(0)
    expect(p.stdout).toMatch(
      new RegExp(
        `^Stopped the container ${String(saved.container)} \\(\\d+ process(es)?\\): SIGTERM, gone after \\d+\\.\\ds`,
        'm'
      )
    )
    // --rm: the engine removed it once it stopped
    expect(await inspect(name)).toBeUndefined()
    console.log(`time to stop (post step, whole process): ${Math.round(p.ms)} ms`)
  }, 120_000)

  it('a fleet of containers, one per url line: each its own, one that exits ends the wait naming it, each stopped at the job end', async () => {
    const ports = await Promise.all([freePort(), freePort(), freePort()])
    const names3 = ports.map(() => newName())
    const url = ports.map((p) => `http://127.0.0.1:${p}/v1/models`).join('\n')
    const start = (load: (i: number) => string) =>
      ports
        .map((p, i) => `docker run -d --init --name ${names3[i]} --network host ${IMAGE} ${simulate(p, load(i))}`)
        .join('\n')
    const run = await mainStep(ports[0], {
      url,
      container: names3.join('\n'),
      start: start((i) => `--load ${500 + 300 * i}ms`)
    })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    const results = JSON.parse(run.outputs.results) as Array<{ ready: boolean; pid: number; container: string }>
    for (const [i, r] of results.entries()) {
      const state = await inspect(names3[i])
      expect(r.ready).toBe(true)
      // each endpoint's own container, by its host pid
      expect(r.pid).toBe(state?.Pid)
      expect(r.container).toMatch(/^[0-9a-f]{64}$/)
    }
    expect(new Set(results.map((r) => r.container)).size).toBe(3)
    const p = await postStep(run.state)
    expect(p.code).toBe(0)
    results.forEach((r, i) =>
      expect(p.stdout).toMatch(
        new RegExp(
          `^Server ${i + 1} of ${results.length} \\(url line ${i + 1}\\): Stopped the container ${r.container} `,
          'm'
        )
      )
    )
    for (const name of names3) expect((await inspect(name))?.Running ?? false).toBe(false)

    // one that exits during its load ends the others' waits at once, naming its URL
    const again = ports.map(() => newName())
    names3.splice(0, 3, ...again)
    const crash = await mainStep(ports[0], {
      url,
      container: again.join('\n'),
      start: start((i) => (i === 1 ? '--load 30s --crash-after 1s' : '--load 30s'))
    })
    const crashed = JSON.parse(crash.outputs.results) as Array<{ ready: boolean; reason: string; url: string }>
    expect(crash.outputs.ready).toBe('false')
    expect(crashed[1].reason).toMatch(/^(log-error|server-exited)$/)
    expect(errors(crash.stdout).join('\n')).toContain(`http://127.0.0.1:${ports[1]}/v1/models`)
    expect(crashed.filter((r) => r.reason === 'cancelled')).toHaveLength(2)
    expect(Number(crash.outputs['elapsed-seconds'])).toBeLessThan(30)
    await postStep(crash.state)
    for (const name of again) expect((await inspect(name))?.Running ?? false).toBe(false)
  }, 180_000)

  it('the CLI stops containers by name, several at once: stop --container a --container b', async () => {
    const ports = await Promise.all([freePort(), freePort()])
    const two = ports.map(() => newName())
    for (const [i, p] of ports.entries())
      expect(
        (
          await engine.docker(
            'run',
            '-d',
            '--init',
            '--name',
            two[i],
            '--network',
            'host',
            IMAGE,
            ...simulate(p, '--load 1s').split(' ')
          )
        ).code
      ).toBe(0)
    const cli = new URL('../../dist/cli.js', import.meta.url).pathname
    const stop = await runProcess(
      process.execPath,
      [cli, 'stop', ...two.flatMap((n) => ['--container', n]), '--timeout', '10s', '--json'],
      {
        env: { PATH: process.env.PATH ?? '', DOCKER_HOST: engine.host }
      }
    )
    expect(stop.code).toBe(0)
    const records = JSON.parse(stop.stdout) as Array<{ container: string; outcome: string }>
    expect(records.map((r) => [r.container, r.outcome])).toEqual(two.map((n) => [n, 'exited']))
    expect(stop.stderr).toMatch(new RegExp(`^Stopped the container ${two[0]} `, 'm'))
    for (const name of two) expect((await inspect(name))?.Running).toBe(false)
  }, 120_000)

  it("env-report of the container's process that listens, beside its main process's, when a wrapper changed them", async () => {
    const port = await freePort()
    const name = newName()
    // the main process (a shell) has NCCL_DEBUG; the server it runs does not (the incident env-report is for)
    const wrapper = `unset NCCL_DEBUG; ${simulate(port, '--load 1s')}; echo exited`
    const run = await mainStep(port, {
      container: name,
      start: `docker run --rm --init --name ${name} --network host -e NCCL_DEBUG=INFO -e NCCL_IB_HCA=mlx5_0 ${IMAGE} /bin/sh -c '${wrapper}'`,
      'env-report': 'NCCL_*'
    })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    const main = (await inspect(name))?.Pid as number
    const said =
      /^Server environment \(process (\d+), which listens on port (\d+); the launched process is (\d+)\):$/m.exec(
        run.stdout
      )
    expect(said?.slice(2)).toEqual([String(port), String(main)])
    expect(Number(said?.[1])).not.toBe(main)
    // the server's own: NCCL_DEBUG is not among them (a glob names only what is set); then the main process's
    const section = run.stdout.slice(run.stdout.indexOf(said?.[0] ?? '@'), run.stdout.indexOf('\nReady after'))
    expect(section.split('\n').slice(1)).toEqual([
      '  NCCL_IB_HCA=mlx5_0',
      `The launched process ${main} has other values for one variable (NCCL_DEBUG): the server did not get what the step set. The launched process has:`,
      '  NCCL_DEBUG=INFO',
      '  NCCL_IB_HCA=mlx5_0',
      "Each environment above is the process's at its start (/proc/PID/environ): a value a process sets later (os.environ in Python) is not seen. With NCCL_DEBUG=INFO in the server's environment, NCCL logs what it took, and that is read from the server log."
    ])
    await postStep(run.state)
  }, 120_000)

  it('docker run -d in "start": the client exits at once, the container is the server', async () => {
    const port = await freePort()
    const name = newName()
    const run = await mainStep(port, {
      container: name,
      start: `docker run -d --init --name ${name} --network host ${IMAGE} ${simulate(port, '--load 1s')}`
    })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs).toMatchObject({ ready: 'true' })
    const p = await postStep(run.state)
    expect(p.code).toBe(0)
    expect((await inspect(name))?.Running).toBe(false)
  }, 120_000)

  it('a container started before the step: ready, its GPU memory by host pid; left running unless stop: always', async () => {
    const port = await freePort()
    const name = newName()
    expect(
      (
        await engine.docker(
          'run',
          '-d',
          '--init',
          '--name',
          name,
          '--network',
          'host',
          IMAGE,
          ...simulate(port, '--load 1s').split(' ')
        )
      ).code
    ).toBe(0)
    const pid = (await inspect(name))?.Pid as number
    const gpuState = box.path('gpu.json')
    writeFileSync(
      gpuState,
      JSON.stringify({
        gpus: [{ index: 0, uuid: GPU, name: 'NVIDIA H200', total: 143771 }],
        apps: [{ pid, name: 'node', mib: 20480, gpu: GPU }]
      })
    )
    const gpuEnv = { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: gpuState }
    // a log-file an earlier run left, its fatal line not this container's
    const logFile = box.path('server.log')
    writeFileSync(logFile, 'torch.OutOfMemoryError: CUDA out of memory.\n')
    const run = await mainStep(
      port,
      { container: name, 'log-file': logFile, 'fail-pattern': 'CUDA out of memory' },
      gpuEnv
    )
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs).toMatchObject({ ready: 'true', pid: String(pid), 'gpu-memory-mib': '20480' })
    // the earlier run's line stays first, this container's output follows it (its engine log, then its own line)
    const kept = readFileSync(logFile, 'utf8')
    expect(kept).toMatch(/^torch.OutOfMemoryError: CUDA out of memory\.\n/)
    expect(kept.slice(kept.indexOf('\n') + 1)).toMatch(/\[simulated vllm\] serving "kimi"/)
    expect(kept.match(/CUDA out of memory/g)).toHaveLength(1)
    // not this job's: the job-end step has nothing to do
    expect(run.state).toEqual({})
    const always = await mainStep(port, { container: name, stop: 'always' })
    expect(always.outputs.ready).toBe('true')
    const p = await postStep(always.state, gpuEnv)
    expect(p.stdout).toMatch(/^Stopped the container \S+ \(\d+ process(es)?\): SIGTERM, gone after \d+\.\ds/m)
    // the host pid nvidia-smi showed holding memory is gone, and so is its memory
    expect(p.stdout).toMatch(/^Its GPU memory \(20480 MiB\) was released \d+\.\ds after SIGTERM\.$/m)
    expect((await inspect(name))?.Running).toBe(false)
  }, 120_000)

  it.each([
    ['exits', '--load 60s --crash-after 1500ms', undefined],
    ['is killed', '--load 60s', 'kill']
  ])(
    'a container that %s during its load ends the wait within 2 s, with server-exited and its log lines',
    async (_, args, kill) => {
      const port = await freePort()
      const name = newName()
      // killed once it has said its first line (an event, not a time: a loaded machine starts it late)
      const killer = kill === undefined ? undefined : killOnceServing(name)
      const stretch = measureLoad()
      const run = await mainStep(port, {
        container: name,
        start: `docker run --name ${name} --network host ${IMAGE} ${simulate(port, args)}`
      })
      const ended = Date.now()
      const load = stretch()
      await killer
      expect(run.outputs.ready).toBe('false')
      expect(['server-exited', 'log-error']).toContain(run.outputs.reason)
      // its exit, or the fatal line it printed as it died (which may end the wait before the exit is seen)
      if (run.outputs.reason === 'server-exited')
        expect(run.stdout).toMatch(new RegExp(`the container ${name} exited with code (1|137)`))
      else expect(run.stdout).toMatch(/is a known fatal vLLM line: .*CUDA out of memory/)
      // the container's own lines, from the engine
      expect(run.stdout).toMatch(/\[simulated vllm\] serving "kimi"/)
      const finished = Date.parse((await inspect(name))?.FinishedAt as string)
      // the action's process ends after its report: the exit was seen before that
      const seenMs = ended - finished
      console.log(`time to see the exit (${kill ?? 'crash'}), to the action's end: ${seenMs} ms`)
      // within 2 s on an idle machine; times the load measured during the run on a busy one
      expect(seenMs).toBeLessThan(2_000 * load)
    },
    120_000
  )

  it("a container the runtime cannot start ends the wait at once, with the engine's error", async () => {
    const port = await freePort()
    const name = newName()
    const stretch = measureLoad()
    const run = await mainStep(port, {
      container: name,
      start: `docker run --name ${name} --network host ${IMAGE} /bin/no-such-server --port ${port}`
    })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'server-exited' })
    expect(run.stdout).toMatch(
      new RegExp(`the container ${name} could not be started \\(exit code 127; the engine: .*no such file`)
    )
    // at once, on its own clock: not the 60 s timeout (within 10 s idle, times the load on a busy machine)
    expect(Number(run.outputs['elapsed-seconds'])).toBeLessThan(Math.min(10 * stretch(), 50))
  }, 120_000)

  it("a listener that is not the container's is wrong-server", async () => {
    const port = await freePort()
    const other = await freePort()
    const name = newName()
    // the container serves on another port; this test's process answers on the probed one, as the model server
    const body = '{"object":"list","data":[{"id":"kimi","object":"model"}]}'
    const impostor = createServer((s) =>
      s.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`)
    )
    await new Promise<void>((r) => impostor.listen(port, '127.0.0.1', r))
    try {
      const args = simulate(other, '--load 1s').split(' ')
      expect(
        (await engine.docker('run', '-d', '--init', '--name', name, '--network', 'host', IMAGE, ...args)).code
      ).toBe(0)
      const run = await mainStep(port, { container: name, timeout: '10s' })
      expect(run.outputs).toMatchObject({ ready: 'false', reason: 'wrong-server' })
      expect(run.stdout).toContain(`not by a process of the container ${name}`)
    } finally {
      impostor.close()
    }
  }, 120_000)

  it('a container that redirects its model list to a foreign local server is wrong-server, naming the port that answered; to a port of its own, ready', async () => {
    // the foreign server is this test's own process: no process of the container
    const models = JSON.stringify({ data: [{ id: 'kimi' }] })
    const foreign = await net.http((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(models)
    )
    const foreignPort = Number(new URL(foreign).port)
    /** The container's server: /v1/models on `port` redirects (302) to `to`; with `own`, it serves that port too. */
    const redirector = async (port: number, to: string, own?: number): Promise<string> => {
      const name = newName()
      expect((await detached(name, '/bin/node', '-e', redirectorScript(port, to, own, models))).code).toBe(0)
      return name
    }
    const port = await freePort()
    const name = await redirector(port, `${foreign}/v1/models`)
    const run = await mainStep(port, { container: name, timeout: '20s' })
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'wrong-server' })
    const [error] = errors(run.stdout)
    expect(error).toContain(`http://127.0.0.1:${port} redirected to http://127.0.0.1:${foreignPort}: `)
    expect(error).toContain(`Port ${foreignPort} is answered by pid ${process.pid} (`)
    expect(error).toContain(`not by a process of the container ${name}`)

    const [second, own] = [await freePort(), await freePort()]
    const itself = await redirector(second, `http://127.0.0.1:${own}/v1/models`, own)
    const ready = await mainStep(second, { container: itself, timeout: '20s' })
    expect(errors(ready.stdout)).toEqual([])
    expect(ready.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
  }, 120_000)

  it('a container that ignores SIGTERM: SIGKILL after the stop timeout, and it is gone', async () => {
    const port = await freePort()
    const name = newName()
    // node as pid 1 of its container, without --init: the kernel gives it no default for SIGTERM
    const run = await mainStep(port, {
      container: name,
      start: `docker run --name ${name} --network host ${IMAGE} ${simulate(port, '--load 1s')}`
    })
    expect(run.outputs.ready).toBe('true')
    const stretch = measureLoad()
    // the job-end state is the post step's input: this one gives SIGTERM a second
    const [saved] = savedServers(run.state)
    const p = await postStep(stateOf({ ...saved, timeoutMs: 1000 }))
    const gone = /it did not exit after SIGTERM, so SIGKILL; gone (\d+\.\d)s after SIGTERM, exit code 137/.exec(
      p.stdout
    )
    expect(gone).not.toBeNull()
    // within stop-timeout: SIGKILL when it passed, and gone at once after it (the slack stretched by the load)
    expect(Number(gone?.[1])).toBeLessThanOrEqual(1 + 1 * stretch())
    expect((await inspect(name))?.Running).toBe(false)
    console.log(
      `time to stop with SIGKILL after the stop timeout 1s (post step, whole process): ${Math.round(p.ms)} ms`
    )
  }, 120_000)

  it('an unhealthy HEALTHCHECK ends the wait', async () => {
    const port = await freePort()
    const name = newName()
    const run = await mainStep(port, {
      container: name,
      start:
        `docker run -d --name ${name} --network host --health-cmd 'exit 1' --health-interval 500ms ` +
        `--health-retries 1 ${IMAGE} ${simulate(port, '--load 60s')}`
    })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'server-exited' })
    expect(run.stdout).toContain(`the container ${name} is unhealthy`)
  }, 120_000)

  it('a log-file that is a symbolic link, with a container and no start: an input error naming log-file before anything runs, the victim untouched', async () => {
    const port = await freePort()
    const name = newName()
    expect((await detached(name, ...simulate(port, '--load 1s').split(' '))).code).toBe(0)
    // planted where the step's log goes: the container's output would be appended to whatever it points to
    const victim = box.path('victim.txt')
    writeFileSync(victim, 'not yours\n')
    const link = box.path('container.log')
    symlinkSync(victim, link)
    const run = await mainStep(port, { container: name, 'log-file': link })
    expect(run.code).toBe(1)
    expect(errors(run.stdout)).toEqual([
      `::error title=Invalid input::Input "log-file": "${link}" is a symbolic link, and the container's output (from "container") is written to ` +
        'it; a link is never followed: give the path of a regular file (or of one to create), not a link to it'
    ])
    // nothing ran: no watch of the container, no probe
    expect(run.stdout).not.toContain('Watching the container')
    expect(run.stdout).not.toMatch(/HTTP 200|connection refused/)
    // a fleet of containers: the line of the link
    const fleet = await mainStep(port, {
      url: `http://127.0.0.1:${port}/v1/models\nhttp://127.0.0.1:${await freePort()}/v1/models`,
      container: `${name}\n${name}`,
      'log-file': `${box.path('first.log')}\n${link}`
    })
    expect(fleet.code).toBe(1)
    expect(errors(fleet.stdout).join('\n')).toMatch(
      /^::error title=Invalid input::Input "log-file": line 2: ".*container\.log" is a symbolic link/
    )
    expect(fleet.stdout).not.toContain('Watching the container')
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
  }, 120_000)

  it('a hung nvidia-smi after ready (gpu-memory-mib): the step ends by its deadline, ready; a cancel while it hangs ends it at once', async () => {
    const port = await freePort()
    const name = newName()
    expect((await detached(name, ...simulate(port, '--load 0s').split(' '))).code).toBe(0)
    await serving(name)
    const gpuEnv = hungNvidiaSmi()
    const inputs = { url: `http://127.0.0.1:${port}/v1/models`, model: 'kimi', interval: '200ms', 'history-file': '' }
    const env = { DOCKER_HOST: engine.host, ...gpuEnv }
    const run = await runMeasured({ ...inputs, container: name, timeout: '3s' }, env)
    expect(run.outputs.ready).toBe('true')
    // it was asked (for gpu-memory-mib), and the step did not wait for its answer past the deadline
    expect(existsSync(`${gpuEnv.FAKE_NVIDIA_SMI}.calls`)).toBe(true)
    expectEndedByDeadline(run, 3_000)
    const term = termOnceRunsNvidiaSmi()
    const cancelled = await runMeasured({ ...inputs, container: name, timeout: '60s' }, env, { onStart: term.onStart })
    expect(term.at()).toBeGreaterThan(0)
    expect(performance.now() - term.at()).toBeLessThan(1_500 * cancelled.stretch)
    expect(cancelled.outputs).toMatchObject({ ready: 'false', reason: 'cancelled' })
    expect((await inspect(name))?.Running).toBe(true)
  }, 120_000)

  it('a cancel of the job-end step while nvidia-smi hangs: the container is killed at once, the step says so and ends', async () => {
    const port = await freePort()
    const name = newName()
    // node as pid 1 of its container, without --init: it ignores SIGTERM, and the stop-timeout is 30 s
    const run = await mainStep(port, {
      container: name,
      start: `docker run -d --name ${name} --network host ${IMAGE} ${simulate(port, '--load 0s')}`
    })
    expect(run.outputs.ready).toBe('true')
    const term = termOnceRunsNvidiaSmi()
    const stretch = measureLoad()
    const p = await postStep(run.state, hungNvidiaSmi(), term.onStart)
    const load = stretch()
    expect(term.at()).toBeGreaterThan(0)
    const afterSignalMs = performance.now() - term.at()
    console.log(`job-end step cancelled while nvidia-smi hangs, signal to its end: ${Math.round(afterSignalMs)} ms`)
    // the engine's SIGKILL and its answer, then up to a second for the container's processes to go
    expect(afterSignalMs).toBeLessThan(2_500 * load)
    expect(p.code).toBe(0)
    expect(p.stdout).toMatch(
      /^Stopped the container \S+ \(\d+ process(es)?\): SIGTERM, then SIGKILL at once \(the stop was cancelled\)/m
    )
    expect(p.stdout).toContain('::warning::The job-end step was cancelled (SIGTERM)')
    expect((await inspect(name))?.Running).toBe(false)
  }, 120_000)

  it('no such container: an input error naming "container"', async () => {
    const none = await mainStep(await freePort(), { container: 'no-such-container' })
    expect(none.code).toBe(1)
    expect(errors(none.stdout).join('\n')).toMatch(
      /Input "container": "no-such-container" is no container of the engine/
    )
  }, 60_000)
})

describe('servers in containers, without an engine', () => {
  it('no engine at DOCKER_HOST: an input error naming "container" and the socket, before anything runs', async () => {
    const port = await freePort()
    const run = await mainStep(
      port,
      { container: 'x', start: `touch ${box.path('ran')}` },
      { DOCKER_HOST: `unix://${box.path('none.sock')}` }
    )
    expect(run.code).toBe(1)
    expect(errors(run.stdout).join('\n')).toMatch(
      /Input "container": needs a Docker engine, and none answers at ".*none\.sock" \(ENOENT\)/
    )
    expect(existsSync(box.path('ran'))).toBe(false)
  })
  it("DOCKER_HOST over TCP: an input error (the engine would be another host's)", async () => {
    const run = await mainStep(await freePort(), { container: 'x' }, { DOCKER_HOST: 'tcp://10.0.0.1:2375' })
    expect(errors(run.stdout).join('\n')).toMatch(/Input "container": needs the Docker engine on a unix socket/)
  })
})
