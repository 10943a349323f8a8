import { demultiplexer, DockerEngine, dockerSocket, EngineError } from '../../../src/server/docker.js'
import { json, scriptedEngine, type ScriptedEngine } from '../../helpers/scripted-engine.js'
import { InputError } from '../../../src/inputs/input-error.js'

const frame = (stream: number, text: string): Buffer => {
  const payload = Buffer.from(text)
  const header = Buffer.alloc(8)
  header[0] = stream
  header.writeUInt32BE(payload.length, 4)
  return Buffer.concat([header, payload])
}

describe('the Docker Engine API client', () => {
  it('demultiplexes the log stream of a container without a TTY, frames split anywhere across chunks', () => {
    const stream = Buffer.concat([frame(1, 'INFO loading\n'), frame(2, 'ERROR CUDA out of memory\n'), frame(1, '')])
    for (let cut = 0; cut <= stream.length; cut++) {
      const out: string[] = []
      const demux = demultiplexer((b) => out.push(b.toString()))
      demux(stream.subarray(0, cut))
      demux(stream.subarray(cut))
      expect(out.join('')).toBe('INFO loading\nERROR CUDA out of memory\n')
    }
  })

  it('holds back only an unfinished header; a payload is handed on as it comes', () => {
    const out: string[] = []
    const demux = demultiplexer((b) => out.push(b.toString()))
    const f = frame(1, 'abcdef')
    demux(f.subarray(0, 5))
    expect(out).toEqual([])
    demux(f.subarray(5, 10))
    expect(out).toEqual(['ab'])
    demux(f.subarray(10))
    expect(out).toEqual(['ab', 'cdef'])
  })

  it('holds nothing of a frame that claims 4 GB: its bytes go on as they come', () => {
    let handed = 0
    const demux = demultiplexer((b) => (handed += b.length))
    const header = Buffer.alloc(8)
    header.writeUInt32BE(0xffffffff, 4)
    demux(header)
    for (let i = 0; i < 100; i++) demux(Buffer.alloc(1024 * 1024))
    expect(handed).toBe(100 * 1024 * 1024)
  })

  it('finds the engine at DOCKER_HOST (unix only), else the default socket', () => {
    expect(dockerSocket({})).toBe('/var/run/docker.sock')
    expect(dockerSocket({ DOCKER_HOST: '' })).toBe('/var/run/docker.sock')
    expect(dockerSocket({ DOCKER_HOST: 'unix:///run/user/1000/podman/podman.sock' })).toBe(
      '/run/user/1000/podman/podman.sock'
    )
    for (const host of ['tcp://10.0.0.1:2375', 'ssh://me@host', 'unix://']) {
      expect(() => dockerSocket({ DOCKER_HOST: host })).toThrow(InputError)
      expect(() => dockerSocket({ DOCKER_HOST: host })).toThrow(
        /Input "container": needs the Docker engine on a unix socket/
      )
    }
  })
})

describe('the Docker Engine API client against an engine that answers oddly', () => {
  let engine: ScriptedEngine | undefined
  afterEach(async () => engine?.stop())
  const client = (e: ScriptedEngine): DockerEngine => new DockerEngine(e.host.slice('unix://'.length))

  it('reads every field as the type it must have: another shape gives the neutral value', async () => {
    engine = await scriptedEngine((_req, res) =>
      json(res, 200, {
        Id: 'a'.repeat(64),
        Name: 42,
        RestartCount: 'many',
        NetworkSettings: { Networks: { bridge: null, other: { IPAddress: '172.17.0.2' } } },
        State: { Running: 'yes', Pid: '123', ExitCode: 1.5, Health: { Status: 7, Log: 'x' }, StartedAt: 12 },
        Config: { Env: ['A=1', 2, null], Tty: 1 }
      })
    )
    const docker = client(engine)
    const s = await docker.inspect('x')
    docker.close()
    expect(s).toMatchObject({
      name: '',
      running: false,
      pid: 0,
      exitCode: 0,
      restartCount: 0,
      health: undefined,
      healthLog: undefined,
      startedAtMs: undefined,
      tty: false,
      env: ['A=1'],
      addresses: ['172.17.0.2']
    })
  })

  it.each([
    [500, '{"message":"boom\\nsecond line"}', 'answered its inspect with HTTP 500: boom'],
    [200, 'null', 'answered its inspect with no container (null)'],
    [200, '[]', 'answered its inspect with no container ([])'],
    [200, '{"Id": 1', 'answered its inspect with something that is not JSON']
  ])('an inspect answered %s %s: an EngineError saying so', async (status, body, said) => {
    engine = await scriptedEngine((_req, res) => json(res, status, body))
    const docker = client(engine)
    const read = docker.inspect('x')
    await expect(read).rejects.toThrow(EngineError)
    await expect(read).rejects.toThrow(said)
    docker.close()
  })

  it("a stop the engine refuses answers the engine's status and message", async () => {
    engine = await scriptedEngine((_req, res) => json(res, 403, { message: 'forbidden by the socket proxy' }))
    const docker = client(engine)
    expect(await docker.stop('x', 1)).toBe('answered the stop with HTTP 403: forbidden by the socket proxy')
    docker.close()
  })
})
