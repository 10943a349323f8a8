import { loopback } from '../helpers/loopback.js'
import { errors, runMeasured } from '../helpers/support.js'

/** Setups that cannot work, through the packaged action: each said plainly, with what to change. */
const net = loopback()
const listModels = (_req: unknown, res: import('node:http').ServerResponse): void =>
  void res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}')

describe('an https:// URL on a port that speaks plain HTTP', () => {
  it('says the server speaks plain HTTP and to use http://, not to give a CA certificate', async () => {
    const plain = await net.http(listModels)
    const run = await runMeasured({ url: `${plain.replace(/^http:/, 'https:')}/v1/models`, timeout: '5s' })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'tls' })
    const [error] = errors(run.stdout)
    expect(error).toMatch(/the server speaks plain HTTP on this port, not HTTPS .*use an http:\/\/ URL/)
    expect(error).not.toMatch(/Give its CA certificate|ssl3_get_record/)
  })

  it('says so too when an http:// URL redirects to https:// on such a port', async () => {
    const plain = await net.http(listModels)
    const redirecting = await net.http(
      (_req, res) => void res.writeHead(301, { location: `${plain.replace(/^http:/, 'https:')}/v1/models` }).end()
    )
    const run = await runMeasured({ url: `${redirecting}/v1/models`, timeout: '5s' })
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'tls' })
    const [error] = errors(run.stdout)
    expect(error).toMatch(/\(where the server redirected\) speaks plain HTTP on this port, not HTTPS/)
    expect(error).toMatch(/fix the redirect, or give the final address with http:\/\//)
  })
})

describe('inputs no request could carry', () => {
  let requests = 0
  const counted = async (): Promise<string> =>
    net.http((req, res) => {
      requests++
      listModels(req, res)
    })

  it.each([
    ['headers', 'X-Team: Zürich → 東京', /Input "headers": line 1 \(X-Team\) has a character outside Latin-1/],
    ['api-key', 'sk-ключ', /Input "api-key": contains a character outside Latin-1/],
    ['timeout', '1m1m1m', /Input "timeout": "1m1m1m" is not a duration .*each unit once, largest first/],
    ['interval', '30s1m', /Input "interval": "30s1m" is not a duration/]
  ])('%s=%s is rejected before any request, naming the input', async (name, value, says) => {
    const server = await counted()
    const before = requests
    const run = await runMeasured({ url: `${server}/v1/models`, [name]: value })
    expect(run.code).toBe(1)
    expect(requests).toBe(before)
    const found = errors(run.stdout)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(says)
    if (name === 'api-key') expect(run.stdout).not.toMatch(/ключ/)
  })
})
