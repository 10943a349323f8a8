import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { DockerEngine } from '../../../src/server/docker.js'
import { watchContainer } from '../../../src/server/container.js'
import { openServerLog } from '../../../src/server/process.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { sandbox } from '../../helpers/sandbox.js'

/**
 * Where Podman's Docker-compatible API (4.3.1, `podman system service`) answers otherwise than Docker's, each
 * answer as the real one gave it (__tests__/e2e/podman.e2e.test.ts runs the real one): an engine on a unix socket
 * of the test's folder that answers like it, and the client's reading of it.
 */
const box = sandbox('wfm-podman-api-')

type Answer = { status: number; body: string }
interface FakeEngine {
  socket: string
  paths: string[]
  close(): Promise<void>
}

/** An engine answering `answer(path)`; `podman` adds the header every Podman answer carries. */
async function fakeEngine(podman: boolean, answer: (path: string) => Answer): Promise<FakeEngine> {
  const paths: string[] = []
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? ''
    paths.push(path)
    const { status, body } = answer(path)
    const headers: Record<string, string> = { 'content-type': 'application/json', 'api-version': '1.41' }
    if (podman) Object.assign(headers, { 'libpod-api-version': '4.3.1', server: 'Libpod/4.3.1 (linux)' })
    res.writeHead(status, headers).end(body)
  })
  const socket = box.path('engine.sock')
  await new Promise<void>((resolve) => server.listen(socket, resolve))
  return { socket, paths, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

const top = (title: string, pids: number[]): string =>
  JSON.stringify({ Processes: pids.map((p) => [String(p)]), Titles: [title] })

/** `GET /containers/{id}/top` as Podman 4.3.1 answers it, for an image with `ps` or without. */
const podmanTop = (path: string, imageHasPs: boolean): Answer => {
  const args = new URL(path, 'http://x').searchParams.get('ps_args')
  // its own descriptors: the host's pids
  if (args === 'hpid') return { status: 200, body: top('HPID', [22084, 22095]) }
  // anything else runs `ps` inside the container (its pid namespace), and answers nothing where there is none
  return imageHasPs ? { status: 200, body: top('PID', [1, 6, 7]) } : { status: 200, body: '' }
}

const ping: Answer = { status: 200, body: 'OK' }

/** `GET /containers/{id}/json` as Podman 4.3.1 answers it (the fields the client reads). */
const podmanInspect = (state: Record<string, unknown>): Answer => ({
  status: 200,
  body: JSON.stringify({
    Id: 'd174dc742bdd2acb74383da0f0fcde1ae5b4e7da999eb1f0d10cbe37cbe4f4e7',
    Name: '/srv',
    State: {
      Status: 'running',
      Running: true,
      Pid: 22084,
      ExitCode: 0,
      Error: '',
      OOMKilled: false,
      StartedAt: '2026-12-02T07:27:32.209823412Z',
      Health: { Status: '', FailingStreak: 0, Log: null },
      ...state
    },
    Config: { Tty: false, Env: ['PATH=/usr/bin', 'container=podman'] },
    HostConfig: { AutoRemove: false }
  })
})

describe("the Docker Engine API client, on Podman's compatible API", () => {
  it.each([true, false])(
    "reads the host pids from `top` with ps_args=hpid (image with ps: %s), never the container's own pids",
    async (imageHasPs) => {
      const engine = await fakeEngine(true, (path) => (path === '/_ping' ? ping : podmanTop(path, imageHasPs)))
      const client = new DockerEngine(engine.socket)
      try {
        expect(await client.pids('srv')).toEqual([22084, 22095])
        expect(engine.paths.filter((p) => p.includes('/top'))).toEqual(['/containers/srv/top?ps_args=hpid'])
      } finally {
        client.close()
        await engine.close()
      }
    }
  )

  it("asks Docker for `-eo pid` (its host's ps), and takes an empty answer for no pids rather than an error", async () => {
    const answers: Answer[] = [
      { status: 200, body: top('PID', [4242, 4250]) },
      { status: 200, body: '' }
    ]
    const engine = await fakeEngine(false, (path) => (path === '/_ping' ? ping : (answers.shift() as Answer)))
    const client = new DockerEngine(engine.socket)
    try {
      expect(await client.pids('srv')).toEqual([4242, 4250])
      expect(await client.pids('srv')).toEqual([])
      expect(engine.paths.filter((p) => p.includes('/top'))).toEqual([
        '/containers/srv/top?ps_args=-eo%20pid',
        '/containers/srv/top?ps_args=-eo%20pid'
      ])
    } finally {
      client.close()
      await engine.close()
    }
  })

  it('takes Podman\'s Health {"Status": ""} (no HEALTHCHECK) for no health, and keeps a real one', async () => {
    const answers = [podmanInspect({}), podmanInspect({ Health: { Status: 'unhealthy', Log: [{ Output: 'no' }] } })]
    const engine = await fakeEngine(true, () => answers.shift() as Answer)
    const client = new DockerEngine(engine.socket)
    try {
      const none = await client.inspect('srv')
      expect(none?.health).toBeUndefined()
      expect(none).toMatchObject({ running: true, pid: 22084, name: 'srv' })
      expect(none?.startedAtMs).toBe(Date.parse('2026-12-02T07:27:32.209Z'))
      expect(await client.inspect('srv')).toMatchObject({ health: 'unhealthy', healthLog: 'no' })
    } finally {
      client.close()
      await engine.close()
    }
  })

  it('takes the HTTP 500 "no such container" Podman answers while it removes a --rm container for no container', async () => {
    const removing = {
      cause: 'no such container',
      message:
        'container 047fa3cb38b0b22e42dbcc6184dd873abf0baa71a72da0597d4e3efa1b39dd1b does not exist in database: no such container',
      response: 500
    }
    const answers: Answer[] = [
      { status: 500, body: JSON.stringify(removing) },
      { status: 500, body: JSON.stringify({ cause: 'database is locked', message: 'x', response: 500 }) }
    ]
    const engine = await fakeEngine(true, () => answers.shift() as Answer)
    const client = new DockerEngine(engine.socket)
    try {
      expect(await client.inspect('srv')).toBeUndefined()
      // any other failure stays one
      await expect(client.inspect('srv')).rejects.toThrow('answered its inspect with HTTP 500')
    } finally {
      client.close()
      await engine.close()
    }
  })

  it('ends the watch of a container Podman could not start ("created", exit code 0, no error) once `start` failed', async () => {
    let inspects = 0
    let polledLong: () => void = () => undefined
    const manyPolls = new Promise<string>((resolve) => (polledLong = () => resolve('still watching')))
    const engine = await fakeEngine(true, (path) => {
      if (path === '/_ping') return ping
      if (path.includes('/logs')) return { status: 200, body: '' }
      if (path.includes('/top')) return { status: 200, body: '' }
      if (++inspects === 12) polledLong()
      return podmanInspect({
        Status: 'created',
        Running: false,
        Pid: 0,
        StartedAt: '0001-01-01T00:00:00Z'
      })
    })
    const starterLog = box.path('start.log')
    writeFileSync(
      starterLog,
      'Error: preparing container 4da9 for attach: runc: runc create failed: unable to start container process: ' +
        'exec: "/bin/no-such-server": stat /bin/no-such-server: no such file or directory\n'
    )
    const watched = watchContainer({
      engine: new DockerEngine(engine.socket),
      ref: 'srv',
      starter: {
        pid: 0,
        exited: Promise.resolve('exited with code 127'),
        environ: () => undefined,
        release: () => undefined
      },
      starterLog,
      log: openServerLog(box.path('container.log')),
      clock: systemClock
    })
    try {
      const how = await Promise.race([watched.exited, manyPolls])
      expect(how).toBe(
        'could not be started ("start" exited with code 127: Error: preparing container 4da9 for attach: runc: ' +
          'runc create failed: unable to start container process: exec: "/bin/no-such-server": stat ' +
          '/bin/no-such-server: no such file or directory)'
      )
    } finally {
      watched.release()
      await engine.close()
    }
  })

  it("follows a container's output from its start once it runs, each line once, where Podman's stream ended early", async () => {
    const frame = (text: string): string => {
      const header = Buffer.alloc(8)
      header[0] = 1
      header.writeUInt32BE(Buffer.byteLength(text), 4)
      return Buffer.concat([header, Buffer.from(text)]).toString('latin1')
    }
    // created for its first reads, then running, then exited with code 1
    let inspects = 0
    const phase = (): 'created' | 'running' | 'exited' =>
      inspects < 3 ? 'created' : inspects < 8 ? 'running' : 'exited'
    // Podman 4.3.1, following a container not yet running: an empty stream, then what it had written so far
    const streams = ['', frame('INFO loading\n')]
    let follows = 0
    const engine = await fakeEngine(true, (path) => {
      if (path === '/_ping') return ping
      if (path.includes('/top')) return { status: 200, body: top('HPID', [22084]) }
      if (path.includes('/logs')) {
        follows++
        return { status: 200, body: streams.shift() ?? frame('INFO loading\n') + frame('ERROR CUDA out of memory\n') }
      }
      inspects++
      const now = phase()
      return podmanInspect(
        now === 'created'
          ? { Status: 'created', Running: false, Pid: 0, StartedAt: '0001-01-01T00:00:00Z' }
          : now === 'running'
            ? {}
            : { Status: 'exited', Running: false, Pid: 0, ExitCode: 1 }
      )
    })
    const logFile = box.path('container.log')
    const watched = watchContainer({
      engine: new DockerEngine(engine.socket),
      ref: 'srv',
      log: openServerLog(logFile),
      clock: systemClock
    })
    try {
      expect(await watched.exited).toBe('exited with code 1')
      expect(follows).toBeGreaterThanOrEqual(3)
      expect(readFileSync(logFile, 'utf8')).toBe('INFO loading\nERROR CUDA out of memory\n')
    } finally {
      watched.release()
      await engine.close()
    }
  })
})
