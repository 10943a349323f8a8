/**
 * The recipes in docs/, run as written: their code blocks read from the page, the server they start replaced by the
 * simulator on a free port, `npm install -g wait-for-model` by the package already built (dist/cli.js), and
 * CI agents (buildkite-agent) by fakes that record what they were asked.
 */
import { chmodSync, mkdirSync, readFileSync, readlinkSync, renameSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { dirname, join } from 'node:path'
import { portOwner } from '../../src/server/port-owner.js'

const root = new URL('../..', import.meta.url).pathname
const cli = join(root, 'dist', 'cli.js')

/** The fenced blocks of a section of a docs page (`## heading` up to the next `## `), with their languages. */
export function codeBlocks(page: string, heading: string): Array<{ lang: string; body: string }> {
  const markdown = readFileSync(join(root, 'docs', page), 'utf8')
  const start = markdown.indexOf(`\n## ${heading}\n`)
  if (start < 0) throw new Error(`docs/${page} has no "## ${heading}"`)
  const end = markdown.indexOf('\n## ', start + 1)
  const section = markdown.slice(start, end < 0 ? undefined : end)
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang, body]) => ({ lang, body }))
}

/**
 * A directory for PATH: `wait-for-model` (dist/cli.js), `npm` that only accepts installing it, and
 * `buildkite-agent` that appends its arguments and its stdin to `calls.log` beside it.
 */
export function fakeTools(dir: string): string {
  const bin = join(dir, 'bin')
  mkdirSync(bin, { recursive: true })
  const tool = (name: string, script: string): void => {
    // Written beside and renamed over: each shell of a job writes the tools again, and a server a step left in the
    // background may still be reading its wrapper script. Truncating that file in place made sh read an empty
    // script and exit without starting the server (a Jenkins recipe's wait then timed out, now and then).
    const path = join(bin, name)
    writeFileSync(`${path}.new`, `#!/bin/sh\n${script}\n`)
    chmodSync(`${path}.new`, 0o755)
    renameSync(`${path}.new`, path)
  }
  tool('wait-for-model', `exec "${process.execPath}" "${cli}" "$@"`)
  tool('npm', '[ "$*" = "install -g wait-for-model" ] || { echo "fake npm: $*" >&2; exit 1; }')
  tool(
    'buildkite-agent',
    `{ printf '%s\\n' "buildkite-agent $*"; cat; printf '\\n--end--\\n'; } >> "${join(dir, 'calls.log')}"`
  )
  return bin
}

/**
 * A recipe's shell text made to run here: the model server it starts becomes the simulator (its pid appended to
 * `pids`, for the test to end it), the port 8000 becomes `port`, the 20m timeout 20s; `extra` replaces more first.
 */
export function localised(
  text: string,
  port: number,
  pidFile: string,
  extra: Array<[string | RegExp, string]> = []
): string {
  let out = text
    .replace(
      /(?:JENKINS_NODE_COOKIE=\S+ )?(?:nohup )?vllm serve (\S+) --port 8000 (> \S+ 2>&1) &/g,
      `wait-for-model simulate --engine vllm --model $1 --port ${port} --load 1500ms $2 & echo $! >> "${pidFile}";`
    )
    .replace(/localhost:8000/g, `127.0.0.1:${port}`)
  for (const [from, to] of extra) out = out.replace(from, to)
  // a server that never comes (a port taken meanwhile) fails the test in seconds, with the gate's words
  return out.replace(/--timeout 20m\b/g, '--timeout 20s')
}

export function pidsIn(pidFile: string): number[] {
  try {
    return readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** Whether `pid` still runs (a zombie counts as gone: it holds no port and no memory). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

/**
 * What a recipe left behind once its always-run block has run: the servers it started that still run, and whether
 * anything of the recipe's still accepts connections on its port. A recipe that stops its server leaves `{ running:
 * [], listening: false }`, so that the next job on the machine does not meet `port-busy`. A listener counts as the
 * recipe's unless /proc shows every holder working elsewhere than the recipe's folder (the pid file's): jest runs
 * several files at once, and another file's server may take the port a moment after this recipe freed it.
 */
export async function leftBehind(pidFile: string, port: number): Promise<{ running: number[]; listening: boolean }> {
  const accepts = await new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
  const root = dirname(pidFile)
  const owner = portOwner(port)
  const holders = owner.kind === 'listening' ? owner.listeners.flatMap((l) => l.holders) : []
  const elsewhere = (pid: number): boolean => {
    try {
      return !readlinkSync(`/proc/${pid}/cwd`).startsWith(root)
    } catch {
      return false
    }
  }
  const foreign = holders.length > 0 && holders.every((h) => elsewhere(h.pid))
  return { running: pidsIn(pidFile).filter(running), listening: accepts && !foreign }
}
