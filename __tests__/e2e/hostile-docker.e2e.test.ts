import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from '../../src/simulator/server.js'
import { engineMissing, IMAGE, startEngine, type TestEngine } from '../helpers/docker-engine.js'
import { sandbox } from '../helpers/sandbox.js'
import { containerSteps, simulate } from '../helpers/container-steps.js'
import { errors, savedServers } from '../helpers/support.js'

/**
 * The container path under attack, against a REAL Docker engine (helpers/docker-engine.ts): a name another job's
 * container holds (running, or long exited), a docker-proxy on the URL's port that forwards to a foreign server,
 * a container already unhealthy when the step starts, and one in a restart loop. A container is the run's only if
 * the run created it; a proxy counts only where it forwards to the container; health and restarts are read from
 * the first look on. Skipped, saying why, where no dockerd is installed.
 */
const missing = engineMissing()
const suite = missing === undefined ? describe : describe.skip
if (missing !== undefined) console.warn(`hostile-docker.e2e: skipped: ${missing}`)
const dockerProxy = ['/usr/sbin', '/usr/bin', '/usr/libexec/docker', '/usr/local/bin']
  .map((d) => join(d, 'docker-proxy'))
  .find((p) => existsSync(p))
const cli = new URL('../../dist/cli.js', import.meta.url).pathname

const box = sandbox('wfm-hostile-docker-e2e-')
let engine: TestEngine
let names = 0
const newName = (): string => `wfm-hostile-${process.pid}-${++names}`
const { mainStep, postStep } = containerSteps(() => engine?.host ?? '')

const inspect = async (name: string): Promise<Record<string, unknown> | undefined> => {
  const r = await engine.docker('inspect', '--format', '{{json .State}}', name)
  return r.code === 0 ? JSON.parse(r.stdout) : undefined
}

/** Until the container's state passes `test` (at most 60 s of looking). */
async function until(name: string, test: (state: Record<string, unknown>) => boolean): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    const state = await inspect(name)
    if (state !== undefined && test(state)) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`the container ${name} never got there: ${JSON.stringify(await inspect(name))}`)
}

/** docker-proxy listening on 127.0.0.1:`port`, forwarding to 127.0.0.1:`to`, as dockerd runs it for `-p`. */
async function startProxy(port: number, to: number): Promise<ChildProcess> {
  const args = ['-proto', 'tcp', '-host-ip', '127.0.0.1', '-host-port', `${port}`]
  const child = spawn(dockerProxy as string, [...args, '-container-ip', '127.0.0.1', '-container-port', `${to}`], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe']
  })
  box.pids.push(child.pid as number)
  const said = await new Promise<string>((resolve) => {
    let text = ''
    const signal = child.stdio[3] as NodeJS.ReadableStream
    signal.on('data', (d: Buffer) => (text += d.toString()))
    signal.on('end', () => resolve(text))
    child.once('exit', () => resolve(text))
  })
  if (!said.startsWith('0\n')) throw new Error(`docker-proxy did not listen: ${said}`)
  return child
}

suite('the container path under attack, with a real Docker engine', () => {
  beforeAll(async () => {
    engine = await startEngine()
  }, 120_000)
  afterAll(async () => engine?.stop(), 60_000)

  describe('"start" refused because another container holds the name', () => {
    it("another job's running container: never taken as ours, its log not shown, not stopped at the job end", async () => {
      const name = newName()
      const other = await engine.docker(
        'run',
        '-d',
        '--name',
        name,
        '--network',
        'host',
        IMAGE,
        '/bin/node',
        '-e',
        "console.log('ANOTHER JOB SAYS HELLO'); setInterval(() => {}, 1e9)"
      )
      expect(other.code).toBe(0)
      const otherId = other.stdout.trim()
      const port = await freePort()
      const run = await mainStep(port, {
        start: `docker run -d --name ${name} --network host ${IMAGE} ${simulate(port)}`,
        container: name,
        timeout: '20s'
      })
      const p = await postStep(run.state)
      const after = await inspect(name)
      console.log(
        `name held by another running container: reason ${run.outputs.reason}, saved ${JSON.stringify(savedServers(run.state))}, ` +
          `the other after the job-end step: ${after?.Status} (exit ${after?.ExitCode})`
      )
      expect(run.outputs.reason).toBe('server-exited')
      expect(errors(run.stdout).join('\n')).toMatch(/was never created: "start" exited with code 125/)
      expect(errors(run.stdout).join('\n')).toMatch(/is already in use/)
      expect(errors(run.stdout).join('\n')).toMatch(/is not this run's: left alone/)
      expect(run.stdout).not.toContain('ANOTHER JOB SAYS HELLO')
      expect(run.stdout).not.toContain(otherId.slice(0, 12) + ')')
      expect(JSON.stringify(savedServers(run.state))).not.toContain(otherId)
      expect(p.stdout).not.toMatch(/Stopped the container/)
      expect(after?.Running).toBe(true)
    }, 90_000)

    it('an old exited container by that name: its exit code is not our crash', async () => {
      const name = newName()
      expect((await engine.docker('run', '--name', name, IMAGE, '/bin/sh', '-c', 'exit 3')).code).toBe(3)
      const port = await freePort()
      const run = await mainStep(port, {
        start: `docker run -d --name ${name} --network host ${IMAGE} ${simulate(port)}`,
        container: name,
        timeout: '20s'
      })
      console.log(`name held by an exited container: ${errors(run.stdout).join(' ').slice(0, 300)}`)
      expect(run.outputs.reason).toBe('server-exited')
      expect(run.stdout).not.toMatch(/exited with code 3\b/)
      expect(errors(run.stdout).join('\n')).toMatch(/was never created: "start" exited with code 125/)
      expect(errors(run.stdout).join('\n')).toMatch(/is already in use/)
      // nothing to stop: no entry, or the null the state holds before anything is known to be ours
      expect(savedServers(run.state).filter((entry) => entry !== null)).toEqual([])
    }, 90_000)
    it.each([['docker start'], ['docker start -a']])(
      'a container created before the step, started by "start" (%s): it is the server',
      async (how) => {
        const name = newName()
        const port = await freePort()
        const created = await engine.docker(
          'create',
          '--init',
          '--name',
          name,
          '--network',
          'host',
          IMAGE,
          ...simulate(port, '--load 1s').split(' ')
        )
        expect(created.code).toBe(0)
        const run = await mainStep(port, { start: `${how} ${name}`, container: name, timeout: '30s' })
        expect(errors(run.stdout)).toEqual([])
        expect(run.outputs.ready).toBe('true')
        expect(JSON.stringify(savedServers(run.state))).toContain(created.stdout.trim())
        await engine.docker('rm', '-f', name)
      },
      90_000
    )
  })

  const proxySuite = dockerProxy === undefined ? describe.skip : describe
  proxySuite('a docker-proxy on the URL port', () => {
    it.each([
      ['the container', 'ready'],
      ['a foreign server', 'wrong-server']
    ])(
      'forwarding to %s: %s',
      async (to, reason) => {
        const port = await freePort()
        const inner = await freePort()
        const foreignPort = await freePort()
        const name = newName()
        const foreign = spawn(
          process.execPath,
          [cli, 'simulate', '--engine', 'vllm', '--model', 'kimi', '--port', `${foreignPort}`, '--load', '0s'],
          { stdio: 'ignore', env: { PATH: process.env.PATH, HOME: box.dir(), XDG_CACHE_HOME: box.dir() } }
        )
        box.pids.push(foreign.pid as number)
        const step = mainStep(port, {
          start: `docker run -d --init --name ${name} --network host ${IMAGE} ${simulate(inner, '--load 2s')}`,
          container: name,
          timeout: '30s'
        })
        // as dockerd: the published port's proxy once the container runs
        await until(name, (s) => s.Running === true)
        await startProxy(port, to === 'the container' ? inner : foreignPort)
        const run = await step
        console.log(`docker-proxy forwarding to ${to}: ready=${run.outputs.ready} reason=${run.outputs.reason}`)
        expect(run.outputs.reason).toBe(reason)
        if (reason === 'wrong-server') expect(errors(run.stdout).join('\n')).toMatch(/docker-proxy/)
        await engine.docker('rm', '-f', name)
      },
      90_000
    )
  })

  describe('health and restarts read from the first look on', () => {
    it('a container already unhealthy when the step starts ends the wait at once, saying so', async () => {
      const name = newName()
      const started = await engine.docker(
        'run',
        '-d',
        '--init',
        '--name',
        name,
        '--network',
        'host',
        '--health-cmd',
        'exit 1',
        '--health-interval',
        '500ms',
        '--health-retries',
        '1',
        IMAGE,
        '/bin/node',
        '-e',
        'setInterval(() => {}, 1e9)'
      )
      expect(started.code).toBe(0)
      await until(name, (s) => (s.Health as { Status?: string } | undefined)?.Status === 'unhealthy')
      const port = await freePort()
      const run = await mainStep(port, { container: name, timeout: '20s' })
      console.log(`already unhealthy: reason ${run.outputs.reason} after ${run.outputs['elapsed-seconds']} s of 20 s`)
      expect(run.outputs.reason).toBe('server-exited')
      expect(errors(run.stdout).join('\n')).toMatch(/is unhealthy \(its HEALTHCHECK/)
      expect(Number(run.outputs['elapsed-seconds'])).toBeLessThan(10)
    }, 90_000)

    it('a restart loop is named with its restarts and exit codes', async () => {
      const name = newName()
      const port = await freePort()
      const run = await mainStep(port, {
        start:
          `docker run -d --restart always --name ${name} --network host ${IMAGE} ` +
          `/bin/node -e "setTimeout(() => process.exit(137), 300)"`,
        container: name,
        timeout: '30s'
      })
      console.log(
        `restart loop: reason ${run.outputs.reason} after ${run.outputs['elapsed-seconds']} s of 30 s: ` +
          `${errors(run.stdout).join(' ').slice(0, 300)}`
      )
      expect(run.outputs.reason).toBe('server-exited')
      expect(errors(run.stdout).join('\n')).toMatch(/restart loop: the engine has restarted it \d+ times/)
      expect(errors(run.stdout).join('\n')).toMatch(/exit codes? seen: 137/)
      await engine.docker('rm', '-f', name)
    }, 90_000)
  })
})
