import { freePort } from '../../src/simulator/server.js'
import { HANG_MS } from '../helpers/bounds.js'
import { podmanMissing, startPodman, type TestPodman } from '../helpers/podman-engine.js'
import { errors, savedServers } from '../helpers/support.js'
import { containerSteps, simulate } from '../helpers/container-steps.js'

/**
 * `container` with Podman's Docker-compatible socket: a REAL rootful `podman system service` on a private socket
 * (helpers/podman-engine.ts), the action's `start` a `podman --remote run` line, the containers run with
 * --network host from a rootfs of this machine's node and dist/ (and /bin/ps, as real images have procps). The
 * main step through dist/index.js, the job-end stop through dist/post.js, as a runner runs them, with
 * DOCKER_HOST=unix://<podman.sock>. Skipped, saying why, where podman is not installed.
 */
const missing = podmanMissing()
const suite = missing === undefined ? describe : describe.skip
if (missing !== undefined) console.warn(`podman.e2e: skipped: ${missing}`)

let engine: TestPodman
let names = 0
const newName = (): string => `wfm-pm-${process.pid}-${++names}`

const { mainStep, postStep } = containerSteps(() => engine?.host ?? '')

interface State {
  Running: boolean
  Pid: number
  StartedAt: string
  FinishedAt: string
}
const inspect = async (name: string): Promise<State | undefined> => {
  const r = await engine.podman('inspect', '--format', '{{json .State}}', name)
  return r.code === 0 ? (JSON.parse(r.stdout) as State) : undefined
}

/** Calls `each` every 100 ms until it answers true or `until` settles (at most 60 s). */
async function whileRunning(until: Promise<unknown>, each: () => Promise<boolean>): Promise<void> {
  let over = false
  void until.finally(() => (over = true))
  for (let tries = 0; !over && tries < 600; tries++) {
    if (await each()) return
    await new Promise((r) => setTimeout(r, 100))
  }
}

suite('servers in containers, with a real Podman (podman system service)', () => {
  beforeAll(async () => {
    engine = await startPodman()
    console.log(`podman.e2e: Podman ${engine.version}`)
  }, 120_000)
  afterAll(async () => engine?.stop(), 60_000)

  it('podman run in the foreground in "start": ready, pid the host pid, env-report from the container, stopped at the job end', async () => {
    const port = await freePort()
    const name = newName()
    const run = await mainStep(port, {
      container: name,
      start:
        `${engine.client} run --rm --init --name ${name} --network host -e NCCL_DEBUG=INFO ` +
        `-e HF_TOKEN=hf_secretvalue ${engine.image} ${simulate(port, '--load 2s')}`,
      'env-report': 'NCCL_*,HF_TOKEN'
    })
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
    const state = await inspect(name)
    expect(state?.Running).toBe(true)
    expect(run.outputs.pid).toBe(String(state?.Pid))
    expect(run.stdout).toContain('NCCL_DEBUG=INFO')
    expect(run.stdout).not.toContain('hf_secretvalue')
    // no HEALTHCHECK: Podman says Health {"Status": ""}, which is no health to report
    expect(run.stdout).not.toContain('(its HEALTHCHECK)')
    expect(Number(run.outputs['startup-seconds'])).toBeGreaterThan(1.5)
    const saved = savedServers(run.state)[0]
    expect(saved.container).toMatch(/^[0-9a-f]{64}$/)
    // the container's processes as host pids (catatonit and node), as the job-end step must count them
    const top = await engine.podman('top', name, 'hpid')
    const hostPids = top.stdout.split('\n').slice(1).filter(Boolean).map(Number)
    expect(hostPids).toContain(state?.Pid)

    const p = await postStep(run.state)
    expect(p.code).toBe(0)
    const count = `${hostPids.length} process${hostPids.length === 1 ? '' : 'es'}`
    expect(p.stdout).toMatch(
      new RegExp(
        `^Stopped the container ${String(saved.container)} \\(${count}\\): SIGTERM, gone after \\d+\\.\\ds`,
        'm'
      )
    )
    // --rm: the engine removed it once it stopped
    expect(await inspect(name)).toBeUndefined()
    console.log(`time to stop (post step, whole process): ${Math.round(p.ms)} ms`)
  }, 120_000)

  it.each([
    ['exits', '--load 60s --crash-after 1500ms', false],
    ['is killed', '--load 60s', true]
  ])(
    'a container that %s during its load ends the wait at its exit, with server-exited and its log lines',
    async (_, args, kill) => {
      const port = await freePort()
      const name = newName()
      const run = mainStep(port, {
        container: name,
        start: `${engine.client} run --name ${name} --network host ${engine.image} ${simulate(port, args)}`
      })
      // killed once it has said its first line (an event, not a time: a loaded machine starts it late)
      if (kill)
        await whileRunning(run, async () => {
          const logs = await engine.podman('logs', name)
          if (!`${logs.stdout}${logs.stderr}`.includes('[simulated vllm] serving')) return false
          return (await engine.podman('kill', name)).code === 0
        })
      const done = await run
      const ended = Date.now()
      expect(done.outputs.ready).toBe('false')
      expect(['server-exited', 'log-error']).toContain(done.outputs.reason)
      if (done.outputs.reason === 'server-exited')
        expect(done.stdout).toMatch(new RegExp(`the container ${name} exited with code (1|137)`))
      else expect(done.stdout).toMatch(/is a known fatal vLLM line: .*CUDA out of memory/)
      // the container's own lines, through the engine's log stream
      expect(done.stdout).toMatch(/\[simulated vllm\] serving "kimi"/)
      // bound by events, on the step's clock and the engine's: the wait lasted its container's life and a few
      // seconds more (the step's start before the container's), not its 60 s timeout
      const s = (await inspect(name)) as State
      const lifeS = (Date.parse(s.FinishedAt) - Date.parse(s.StartedAt)) / 1000
      const elapsedS = Number(done.outputs['elapsed-seconds'])
      expect(lifeS).toBeGreaterThan(0)
      expect(elapsedS - lifeS).toBeLessThan(10)
      expect(ended - Date.parse(s.FinishedAt)).toBeLessThan(HANG_MS)
      console.log(
        `${kill ? 'kill' : 'crash'}: the container lived ${lifeS.toFixed(2)} s, the wait ${elapsedS} s; ` +
          `its exit to the action's end: ${ended - Date.parse(s.FinishedAt)} ms`
      )
    },
    120_000
  )

  it("a container the runtime cannot start ends the wait at once, with podman's own error", async () => {
    const port = await freePort()
    const name = newName()
    const run = await mainStep(port, {
      container: name,
      start: `${engine.client} run --name ${name} --network host ${engine.image} /bin/no-such-server --port ${port}`
    })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'server-exited' })
    // Podman leaves it "created" with exit code 0 and no error: the client's exit and last line say why
    expect(run.stdout).toMatch(new RegExp(`the container ${name} could not be started \\("start" exited with code 127`))
    expect(run.stdout).toMatch(/no such file or directory/)
    expect(Number(run.outputs['elapsed-seconds'])).toBeLessThan(30)
  }, 120_000)

  it('an unhealthy HEALTHCHECK ends the wait (its checks run by `podman healthcheck run`: no systemd here)', async () => {
    const port = await freePort()
    const name = newName()
    const run = mainStep(port, {
      container: name,
      start:
        `${engine.client} run -d --name ${name} --network host --health-cmd 'exit 1' --health-interval 1s ` +
        `--health-retries 1 ${engine.image} ${simulate(port, '--load 60s')}`
    })
    // Podman 4.3 runs checks from systemd timers; without systemd the test is the timer
    await whileRunning(run, async () => {
      await engine.podman('healthcheck', 'run', name)
      return false
    })
    const done = await run
    expect(done.outputs).toMatchObject({ ready: 'false', reason: 'server-exited' })
    expect(done.stdout).toContain(`the container ${name} is unhealthy`)
    expect(Number(done.outputs['elapsed-seconds'])).toBeLessThan(30)
  }, 120_000)

  it('no such container: an input error naming "container"', async () => {
    const none = await mainStep(await freePort(), { container: 'no-such-container' })
    expect(none.code).toBe(1)
    expect(errors(none.stdout).join('\n')).toMatch(
      /Input "container": "no-such-container" is no container of the engine/
    )
  }, 60_000)
})
