/**
 * The parts of undici the probe uses, imported one by one. undici's index loads every dispatcher, mock,
 * cache and WebSocket module (about 40 ms of a cold start on a 2-core runner); these few load in a third of
 * that, so the first probe goes out sooner. Types come from the package's own declarations.
 */
import type { Agent as AgentType, Dispatcher, EnvHttpProxyAgent as EnvHttpProxyAgentType } from 'undici'
// @ts-expect-error -- undici ships no declarations for its internal paths; typed below
import AgentImpl from 'undici/lib/dispatcher/agent.js'
// @ts-expect-error -- as above
import EnvHttpProxyAgentImpl from 'undici/lib/dispatcher/env-http-proxy-agent.js'
// @ts-expect-error -- as above
import requestImpl from 'undici/lib/api/api-request.js'

export const Agent = AgentImpl as typeof AgentType
export type Agent = AgentType
export const EnvHttpProxyAgent = EnvHttpProxyAgentImpl as typeof EnvHttpProxyAgentType
export type EnvHttpProxyAgent = EnvHttpProxyAgentType

/** `dispatcher.request(options)`, which undici's index would attach to every dispatcher's prototype. */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return (requestImpl as (this: Dispatcher, o: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>).call(dispatcher, options)
}
