/** The engine's version as its own log prints it at start, per engine; where a line does not say, none is guessed. */
import type { Engine } from '../engines/index.js'

const VERSION_LINES: Partial<Record<Engine, RegExp>> = {
  // "vLLM API server version 0.16.1"
  vllm: /\bvLLM API server version ([\w.+-]+)/,
  // "build: 6428 (a1b2c3d4) with cc ..." (llama-server's own first lines)
  llamacpp: /^build: (\d+ \([0-9a-f]+\))/,
  // "Listening on 127.0.0.1:11434 (version 0.12.3)"
  ollama: /\bListening on \S+ \(version ([\w.+-]+)\)/,
  // "server_args=ServerArgs(...)" carries none; "sglang version" is printed by `python -m sglang.check_env` only
  sglang: /\bsglang(?: version|==)\s*([\w.+-]+)/i,
  // TGI: `Args { ... }` carries none; its first line names the launcher's version where given
  tgi: /\btext-generation-launcher(?: version)? ([\d][\w.+-]*)/
}

/** The version a log line names for `engine` (or any engine, unknown yet), or undefined. */
export function engineVersionIn(line: string, engine: Engine | undefined): string | undefined {
  const patterns = engine === undefined ? Object.values(VERSION_LINES) : [VERSION_LINES[engine]]
  for (const p of patterns) {
    const m = p?.exec(line)
    if (m) return m[1].slice(0, 60)
  }
  return undefined
}
