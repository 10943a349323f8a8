/**
 * The start-up floor the HTTP client sets by itself: load the parts of undici the probe loads (src/http/undici-parts.ts),
 * bundled as dist/ is (without node:http2: scripts/no-http2.mjs), send one request to $URL, exit.
 * `npm run bench` reports it beside the action.
 */
import { Agent, request, setUpUndici } from '../src/http/undici-parts.js'

setUpUndici()
const url = new URL(process.env.URL ?? '')
const agent = new Agent()
const { body } = await request(agent, { origin: url.origin, path: url.pathname, method: 'GET' })
await body.dump()
await agent.close()
