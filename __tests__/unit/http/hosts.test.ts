import type { LookupAddress } from 'node:dns'
import { createLookup, isLoopback, loopbackAddresses, proxyFor, proxyLabel } from '../../../src/http/hosts.js'

describe('isLoopback', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST.', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['[::1]', true],
    ['0.0.0.0', true],
    ['[::]', true],
    ['128.0.0.1', false],
    ['localhost.example.com', false],
    ['gpu-box', false],
    ['[::2]', false],
    ['[::ffff:a00:1]', false]
  ])('%s → %p', (host, loopback) => expect(isLoopback(host)).toBe(loopback))
  it('sees the forms URL normalises to loopback, IPv4-mapped and wildcard ones included', () => {
    expect(
      [
        'http://127.1/',
        'http://[0:0::1]/',
        'http://0x7f.0.0.1/',
        'http://[::ffff:127.0.0.1]:8000/',
        'http://[::ffff:127.9.8.7]/',
        'http://0.0.0.0:8000/',
        'http://0:8000/'
      ].map((u) => isLoopback(new URL(u).hostname))
    ).toEqual([true, true, true, true, true, true, true])
  })
})

describe('loopbackAddresses', () => {
  it('answers localhost on both families, and nothing else', () => {
    expect(loopbackAddresses('LocalHost.')?.map((a) => a.address)).toEqual(['127.0.0.1', '::1'])
    expect(loopbackAddresses('127.0.0.1')).toBeUndefined()
    expect(loopbackAddresses('gpu-box')).toBeUndefined()
  })
})

describe('proxyFor', () => {
  const at = (url: string, env: NodeJS.ProcessEnv): string | undefined => proxyFor(new URL(url), env)?.href
  const proxy = 'http://proxy.example:3128/'
  it('takes http_proxy for http:// and https_proxy (else the http one) for https://', () => {
    expect(at('http://gpu-box:8000/', { HTTP_PROXY: proxy })).toBe(proxy)
    expect(at('https://gpu-box/', { HTTP_PROXY: proxy })).toBe(proxy)
    expect(at('https://gpu-box/', { HTTP_PROXY: proxy, HTTPS_PROXY: 'http://tls.example:1/' })).toBe(
      'http://tls.example:1/'
    )
    expect(at('http://gpu-box/', { HTTPS_PROXY: proxy })).toBeUndefined()
    expect(at('http://gpu-box/', { http_proxy: 'proxy.example:3128' })).toBe(proxy)
  })
  it.each(['http://localhost:8000/', 'http://0.0.0.0:8000/', 'http://[::ffff:127.0.0.1]:8000/', 'http://[::1]/'])(
    'never proxies loopback (%s)',
    (url) => expect(at(url, { HTTP_PROXY: proxy, http_proxy: proxy })).toBeUndefined()
  )
  it('goes direct for NO_PROXY hosts, domains, ports and *', () => {
    const env = (noProxy: string): NodeJS.ProcessEnv => ({ HTTP_PROXY: proxy, NO_PROXY: noProxy })
    expect(at('http://gpu-box:8000/', env('gpu-box'))).toBeUndefined()
    expect(at('http://a.lab.example/', env('.lab.example'))).toBeUndefined()
    expect(at('http://a.lab.example/', env('*.lab.example'))).toBeUndefined()
    expect(at('http://lab.example:8000/', env('lab.example:8000'))).toBeUndefined()
    expect(at('http://lab.example:9000/', env('lab.example:8000'))).toBe(proxy)
    expect(at('http://otherlab.example/', env('lab.example'))).toBe(proxy)
    expect(at('http://anything/', env('*'))).toBeUndefined()
  })
  it('prints a proxy without its credentials', () => {
    expect(proxyLabel(new URL('http://user:pass@proxy.example:3128/'))).toBe('http://proxy.example:3128')
  })
})

describe('createLookup', () => {
  const resolve = (name: string, family?: number): Promise<{ code?: string; found: LookupAddress[] }> =>
    new Promise((done) =>
      createLookup()(name, { all: true, family }, (err, found) =>
        done({ code: (err as NodeJS.ErrnoException | null)?.code, found: found as LookupAddress[] })
      )
    )

  it('answers localhost on both families without asking the resolver', async () => {
    expect((await resolve('localhost')).found.map((a) => a.address)).toEqual(['127.0.0.1', '::1'])
  })

  it('asks the system resolver for other names: an address is itself; a name it refuses is not found', async () => {
    expect(await resolve('127.0.0.9')).toEqual({ code: undefined, found: [{ address: '127.0.0.9', family: 4 }] })
    // a label over 63 characters: refused without a query, so nothing leaves the machine
    expect((await resolve(`${'p'.repeat(64)}.invalid`)).code).toBe('ENOTFOUND')
  })
})
