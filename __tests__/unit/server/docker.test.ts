import { demultiplexer, dockerSocket } from '../../../src/server/docker.js'
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
