import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { measureLoad } from '../helpers/bounds.js'
import { engineMissing, IMAGE, startEngine, type TestEngine } from '../helpers/docker-engine.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors } from '../helpers/support.js'

/**
 * `container`: the server is a container of a REAL Docker engine (dockerd on a private socket, helpers/
 * docker-engine.ts), run with --network host from an image imported from this machine's node and dist/, so that
 * the simulator inside serves on loopback. The main step through dist/index.js, the job-end stop through
 * dist/post.js, as a runner runs them. Skipped, saying why, where no dockerd is installed.
 */
const post = new URL('../../dist/post.js', import.meta.url).pathname
const fakeDir = new URL('../fixtures/gpu/', import.meta.url).pathname
const GPU = 'GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e8'
const missing = engineMissing()
const suite = missing === undefined ? describe : describe.skip
if (missing !== undefined) console.warn(`containers.e2e: skipped: ${missing}`)

const box = sandbox('wfm-containers-e2e-')
let engine: TestEngine
let names = 0
const newName = (): string => `wfm-${process.pid}-${++names}`
const simulate = (port: number, more = ''): string =>
  `/bin/node /app/cli.js simulate --engine vllm --model kimi --port ${port} ${more}`

async function mainStep(port: number, inputs: Record<string, string>, env: Record<string, string> = {}) {
  return runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      interval: '200ms',
      timeout: '60s',
      'history-file': '',
      ...inputs
    },
    env: { DOCKER_HOST: engine?.host ?? '', PATH: `${process.env.PATH}`, ...env }
  })
}

async function postStep(state: Record<string, string>, more: Record<string, string> = {}) {
  const env: Record<string, string> = { DOCKER_HOST: engine.host, ...more }
  for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value
  const started = performance.now()
  const run = await runAction({ entry: post, inputs: {}, env })
  return { ...run, ms: performance.now() - started }
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
      'env-report': 'NCCL_*,HF_TOKEN',
      'stop-timeout': '10s'
    })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
    const state = await inspect(name)
    expect(state?.Running).toBe(true)
    expect(run.outputs.pid).toBe(String(state?.Pid))
    expect(run.stdout).toContain('NCCL_DEBUG=INFO')
    expect(run.stdout).not.toContain('hf_secretvalue')
    expect(Number(run.outputs['startup-seconds'])).toBeGreaterThan(1.5)
    expect(run.state['server-container']).toMatch(/^[0-9a-f]{64}$/)

    const p = await postStep(run.state)
    expect(p.code).toBe(0)
    expect(p.stdout).toMatch(
      new RegExp(
        `^Stopped the container ${run.state['server-container']} \\(\\d+ process(es)?\\): SIGTERM, gone after \\d+\\.\\ds`,
        'm'
      )
    )
    // --rm: the engine removed it once it stopped
    expect(await inspect(name)).toBeUndefined()
    console.log(`time to stop (post step, whole process): ${Math.round(p.ms)} ms`)
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
      // killed once it runs, however long a busy machine took to start it
      let done = false
      const killed = (async () => {
        if (kill === undefined) return
        while (!done && (await inspect(name))?.Running !== true) await new Promise((r) => setTimeout(r, 100))
        await new Promise((r) => setTimeout(r, 500))
        if (!done) await engine.docker('kill', name)
      })()
      const stretch = measureLoad()
      const run = await mainStep(port, {
        container: name,
        start: `docker run --name ${name} --network host ${IMAGE} ${simulate(port, args)}`,
        'fail-on-timeout': 'false'
      })
      const ended = Date.now()
      const load = stretch()
      done = true
      await killed
      expect(run.outputs.ready).toBe('false')
      expect(['server-exited', 'log-error']).toContain(run.outputs.reason)
      expect(run.stdout).toMatch(new RegExp(`the container ${name} (then )?exited with code (1|137)`))
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
      start: `docker run --name ${name} --network host ${IMAGE} /bin/no-such-server --port ${port}`,
      'fail-on-timeout': 'false'
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
      const run = await mainStep(port, { container: name, 'fail-on-timeout': 'false', timeout: '10s' })
      expect(run.outputs).toMatchObject({ ready: 'false', reason: 'wrong-server' })
      expect(run.stdout).toContain(`not by a process of the container ${name}`)
    } finally {
      impostor.close()
    }
  }, 120_000)

  it('a container that ignores SIGTERM: SIGKILL after stop-timeout, and it is gone', async () => {
    const port = await freePort()
    const name = newName()
    // node as pid 1 of its container, without --init: the kernel gives it no default for SIGTERM
    const run = await mainStep(port, {
      container: name,
      start: `docker run --name ${name} --network host ${IMAGE} ${simulate(port, '--load 1s')}`,
      'stop-timeout': '1s'
    })
    expect(run.outputs.ready).toBe('true')
    const p = await postStep(run.state)
    expect(p.stdout).toMatch(/it did not exit after SIGTERM, so SIGKILL; gone \d+\.\ds after SIGTERM, exit code 137/)
    expect((await inspect(name))?.Running).toBe(false)
    console.log(`time to stop with SIGKILL after stop-timeout 1s (post step, whole process): ${Math.round(p.ms)} ms`)
  }, 120_000)

  it('an unhealthy HEALTHCHECK ends the wait', async () => {
    const port = await freePort()
    const name = newName()
    const run = await mainStep(port, {
      container: name,
      start:
        `docker run -d --name ${name} --network host --health-cmd 'exit 1' --health-interval 500ms ` +
        `--health-retries 1 ${IMAGE} ${simulate(port, '--load 60s')}`,
      'fail-on-timeout': 'false'
    })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'server-exited' })
    expect(run.stdout).toContain(`the container ${name} is unhealthy`)
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
