/**
 * `wait-for-model simulate`: serve an imitation of a model server starting up, until Ctrl-C (or its crash),
 * printing the engine's own start-up log (its phases, its ready line, its fatal lines as it dies) on stdout or to
 * `--log-file`; this command's own lines go to stderr.
 */
import { closeSync, constants, openSync, writeSync } from 'node:fs'
import { DURATION_FORM, parseDuration } from '../../inputs/parse.js'
import { printable } from '../../runtime/text.js'
import { commandSafe } from '../../report/command-safe.js'
import { SIMULATED_ENGINES, simulatedEngine } from '../../simulator/engines.js'
import { simulate } from '../../simulator/server.js'
import type { NodePart } from '../../simulator/options.js'
import { DEFAULT_PACE } from '../../simulator/streams.js'
import { formatDuration } from '../../runtime/clock.js'
import { SIMULATE_DEFAULTS, SIMULATED_ENGINE_WORDS, simulateHelpText } from '../help.js'
import { type CliIo, parseCommandLine, type Say, UsageError } from '../usage.js'

const SIMULATOR_EVENT_WORDS = {
  listening: 'port open, answering HTTP',
  ready: 'model ready',
  crashed: 'crashed: the port is closed and the process exits'
} as const

export async function simulateCommand(argv: string[], io: CliIo, sayRaw: Say): Promise<number> {
  // its lines quote the user's --model: in a CI step's output, none may act as a workflow command
  const say: Say = (line) => sayRaw(commandSafe(line))
  const { values } = parseCommandLine(argv, {
    engine: { type: 'string' },
    model: { type: 'string' },
    load: { type: 'string', default: SIMULATE_DEFAULTS.load },
    port: { type: 'string', default: SIMULATE_DEFAULTS.port },
    host: { type: 'string', default: SIMULATE_DEFAULTS.host },
    'crash-after': { type: 'string' },
    'generation-fails': { type: 'boolean' },
    unloaded: { type: 'boolean' },
    'on-gpu': { type: 'string' },
    'tokens-per-second': { type: 'string', default: String(DEFAULT_PACE.tokensPerSecond) },
    ttft: { type: 'string', default: String(DEFAULT_PACE.ttftMs) },
    'log-file': { type: 'string' },
    nnodes: { type: 'string' },
    'node-rank': { type: 'string' },
    ranks: { type: 'string' },
    'join-after': { type: 'string' },
    help: { type: 'boolean', short: 'h' }
  })
  if (values.help) return (void io.stdout.write(simulateHelpText()), 0)
  const given = String(values.engine ?? '')
  const engine = simulatedEngine(given)
  if (engine === undefined) {
    throw new UsageError(
      `--engine: give one of ${SIMULATED_ENGINE_WORDS}${given ? ` (not "${printable(given)}")` : ''}`
    )
  }
  const model = String(values.model ?? '').trim()
  if (model === '') throw new UsageError('--model: give the model name the engine lists, e.g. /shared/kimi-k2.5-int4')
  const duration = (name: string, text: string): number => {
    try {
      return parseDuration(text)
    } catch {
      throw new UsageError(`--${name}: "${printable(text)}" is not ${DURATION_FORM}`)
    }
  }
  const loadMs = duration('load', String(values.load))
  const crashAfter = values['crash-after']
  const crashAfterMs = typeof crashAfter === 'string' ? duration('crash-after', crashAfter) : undefined
  const onGpuText = typeof values['on-gpu'] === 'string' ? values['on-gpu'].trim() : undefined
  const onGpu = onGpuText === undefined ? undefined : Number(onGpuText)
  if (onGpuText !== undefined && !(/^\d*\.?\d+$/.test(onGpuText) && Number(onGpuText) <= 1))
    throw new UsageError(`--on-gpu: "${printable(onGpuText)}" is not a share from 0 to 1, such as 0.4`)
  const portText = String(values.port)
  if (!/^\d+$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
    throw new UsageError(`--port: "${printable(portText)}" is not a port number from 1 to 65535`)
  }
  const host = String(values.host)
  const tokensText = String(values['tokens-per-second'])
  if (!/^\d+(\.\d+)?$/.test(tokensText.trim()) || Number(tokensText) > 100_000)
    throw new UsageError(
      `--tokens-per-second: "${printable(tokensText)}" is not a number of tokens a second above 0, such as 50`
    )
  const tokensPerSecond = Number(tokensText)
  if (tokensPerSecond <= 0) throw new UsageError('--tokens-per-second: give a number of tokens a second above 0')
  // a bare number is milliseconds; any other duration form as the inputs take it
  const ttftText = String(values.ttft).trim()
  const ttftMs = /^\d+(\.\d+)?$/.test(ttftText) ? Number(ttftText) : duration('ttft', ttftText)
  if (ttftMs > 600_000) throw new UsageError(`--ttft: "${printable(ttftText)}" is over 10 minutes`)
  const node = nodePart(values, duration, io.env)
  // a log that cannot be written (a full disk) ends the simulator in one line
  let logFailed = (_why: string): void => undefined
  const logFailure = new Promise<string>((resolve) => (logFailed = resolve))
  const log = engineLogOut(values['log-file'], io, (why) => logFailed(why))
  const prefix = `[simulated ${engine}]`
  let server
  try {
    server = await simulate({
      engine,
      model,
      loadMs,
      port: Number(portText),
      host,
      crashAfterMs,
      generationFails: values['generation-fails'] === true,
      unloaded: values.unloaded === true,
      onGpu,
      node,
      pace: { tokensPerSecond, ttftMs },
      onLog: log.write,
      onEvent: (event, atMs) => say(`${prefix} ${formatDuration(atMs)}: ${SIMULATOR_EVENT_WORDS[event]}`)
    })
  } catch (e) {
    log.close()
    throw new UsageError(
      `--port: cannot open ${host}:${portText} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`
    )
  }
  const opensAt = SIMULATED_ENGINES[engine].opensAt * loadMs
  if (node !== undefined && node.rank > 0)
    say(
      `${prefix} node ${node.rank + 1} of ${node.count} (a worker, serving no API): its ranks join at ` +
        `${formatDuration(node.joinsAfterMs ?? loadMs / 20)}; it runs until stopped. Stop it with Ctrl-C.`
    )
  else
    say(
      `${prefix} serving "${model}" on ${server.baseUrl}: the port ${opensAt > 0 ? `opens at ${formatDuration(opensAt)}` : 'is open now'}, ` +
        `the model is ready at ${formatDuration(loadMs)}` +
        (crashAfterMs === undefined ? '' : `, the engine crashes at ${formatDuration(crashAfterMs)}`) +
        (values['generation-fails'] === true ? ', every generation request fails' : '') +
        '. Stop it with Ctrl-C.'
    )
  try {
    const failed = await Promise.race([server.ended, logFailure])
    if (failed !== 'crashed') {
      await server.close()
      say(`wait-for-model: --log-file: ${failed}`)
    }
  } catch (e) {
    // the port was free when checked, and taken by the time the engine opened it
    say(`${prefix} cannot open ${host}:${portText}: ${(e as Error).message}`)
  }
  log.close()
  return 1
}

/** `--nnodes N --node-rank R [--ranks T] [--join-after D]`: this process as one node of a server across N. */
function nodePart(
  values: Record<string, unknown>,
  duration: (name: string, text: string) => number,
  env: NodeJS.ProcessEnv
): NodePart | undefined {
  const count = (name: string, fallback?: number): number | undefined => {
    const text = values[name]
    if (typeof text !== 'string') return fallback
    if (!/^\d+$/.test(text.trim()) || Number(text) > 4096)
      throw new UsageError(`--${name}: "${printable(text)}" is not a whole number up to 4096`)
    return Number(text)
  }
  const nodes = count('nnodes')
  if (nodes === undefined) return undefined
  if (nodes < 1) throw new UsageError('--nnodes: give 1 or more')
  const rank = count('node-rank', 0) as number
  if (rank >= nodes) throw new UsageError(`--node-rank: give 0 (the head) to ${nodes - 1}`)
  const ranks = count('ranks', nodes) as number
  const join = values['join-after']
  return {
    count: nodes,
    rank,
    ranks: Math.max(ranks, nodes),
    // NCCL reads its level case-blind; TRACE prints the INFO lines too
    ncclInfo: /^(INFO|TRACE)$/i.test(env.NCCL_DEBUG ?? ''),
    ...(typeof join === 'string' ? { joinsAfterMs: duration('join-after', join) } : {})
  }
}

/**
 * Where the engine's log goes: stdout, or appended to `--log-file` (never through a symlink: the file is the
 * user's to name, not a link's to redirect).
 */
function engineLogOut(
  file: unknown,
  io: CliIo,
  failed: (why: string) => void
): { write(line: string): void; close(): void } {
  // the model's name is the user's text, in lines a CI runner reads for workflow commands
  if (typeof file !== 'string')
    return { write: (line) => void io.stdout.write(`${commandSafe(line)}\n`), close: () => undefined }
  if (file.trim() === '') throw new UsageError('--log-file: give a path')
  let fd: number
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, 0o644)
  } catch (e) {
    throw new UsageError(
      `--log-file: cannot open "${printable(file)}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`
    )
  }
  let open = true
  return {
    write: (line) => {
      if (!open) return
      try {
        writeSync(fd, `${line}\n`)
      } catch (e) {
        closeSync(fd)
        open = false
        failed(`cannot write "${printable(file)}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
      }
    },
    close: () => {
      if (open) closeSync(fd)
      open = false
    }
  }
}
