import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { freePort } from '../../src/simulator/server.js'
import { engineMissing, IMAGE, startEngine, type TestEngine } from '../helpers/docker-engine.js'
import { sandbox } from '../helpers/sandbox.js'
import { containerSteps, simulate } from '../helpers/container-steps.js'
import { errors } from '../helpers/support.js'

/**
 * More of `container` against a REAL Docker engine (helpers/docker-engine.ts: a private dockerd, no bridge, host
 * networking only): a port published by docker-proxy, the HEALTHCHECK's states as the progress says them, and a
 * container the kernel kills for lack of memory. Skipped, saying why, where no dockerd is installed.
 *
 * docker-proxy: without a bridge no `docker run -p` can exist here, so the test runs the engine's own docker-proxy
 * binary (the one dockerd runs for a published port, from the same package) itself, as dockerd does: listening on
 * the URL's port, forwarding to the container's port on the host network, its readiness said on fd 3. The
 * listener is then held by a real process named docker-proxy, as with `-p`; the only thing that differs from a
 * real `-p` is its parent (this test, not dockerd), which the gate does not read.
 */
const missing = engineMissing()
const suite = missing === undefined ? describe : describe.skip
if (missing !== undefined) console.warn(`containers-more.e2e: skipped: ${missing}`)
const dockerProxy = ['/usr/sbin', '/usr/bin', '/usr/libexec/docker', '/usr/local/bin']
  .map((d) => join(d, 'docker-proxy'))
  .find((p) => existsSync(p))

const box = sandbox('wfm-containers-more-e2e-')
let engine: TestEngine
let names = 0
const newName = (): string => `wfm-more-${process.pid}-${++names}`

const { mainStep } = containerSteps(() => engine?.host ?? '')

const inspect = async (name: string): Promise<Record<string, unknown> | undefined> => {
  const r = await engine.docker('inspect', '--format', '{{json .State}}', name)
  return r.code === 0 ? JSON.parse(r.stdout) : undefined
}

/** Until the container runs (at most 60 s of looking): as dockerd, which starts a -p port's proxy then. */
async function untilRunning(name: string): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if ((await inspect(name))?.Running === true) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`the container ${name} never ran`)
}

/**
 * `binary` (docker-proxy, or a link to it by another name) listening on 127.0.0.1:`port`, forwarding to
 * 127.0.0.1:`to`, with the arguments dockerd gives it; resolves once it says on fd 3 that it listens ("0\n").
 */
async function startProxy(binary: string, port: number, to: number): Promise<ChildProcess> {
  const args = ['-proto', 'tcp', '-host-ip', '127.0.0.1', '-host-port', `${port}`]
  const child = spawn(binary, [...args, '-container-ip', '127.0.0.1', '-container-port', `${to}`], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe']
  })
  box.pids.push(child.pid as number)
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
  const said = await new Promise<string>((resolve) => {
    let text = ''
    const signal = child.stdio[3] as NodeJS.ReadableStream
    signal.on('data', (d: Buffer) => (text += d.toString()))
    signal.on('end', () => resolve(text))
    child.once('exit', () => resolve(text))
  })
  if (!said.startsWith('0\n')) throw new Error(`${binary} did not listen: ${said} ${stderr}`)
  return child
}

/** A stream that copies the step's stdout and resolves `until(text)` once it has said `text`. */
function watchOutput(): { stream: Writable; until(text: string): Promise<void> } {
  let said = ''
  const waiting: Array<{ text: string; resolve(): void }> = []
  const stream = new Writable({
    write(chunk: Buffer, _, done) {
      said += chunk.toString()
      for (const w of waiting.splice(0))
        if (said.includes(w.text)) w.resolve()
        else waiting.push(w)
      done()
    }
  })
  return {
    stream,
    until: (text) =>
      said.includes(text) ? Promise.resolve() : new Promise((resolve) => waiting.push({ text, resolve }))
  }
}

suite('servers in containers, more, with a real Docker engine', () => {
  beforeAll(async () => {
    engine = await startEngine()
  }, 120_000)
  afterAll(async () => engine?.stop(), 60_000)

  const proxySuite = dockerProxy === undefined ? describe.skip : describe
  if (dockerProxy === undefined) console.warn('containers-more.e2e: docker-proxy tests skipped: no docker-proxy binary')

  proxySuite('a port published by docker-proxy', () => {
    /** Runs the proxy as `as` (docker-proxy itself, or a link to it by another name). */
    const proxyBinary = (as: string): string => {
      if (as === 'docker-proxy') return dockerProxy as string
      const link = box.path(as)
      symlinkSync(dockerProxy as string, link)
      return link
    }

    it.each([
      ['docker-proxy', 'ready'],
      ['port-forward', 'wrong-server']
    ])(
      'the process seam (docker run in "start", no "container"), its port held by the forwarder named %s: %s',
      async (as, reason) => {
        const port = await freePort()
        const inner = await freePort()
        const name = newName()
        const binary = proxyBinary(as)
        const step = mainStep(
          port,
          {
            start: `docker run --rm --init --name ${name} --network host ${IMAGE} ${simulate(inner, '--load 1s')}`
          },
          { RUNNER_DEBUG: '1' }
        )
        try {
          // as dockerd: the published port's proxy once the container runs (before it, "start"'s pre-flight would
          // find the port held: port-busy)
          await untilRunning(name)
          const proxy = await startProxy(binary, port, inner)
          // a real process by that name: what the kernel says of it, as the gate reads it
          expect(readFileSync(`/proc/${proxy.pid}/comm`, 'utf8').trim()).toBe(as)
          expect(readFileSync(`/proc/${proxy.pid}/cmdline`, 'utf8').split('\0')[0]).toBe(binary)
          const run = await step
          expect(run.outputs.reason).toBe(reason)
          if (reason === 'ready') {
            expect(errors(run.stdout)).toEqual([])
            expect(run.outputs.ready).toBe('true')
            expect(run.stdout).toContain(`::debug::Port ${port} is held by docker-proxy (a container's published port)`)
          } else {
            expect(run.outputs.ready).toBe('false')
            expect(run.stdout).not.toContain('is held by docker-proxy')
            expect(run.stdout).toContain(`${binary} -proto tcp`)
          }
        } finally {
          await engine.docker('rm', '-f', name)
          await step
        }
      },
      120_000
    )

    it.each([
      ['docker-proxy', 'ready'],
      ['port-forward', 'wrong-server']
    ])(
      'the container seam (a container started before the step), its port held by the forwarder named %s: %s',
      async (as, reason) => {
        const port = await freePort()
        const inner = await freePort()
        const name = newName()
        const args = simulate(inner, '--load 1s').split(' ')
        expect(
          (await engine.docker('run', '-d', '--init', '--name', name, '--network', 'host', IMAGE, ...args)).code
        ).toBe(0)
        try {
          const binary = proxyBinary(as)
          const proxy = await startProxy(binary, port, inner)
          expect(readFileSync(`/proc/${proxy.pid}/comm`, 'utf8').trim()).toBe(as)
          const run = await mainStep(port, { container: name }, { RUNNER_DEBUG: '1' })
          expect(run.outputs.reason).toBe(reason)
          if (reason === 'ready') {
            expect(errors(run.stdout)).toEqual([])
            expect(run.outputs).toMatchObject({ ready: 'true', pid: String((await inspect(name))?.Pid) })
            expect(run.stdout).toContain(`::debug::Port ${port} is held by docker-proxy (a container's published port)`)
          } else {
            expect(run.outputs.ready).toBe('false')
            expect(run.stdout).toMatch(
              new RegExp(
                `Port ${port} is answered by pid ${proxy.pid} \\(${binary} -proto tcp .*\\), not by a process of the container ${name}`
              )
            )
          }
        } finally {
          await engine.docker('rm', '-f', name)
        }
      },
      120_000
    )
  })

  it('a HEALTHCHECK: the progress says each state it passes through, starting then healthy', async () => {
    const port = await freePort()
    const name = newName()
    // the check passes once /w/healthy exists, the server starts once /w/go does: each made by this test once the
    // step has said the state before it, so that every state lasts until the step has seen it
    writeFileSync(
      box.path('serve.sh'),
      `/bin/node -e 'const t = setInterval(() => require("fs").existsSync("/w/go") && clearInterval(t), 50)'\n` +
        `exec ${simulate(port, '--load 500ms')}\n`
    )
    const out = watchOutput()
    const step = mainStep(
      port,
      {
        container: name,
        start:
          `docker run -d --init --name ${name} --network host -v ${box.dir()}:/w --health-cmd 'test -e /w/healthy' ` +
          `--health-interval 200ms --health-start-period 120s --health-retries 1 ${IMAGE} /bin/sh /w/serve.sh`
      },
      {},
      out.stream
    )
    // a step that ends before saying it fails the test at once, with what it said
    const before = (text: string): Promise<unknown> =>
      Promise.race([out.until(text), step.then((r) => Promise.reject(new Error(`ended first:\n${r.stdout}`)))])
    try {
      await before(`The container ${name} is starting (its HEALTHCHECK)`)
      writeFileSync(box.path('healthy'), '')
      await before(`The container ${name} is healthy (its HEALTHCHECK)`)
      writeFileSync(box.path('go'), '')
      const run = await step
      expect(errors(run.stdout)).toEqual([])
      expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
      const said = run.stdout.split('\n').filter((l) => l.includes(`The container ${name} is `))
      expect(said).toEqual([
        `The container ${name} is starting (its HEALTHCHECK)`,
        `The container ${name} is healthy (its HEALTHCHECK)`
      ])
    } finally {
      await engine.docker('rm', '-f', name)
      await step
    }
  }, 120_000)

  it('a container the kernel kills for lack of memory (docker run --memory): server-exited, naming OOMKilled', async () => {
    const info = await engine.docker('info', '--format', '{{.MemoryLimit}}')
    if (info.stdout.trim() !== 'true') {
      // an engine fact, not a flake: the kernel gives it no memory cgroup to limit
      console.warn(`containers-more.e2e: OOMKilled case skipped: the engine has no memory limit (${info.stdout})`)
      return
    }
    const port = await freePort()
    const name = newName()
    // says a line, as a server loading its weights would, then takes 1 MiB after 1 MiB (written: resident) for ever
    const hog = `console.log("[hog] loading weights"); const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))`
    const run = await mainStep(port, {
      container: name,
      start: `docker run --name ${name} --memory 64m --memory-swap 64m --network host ${IMAGE} /bin/node -e '${hog}'`
    })
    const state = await inspect(name)
    // the engine's own word that the kernel killed it for memory
    expect(state).toMatchObject({ OOMKilled: true, ExitCode: 137 })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'server-exited' })
    expect(errors(run.stdout).join('\n')).toContain(
      `the container ${name} was killed for lack of memory (OOMKilled, exit code 137)`
    )
    // its own line, from the engine, in the log tail
    expect(run.stdout).toContain('[hog] loading weights')
    await engine.docker('rm', '-f', name)
  }, 120_000)

  it("the container's own log gives the engine and the phases (outputs and summary), as a log file does", async () => {
    // the simulator in the container prints vLLM's start-up lines; the engine hands them over from the container's start
    const port = await freePort()
    const name = newName()
    const run = await mainStep(port, {
      container: name,
      start: `docker run --rm --init --name ${name} --network host ${IMAGE} ${simulate(port, '--load 2s')}`
    })
    await engine.docker('rm', '-f', name)
    expect(run.outputs).toMatchObject({ ready: 'true' })
    expect(run.stdout).toContain('engine: vLLM (from its log)')
    expect((JSON.parse(run.outputs.phases) as Array<{ name: string }>).map((p) => p.name)).toEqual([
      'starting',
      'initializing',
      'initializing distributed',
      'loading weights',
      'compiling',
      'allocating KV cache',
      'capturing CUDA graphs',
      'starting server'
    ])
    // the summary's phase chart and table, from the container's lines
    expect(run.summary).toMatch(/loading weights/)
  }, 120_000)
})
