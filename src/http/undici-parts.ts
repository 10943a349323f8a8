/** The parts of undici the probe uses, one by one: its index loads every dispatcher, mock and cache module. */
import type {
  Agent as AgentType,
  Client as ClientType,
  Dispatcher as DispatcherType,
  ProxyAgent as ProxyAgentType
} from 'undici'
// @ts-expect-error -- undici ships no declarations for its internal paths; typed below
import AgentImpl from 'undici/lib/dispatcher/agent.js'
// @ts-expect-error -- as above
import DispatcherImpl from 'undici/lib/dispatcher/dispatcher.js'
// @ts-expect-error -- as above
import ClientImpl from 'undici/lib/dispatcher/client.js'
// @ts-expect-error -- as above
import ProxyAgentImpl from 'undici/lib/dispatcher/proxy-agent.js'
// @ts-expect-error -- as above
import api from 'undici/lib/api/index.js'

/** What undici's index does on import: every dispatcher gets request(), connect() and the rest. Safe to call again. */
export function setUpUndici(): void {
  const prototype = (DispatcherImpl as { prototype: Record<string, unknown> }).prototype
  if (prototype.request !== api.request) Object.assign(prototype, api)
}

export const Agent = AgentImpl as typeof AgentType
export type Agent = AgentType
export const Client = ClientImpl as typeof ClientType
export const ProxyAgent = ProxyAgentImpl as typeof ProxyAgentType
export type ProxyAgent = ProxyAgentType

export function request(
  dispatcher: DispatcherType,
  options: DispatcherType.RequestOptions
): Promise<DispatcherType.ResponseData> {
  return dispatcher.request(options)
}
