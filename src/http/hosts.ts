/**
 * Where a request to a URL's host goes: this machine (never through a proxy), or elsewhere, directly or through the
 * environment's proxy, as curl decides. The probe, the port watch and the proxy choice all ask here.
 */
import type { LookupAddress, LookupOptions } from 'node:dns'

/** A host as URL.hostname writes it, made comparable: lower case, no IPv6 brackets, no final dot. */
export const bareHost = (hostname: string): string =>
  hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')

/** Also IPv4-mapped 127/8 and the wildcards 0.0.0.0 and :: (vLLM prints `http://0.0.0.0:8000`; it reaches here). */
export function isLoopback(hostname: string): boolean {
  const h = bareHost(hostname)
  if (h === 'localhost' || h === '::1' || h === '::' || h === '0.0.0.0') return true
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true
  // ::ffff:7fxx:xxxx is 127.x.x.x mapped into IPv6
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(h)
}

/** `localhost` on both families whatever /etc/hosts says (RFC 6761): model servers listen on either. */
export function loopbackAddresses(hostname: string): Array<{ address: string; family: 4 | 6 }> | undefined {
  if (bareHost(hostname) !== 'localhost') return undefined
  return [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 }
  ]
}

/** The proxy as curl reads the environment (`*_proxy`, `NO_PROXY` hosts, domains, `host:port`, `*`), or none. */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): URL | undefined {
  if (isLoopback(url.hostname)) return undefined
  const http = env.http_proxy ?? env.HTTP_PROXY
  const chosen = url.protocol === 'https:' ? (env.https_proxy ?? env.HTTPS_PROXY ?? http) : http
  if (!chosen) return undefined
  const noProxy = env.no_proxy ?? env.NO_PROXY ?? ''
  if (noProxy.trim() === '*') return undefined
  const host = bareHost(url.hostname)
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80)
  for (const entry of noProxy.split(/[,\s]/)) {
    if (entry === '') continue
    const m = /^(.+):(\d+)$/.exec(entry)
    if (m && Number(m[2]) !== port) continue
    const name = bareHost((m ? m[1] : entry).replace(/^\*?\./, ''))
    if (host === name || host.endsWith(`.${name}`)) return undefined
  }
  // curl reads a bare `host:port` as an http:// proxy
  return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(chosen) ? chosen : `http://${chosen}`)
}

/** A proxy as it may be printed: scheme, host and port, never the user and password it may carry. */
export const proxyLabel = (proxy: URL): string => `${proxy.protocol}//${proxy.host}`

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void
export type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void

/**
 * Name resolution through `getent ahosts` (the same getaddrinfo as `dns.lookup`) in a child process: a lookup the
 * resolver never answers cannot be cancelled, and in Node it would hold a libuv thread and the process at exit.
 * One question per name is in flight; without `getent` (macOS, Windows), `dns.lookup`.
 */
export function createLookup(): Lookup {
  const pending = new Map<string, LookupCallback[]>()
  let noGetent = false
  return (hostname, options, callback) => {
    const loopback = loopbackAddresses(hostname)
    if (loopback !== undefined) return void answer(loopback, options, callback)
    const key = JSON.stringify([hostname, options.all === true, options.family ?? 0])
    const waiting = pending.get(key)
    if (waiting !== undefined) return void waiting.push(callback)
    pending.set(key, [callback])
    const done = (err: Error | null, found: LookupAddress[]): void => {
      const callbacks = pending.get(key) ?? []
      pending.delete(key)
      for (const cb of callbacks) {
        if (err) cb(err, options.all ? [] : '')
        else answer(found, options, cb)
      }
    }
    // node:dns is loaded only for a name: a wait on an address (the usual `127.0.0.1`) starts without it
    const viaNode = (): void =>
      process
        .getBuiltinModule('node:dns')
        .lookup(hostname, { family: options.family, hints: options.hints, all: true }, (e, all) => done(e, all ?? []))
    if (noGetent) return viaNode()
    getentHosts(hostname, (err, found) => {
      if ((err as NodeJS.ErrnoException | null)?.code !== 'ENOENT')
        return done(err, ofFamily(found ?? [], options.family))
      noGetent = true
      viaNode()
    })
  }
}

function answer(found: LookupAddress[], options: LookupOptions, callback: LookupCallback): void {
  if (found.length === 0) {
    const err = Object.assign(new Error('no address of the requested family'), { code: 'ENOTFOUND' })
    return void callback(err, options.all ? [] : '')
  }
  if (options.all) callback(null, found)
  else callback(null, found[0].address, found[0].family)
}

const ofFamily = (found: LookupAddress[], family: LookupOptions['family']): LookupAddress[] => {
  const wanted = family === 'IPv4' ? 4 : family === 'IPv6' ? 6 : family
  return wanted === 4 || wanted === 6 ? found.filter((a) => a.family === wanted) : found
}

/** Each address is printed three times, one per socket type, in getaddrinfo's order. */
function getentHosts(hostname: string, callback: (err: Error | null, found?: LookupAddress[]) => void): void {
  const { execFile } = process.getBuiltinModule('node:child_process')
  const child = execFile('getent', ['ahosts', '--', hostname], { encoding: 'latin1' }, (err, stdout) => {
    const code = (err as { code?: unknown } | null)?.code
    if (code === 'ENOENT') return callback(err)
    if (err !== null) {
      // getent's 2 is "not found"; anything else a failure of the resolver itself
      const failure = code === 2 ? 'ENOTFOUND' : 'EAI_AGAIN'
      return callback(Object.assign(new Error(`getaddrinfo ${failure} ${hostname}`), { code: failure }))
    }
    const addresses = [
      ...new Set(
        stdout
          .split('\n')
          .map((line) => line.split(/\s+/)[0])
          .filter(Boolean)
      )
    ]
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
    )
  })
  // A resolver that never answers must not keep the process alive.
  child.unref()
  for (const stream of [child.stdout, child.stderr]) (stream as { unref?(): void } | null)?.unref?.()
}
