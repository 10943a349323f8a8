/**
 * Where the model ended up once ready (all on the GPU, partly, on the CPU), from what tells it: llama.cpp's offload
 * line, Ollama's `/api/ps`, the GPU memory the server's processes hold; and whether the server was meant to use GPUs.
 */
import { LLAMACPP_NO_GPU, LLAMACPP_OFFLOADED } from '../engines/llamacpp.js'
import { startGpus } from '../server/preflight.js'
import type { ProbeResult } from '../http/probe.js'
import type { Placement, PlacementFacts } from '../facts/outcome.js'

/** What the server's log said of its layers (the last such line). */
export interface LogPlacement {
  offload?: { n: number; m: number; line: number }
  noGpu?: { line: number; text: string }
}

/** Follows the server's log for the lines that tell where the model went. */
export function placementLog(): { see(text: string, number: number): void; readonly found: LogPlacement } {
  const found: LogPlacement = {}
  return {
    see(text, number) {
      const offload = LLAMACPP_OFFLOADED.exec(text)
      if (offload !== null) found.offload = { n: Number(offload[1]), m: Number(offload[2]), line: number }
      else if (LLAMACPP_NO_GPU.test(text)) found.noGpu = { line: number, text: text.trim().slice(0, 200) }
    },
    found
  }
}

/**
 * Why the server was meant to use GPUs, in words, or undefined: its `start` line pins GPUs or asks for them
 * (`CUDA_VISIBLE_DEVICES=`, `--gpus`, `-ngl`/`--n-gpu-layers` above 0), the step's `CUDA_VISIBLE_DEVICES` names
 * some, or GPUs are present. `-ngl 0` or an empty `CUDA_VISIBLE_DEVICES` ask for the CPU: never meant then.
 */
export function meantForGpu(
  start: string | undefined,
  env: NodeJS.ProcessEnv,
  gpusPresent: number | undefined
): string | undefined {
  const layers = start === undefined ? null : /(?:^|\s)(?:-ngl|--n-gpu-layers|--gpu-layers)(?:=|\s+)(\S+)/.exec(start)
  if (layers !== null && /^0+$/.test(layers[1])) return undefined
  const pinned = startGpus(start)
  if (pinned !== undefined)
    return pinned.trim() === '' || pinned.trim() === '-1' ? undefined : `its start line pins GPUs ${pinned}`
  if (start !== undefined && /(?:^|\s)--gpus(?:=|\s)/.test(start)) return 'its start line passes --gpus'
  if (layers !== null) return `its start line asks for ${layers[1]} GPU layers`
  const visible = env.CUDA_VISIBLE_DEVICES
  if (visible !== undefined) {
    const v = visible.trim()
    return v === '' || v === '-1' ? undefined : `CUDA_VISIBLE_DEVICES is ${v}`
  }
  if (gpusPresent !== undefined && gpusPresent > 0)
    return `${gpusPresent} GPU${gpusPresent === 1 ? ' is' : 's are'} present`
  return undefined
}

export interface PlacementEvidence {
  meant?: string
  log?: LogPlacement
  /** GPU memory the server's processes hold (nvidia-smi); undefined without a reading or a server process. */
  heldMiB?: number
  /** Ollama's `/api/ps` entry of the model: its size, and how much of it is in GPU memory. */
  ollama?: { model: string; size: number; sizeVram: number }
  /**
   * The engine may keep layers on the CPU by itself, or is not known: memory held shows some of the model on the GPU,
   * never all of it.
   */
  splitsLayers?: boolean
}

const RANK: Readonly<Record<Placement, number>> = { cpu: 0, partial: 1, gpu: 2 }

/** The placement the evidence gives (the worst where several tell), and the warning when it is not where meant. */
export function placementOf(e: PlacementEvidence): PlacementFacts | undefined {
  const told: Array<{ placement: Placement; evidence: string }> = []
  if (e.ollama !== undefined) {
    const { model, size, sizeVram } = e.ollama
    const percent = size > 0 ? Math.floor((100 * sizeVram) / size) : 0
    const placement = sizeVram >= size ? 'gpu' : sizeVram > 0 ? 'partial' : 'cpu'
    told.push({
      placement,
      evidence: `Ollama /api/ps: "${model}" size_vram ${sizeVram} of size ${size} (${percent}% in GPU memory)`
    })
  }
  const offload = e.log?.offload
  if (offload !== undefined) {
    const placement = offload.n >= offload.m ? 'gpu' : offload.n > 0 ? 'partial' : 'cpu'
    told.push({ placement, evidence: `offloaded ${offload.n}/${offload.m} layers to GPU (log line ${offload.line})` })
  }
  const noGpu = e.log?.noGpu
  if (noGpu !== undefined && offload === undefined)
    told.push({ placement: 'cpu', evidence: `"${noGpu.text}" (log line ${noGpu.line})` })
  // memory held tells only where the server was meant to use GPUs: a CPU server on a GPU machine holds none
  if (e.heldMiB !== undefined && e.meant !== undefined && !memoryUntold(e))
    told.push({
      placement: e.heldMiB > 0 ? 'gpu' : 'cpu',
      evidence: `the server's processes hold ${e.heldMiB} MiB of GPU memory`
    })
  if (told.length === 0) return undefined
  const worst = told.reduce((a, b) => (RANK[b.placement] < RANK[a.placement] ? b : a))
  const where = worst.placement === 'partial' ? 'only partly on the GPU' : 'on the CPU'
  // a model partly on a GPU was meant for one, whatever else is known
  const warned = worst.placement !== 'gpu' && (e.meant !== undefined || worst.placement === 'partial')
  const meant = e.meant === undefined ? '' : `, though the server was meant to use GPUs (${e.meant})`
  const warning = warned
    ? `The model is ready ${where}${meant}: ${worst.evidence}. It serves, but at a fraction of the speed of a GPU`
    : undefined
  return { placement: worst.placement, evidence: worst.evidence, ...(warning === undefined ? {} : { warning }) }
}

/** Memory held where it cannot tell all from some: nothing else said, and an engine that may split its layers. */
const memoryUntold = (e: PlacementEvidence): boolean =>
  e.splitsLayers === true && (e.heldMiB ?? 0) > 0 && e.log?.offload === undefined && e.ollama === undefined

/**
 * Why no placement is given though GPU memory is held, in a line; undefined where one is given or nothing was read.
 * llama.cpp prints its offload line at log verbosity 4 only since it moved libllama's lines to TRACE
 * (common/log.cpp: `GGML_LOG_LEVEL_INFO` → `LOG_LEVEL_TRACE`; the default verbosity is 3).
 */
export function placementUntold(e: PlacementEvidence, engineLabel: string | undefined): string | undefined {
  if (!memoryUntold(e) || e.meant === undefined) return undefined
  const verbose = engineLabel === 'llama.cpp' ? ' (llama.cpp prints it only at -lv 4: add it to the start line)' : ''
  return (
    `Placement not told: the server's processes hold ${e.heldMiB} MiB of GPU memory, so some of the model is there, ` +
    `but ${engineLabel ?? 'an engine not known'} may keep layers on the CPU, and no line says how many went to the ` +
    `GPU${verbose}`
  )
}

/** Ollama's `/api/ps` entry of `model` (its size, and the part in GPU memory); undefined when it does not say. */
export async function ollamaPs(
  url: URL,
  model: string,
  send: (url: URL) => Promise<ProbeResult>
): Promise<PlacementEvidence['ollama']> {
  const result = await send(new URL('/api/ps', url))
  if (result.kind !== 'http' || result.status !== 200) return undefined
  const list = (result.json as { models?: unknown } | undefined)?.models
  if (!Array.isArray(list)) return undefined
  const entries = list.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null)
  const entry = entries.find((m) => m.name === model || m.model === model)
  if (entry === undefined || typeof entry.size !== 'number' || typeof entry.size_vram !== 'number') return undefined
  return { model, size: entry.size, sizeVram: entry.size_vram }
}
