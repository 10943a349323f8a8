import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { sandbox } from '../../helpers/sandbox.js'
import { listenerOwnership, localPort, portOwner, processTree } from '../../../src/server/port-owner.js'
import { networkInterfaces } from 'node:os'

/** Real listening processes on loopback, found through this machine's /proc. */
const listener = new URL('../../fixtures/listener.mjs', import.meta.url).pathname
const box = sandbox('wfm-port-owner-')

/** Starts `command` in its own process group; resolves with the port and the pid of the process that listens. */
function spawnListener(command: string, args: string[]): Promise<{ child: ChildProcess; port: number; pid: number }> {
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'inherit'] })
  box.pids.push(child.pid as number)
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening`)))
    child.stdout?.on('data', (d: Buffer) => {
      const m = /listening (\d+) (\d+)/.exec(d.toString())
      if (m) resolve({ child, port: Number(m[1]), pid: Number(m[2]) })
    })
  })
}

const node = process.execPath

describe('portOwner', () => {
  it('names the process listening on a port, with its command line and address', async () => {
    const { port, pid } = await spawnListener(node, [listener, '127.0.0.1'])
    expect(portOwner(port)).toEqual({
      kind: 'listening',
      port,
      listeners: [
        {
          address: '127.0.0.1',
          port,
          inode: expect.any(Number),
          holders: [{ pid, command: `${node} ${listener} 127.0.0.1` }]
        }
      ]
    })
  })

  it('reads IPv6 listeners too', async () => {
    const { port, pid } = await spawnListener(node, [listener, '::1'])
    const owner = portOwner(port)
    expect(owner).toMatchObject({ kind: 'listening', listeners: [{ address: '::1', holders: [{ pid }] }] })
  })

  it('says free when nothing listens, and unknown without /proc', async () => {
    const server: Server = createServer()
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as { port: number }
    await new Promise((r) => server.close(r))
    expect(portOwner(port)).toEqual({ kind: 'free', port })
    expect(portOwner(port, { proc: '/nonexistent-proc' })).toEqual({ kind: 'unknown', port })
    expect(listenerOwnership(port, process.pid, { proc: '/nonexistent-proc' })).toEqual({ kind: 'unknown', port })
  })
})

describe('listenerOwnership', () => {
  it("is ours when the listener is the watched process's descendant (a shell that runs the server)", async () => {
    const { child, port, pid } = await spawnListener('/bin/sh', ['-c', `"${node}" "${listener}" 127.0.0.1; true`])
    // the shell waits for node: the listener is its child, not the shell itself
    expect(pid).not.toBe(child.pid)
    expect(processTree('/proc', child.pid as number).has(pid)).toBe(true)
    expect(listenerOwnership(port, child.pid as number)).toEqual({
      kind: 'ours',
      port,
      holder: { pid, command: expect.stringContaining(listener) }
    })
    expect(listenerOwnership(port, pid)).toMatchObject({ kind: 'ours', holder: { pid } })
  })

  it('is foreign when another process listens there, naming it', async () => {
    const other = await spawnListener(node, [listener, '127.0.0.1'])
    const watched = await spawnListener(node, [listener, '127.0.0.1'])
    expect(listenerOwnership(other.port, watched.pid)).toEqual({
      kind: 'foreign',
      port: other.port,
      listeners: [
        expect.objectContaining({ holders: [{ pid: other.pid, command: expect.stringContaining(listener) }] })
      ]
    })
  })

  it('is free when nothing listens on the port', async () => {
    const server: Server = createServer()
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as { port: number }
    await new Promise((r) => server.close(r))
    expect(listenerOwnership(port, process.pid)).toEqual({ kind: 'free', port })
  })
})

describe('localPort', () => {
  it("gives the port of a URL naming this machine, the scheme's default where none is given", () => {
    expect(localPort(new URL('http://localhost:8000/v1/models'))).toBe(8000)
    expect(localPort(new URL('http://127.0.0.1/v1/models'))).toBe(80)
    expect(localPort(new URL('https://[::1]/v1/models'))).toBe(443)
    expect(localPort(new URL('http://gpu-box-7:30000/v1/models'), 'GPU-BOX-7')).toBe(30000)
    const own = Object.values(networkInterfaces())
      .flat()
      .find((a) => a !== undefined && a.family === 'IPv4')
    if (own) expect(localPort(new URL(`http://${own.address}:8001/`))).toBe(8001)
  })

  it('gives none for a server elsewhere', () => {
    expect(localPort(new URL('http://inference.example.com:8000/v1/models'), 'runner-1')).toBeUndefined()
    expect(localPort(new URL('http://192.0.2.10:8000/v1/models'), 'runner-1')).toBeUndefined()
  })
})
