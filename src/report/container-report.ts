/** The words of a server that is a container (`container`): its watch, its health, who answers instead of it. */
import { type Redirect, redirectText } from './lifecycle-report.js'

interface Holder {
  pid: number
  command: string
}

export const containerLines = {
  started: (pid: number, starterLog: string): string =>
    `Ran "start" (pid ${pid}); its own output goes to ${starterLog}`,
  watching: (ref: string, id: string | undefined, logFile: string): string =>
    `Watching the container ${ref}${id === undefined || id.startsWith(ref) ? '' : ` (${id.slice(0, 12)})`}` +
    `${id === undefined ? ' once the engine has it' : ''}; its output, from the engine, goes to ${logFile}`,
  health: (ref: string, health: string): string => `The container ${ref} is ${health} (its HEALTHCHECK)`,
  wrongServer: (ref: string, port: number, holders: readonly Holder[], redirect?: Redirect): string =>
    `${redirect === undefined ? '' : `${redirectText(redirect)}: `}Port ${port} is answered by ${holders.map((h) => `pid ${h.pid} (${h.command})`).join(', ')}, not by a ` +
    `process of the container ${ref} nor a docker-proxy of its published port: another server holds the port, or ` +
    'the container listens elsewhere. Its answers say nothing about the server being waited for',
  /** A local endpoint redirected to another machine: not the container's answer. */
  elsewhere: (ref: string, redirect: Redirect): string =>
    `${redirectText(redirect)}, which is not this machine: its answers say nothing about the container ${ref}. ` +
    'Give the URL the server itself answers on, or set "port-check: false" for a proxy'
}
