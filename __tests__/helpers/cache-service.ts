/**
 * A stand-in for GitHub's Actions cache service on loopback, speaking what @actions/cache's v2 client calls: the
 * Twirp methods GetCacheEntryDownloadURL, CreateCacheEntry and FinalizeCacheEntryUpload, and the blob URLs they hand
 * out (a PUT as Azure's SDK sends it, a plain GET). As the service does, it never overwrites a key, finds a restore
 * key's newest finalized entry by prefix, and answers only the job's token.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

interface Entry {
  id: number
  key: string
  version: string
  finalized: boolean
  data?: Buffer
}

export interface CacheService {
  /** The environment a runner gives an action's process for the cache. */
  env: Record<string, string>
  entries: Entry[]
  /** Requests that came without the token. */
  refused: number
  close(): Promise<void>
}

const TWIRP = '/twirp/github.actions.results.api.v1.CacheService/'

const body = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })

export async function startCacheService(token = 'test-runtime-token'): Promise<CacheService> {
  const entries: Entry[] = []
  const state = { refused: 0 }
  let base = ''
  const blobUrl = (e: Entry): string => `${base}/devstoreaccount1/actions-cache/${e.id}`
  const server: Server = createServer(async (req, res) => {
    const data = await body(req)
    const send = (status: number, json?: unknown): void => {
      const text = json === undefined ? '' : JSON.stringify(json)
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
      res.end(text)
    }
    const url = new URL(req.url ?? '/', base)
    if (url.pathname.startsWith(TWIRP)) {
      if (req.headers.authorization !== `Bearer ${token}`) {
        state.refused++
        return send(401, { code: 'unauthenticated', msg: 'no token' })
      }
      const r = JSON.parse(data.toString() || '{}')
      const method = url.pathname.slice(TWIRP.length)
      if (method === 'GetCacheEntryDownloadURL') {
        const found = (pick: (e: Entry) => boolean): Entry | undefined =>
          entries.filter((e) => e.finalized && e.version === r.version && pick(e)).at(-1)
        const restoreKeys: string[] = r.restoreKeys ?? r.restore_keys ?? []
        let hit = found((e) => e.key === r.key)
        for (const prefix of restoreKeys) hit ??= found((e) => e.key.startsWith(prefix))
        if (hit === undefined) return send(200, { ok: false })
        return send(200, { ok: true, signed_download_url: blobUrl(hit), matched_key: hit.key })
      }
      if (method === 'CreateCacheEntry') {
        if (entries.some((e) => e.key === r.key && e.version === r.version)) return send(200, { ok: false })
        const e: Entry = { id: entries.length + 1, key: r.key, version: r.version, finalized: false }
        entries.push(e)
        return send(200, { ok: true, signed_upload_url: blobUrl(e) })
      }
      if (method === 'FinalizeCacheEntryUpload') {
        const e = entries.find((x) => x.key === r.key && x.version === r.version && !x.finalized)
        if (e?.data === undefined) return send(200, { ok: false, message: 'nothing uploaded' })
        e.finalized = true
        return send(200, { ok: true, entry_id: String(e.id) })
      }
      return send(404, { code: 'bad_route', msg: method })
    }
    const id = Number(/^\/devstoreaccount1\/actions-cache\/(\d+)$/.exec(url.pathname)?.[1])
    const e = entries.find((x) => x.id === id)
    if (e === undefined) return send(404)
    if (req.method === 'PUT') {
      e.data = data
      res.writeHead(201, { etag: `"${e.id}"`, 'last-modified': new Date().toUTCString(), 'content-length': 0 })
      return res.end()
    }
    if (req.method === 'GET' && e.finalized && e.data) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': e.data.length })
      return res.end(e.data)
    }
    send(404)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    env: { ACTIONS_RESULTS_URL: `${base}/`, ACTIONS_RUNTIME_TOKEN: token, ACTIONS_CACHE_SERVICE_V2: 'true' },
    entries,
    get refused() {
      return state.refused
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
