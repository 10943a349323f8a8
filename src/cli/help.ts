/** The `--help` of each command, and the defaults it states that are the CLI's own (the inputs' are the action's). */
import pkg from '../../package.json' with { type: 'json' }
import { DURATION_FORM } from '../inputs/parse.js'
import { INPUT_NAMES, INPUTS, type InputName } from '../inputs/input-names.js'
import { DEFAULT_PACE } from '../simulator/streams.js'
import { type EngineName, SIMULATED_ENGINES } from '../simulator/engines.js'
import { CHECK_INPUTS } from './settings-from.js'

export const SIMULATE_DEFAULTS = { load: '30s', port: '8000', host: '127.0.0.1' }
export const STOP_DEFAULTS = { timeout: '30s' }
/** A health check answers within seconds: not within the wait's 15 minutes. */
export const CHECK_DEFAULTS = { timeout: '10s' }

/** The simulator's engines, in its table's order, as people spell them: "vllm, sglang, llama.cpp, …". */
export const SIMULATED_ENGINE_WORDS = (Object.keys(SIMULATED_ENGINES) as EngineName[])
  .map((engine) => (engine === 'llamacpp' ? 'llama.cpp' : engine))
  .join(', ')

const table = (rows: Array<[string, string]>): string[] => {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`.trimEnd())
}

/** A row for each input: its flag, its words and its default. */
const inputRows = (
  names: Iterable<InputName>,
  defaults: Partial<Record<InputName, string>> = {}
): Array<[string, string]> =>
  [...names].map((name) => {
    const [metavar, text] = INPUTS[name].flag
    const value = defaults[name] ?? INPUTS[name].default
    return [`--${name} ${metavar}`, `${text}${value === '' ? '' : ` (default: ${value})`}`]
  })

/** `wait-for-model --help`: the wait, and the other commands' usage. */
export function waitHelpText(): string {
  const own: Array<[string, string]> = [
    ['--json', 'print the outputs as one JSON object on stdout (numbers, booleans and lists as JSON values)'],
    [
      '--summary-file PATH',
      "write the action's job summary (Markdown) to this file, for GitLab, Buildkite, Jenkins, …"
    ],
    ['-h, --help', 'show this help'],
    ['-V, --version', 'print the version']
  ]
  return [
    `wait-for-model ${pkg.version}: wait until a model server is ready and lists the model you expect.`,
    '',
    'Usage:',
    '  wait-for-model --url URL [options]',
    '  wait-for-model check --url URL [--model NAME] [--timeout 10s]   (probe once: exit 0 ready, 1 not)',
    '  wait-for-model simulate --engine ENGINE --model NAME [--load 30s] [--port 8000] [--crash-after 10s] [--generation-fails] [--unloaded] [--on-gpu SHARE]',
    '                          [--tokens-per-second 100] [--ttft 50ms] [--log-file PATH]',
    '  wait-for-model stop --pid N | --container NAME [repeated] [--timeout 30s] [--json]',
    '  wait-for-model history [--key KEY] [--file PATH] [--format table|json|csv] [--html FILE]',
    '  wait-for-model demo',
    '',
    'Options (each also read from INPUT_<NAME>, e.g. INPUT_TIMEOUT=20m or INPUT_FAIL_PATTERN=...):',
    ...table(inputRows(INPUT_NAMES)),
    '',
    'Of the command line only:',
    ...table(own),
    '',
    `Durations: ${DURATION_FORM.replace(/^a duration such as /, '')}.`,
    'Progress goes to stderr. Exit status: 0 ready, 1 not ready (timeout, unauthorized, tls), 2 bad usage.',
    ''
  ].join('\n')
}

export function checkHelpText(): string {
  return [
    'wait-for-model check: probe once and say whether the model server is ready now (for health checks).',
    '',
    'Usage: wait-for-model check --url URL [--model NAME] [options]',
    '',
    ...table([...inputRows(CHECK_INPUTS, CHECK_DEFAULTS), ['-h, --help', 'show this help']]),
    '',
    'The same judgement as the wait (status, model, match, a generation request), on the first answer; all of it',
    'within --timeout. One line on stdout. Exit status: 0 ready, 1 not ready, 2 bad usage.',
    ''
  ].join('\n')
}

export function simulateHelpText(): string {
  return [
    'wait-for-model simulate: serve an imitation of a model server starting up (no GPU needed).',
    '',
    'Usage: wait-for-model simulate --engine ENGINE --model NAME [options]',
    '',
    ...table([
      ['--engine ENGINE', SIMULATED_ENGINE_WORDS],
      ['--model NAME', 'the model the engine lists, e.g. /shared/kimi-k2.5-int4'],
      ['--load DURATION', `time until the engine answers with the model ready (default: ${SIMULATE_DEFAULTS.load})`],
      ['--port PORT', `port to serve on (default: ${SIMULATE_DEFAULTS.port})`],
      ['--host HOST', `address to bind (default: ${SIMULATE_DEFAULTS.host})`],
      ['--crash-after DURATION', 'the engine dies this long after the start: the port closes and the process exits 1'],
      ['--generation-fails', "every generation request gets the engine's own error (to try --probe-generation)"],
      ['--unloaded', 'llama.cpp (router mode) and Ollama: listed, loaded only when asked (to try --load true)'],
      [
        '--on-gpu SHARE',
        "the share of the model in GPU memory, 0 to 1: Ollama's /api/ps size_vram, llama.cpp's offloaded N/M layers line"
      ],
      [
        '--tokens-per-second N',
        `the pace of streamed generations, for the smoke test (default: ${DEFAULT_PACE.tokensPerSecond})`
      ],
      [
        '--ttft DURATION',
        `from a streamed request to its first token; a bare number is milliseconds (default: ${DEFAULT_PACE.ttftMs})`
      ],
      [
        '--log-file PATH',
        "append the engine's own start-up log (its phases; its fatal lines with --crash-after) here, not to stdout"
      ],
      [
        '--nnodes N',
        "one node of a server across N nodes, with --node-rank (other than sglang, vllm, trtllm: NCCL's lines, with NCCL_DEBUG=INFO)"
      ],
      [
        '--node-rank R',
        "0 (default): the head, which serves; another: a worker, which prints its ranks' lines and serves no API"
      ],
      ['--ranks N', 'the ranks in all across the nodes, an even share on each (default: one a node)'],
      ['--join-after DURATION', "when this node's ranks join (default: a twentieth of --load)"],
      ['-h, --help', 'show this help']
    ]),
    ''
  ].join('\n')
}

export function stopHelpText(): string {
  return [
    'wait-for-model stop: stop a model server and wait until its processes and their GPU memory are gone.',
    '',
    'Usage: wait-for-model stop --pid N [--pid N …] [--container NAME …] [--timeout 30s] [--json]',
    '',
    ...table([
      [
        '--pid PID|FILE',
        'the server: the leader of its process group (as --start launches it), or a file holding its pid; repeat it for a fleet'
      ],
      [
        '--container NAME|ID',
        "a container that is the server: its engine's stop (DOCKER_HOST=unix://… or /var/run/docker.sock); repeat it for a fleet"
      ],
      ['--timeout DURATION', `from SIGTERM until SIGKILL (default: ${STOP_DEFAULTS.timeout})`],
      ['--json', 'print how it went as one JSON object on stdout'],
      ['-h, --help', 'show this help']
    ]),
    '',
    'SIGTERM goes to the whole process group (or, for a process that does not lead one, to it and its descendants).',
    'Several servers (--pid and --container, repeated) are stopped at the same time; --json then prints an array.',
    'Where nvidia-smi exists, waits (up to 30s) until none of its processes holds GPU memory.',
    'Never signals itself, an ancestor (its shell, the runner), pid 1, the runner, or a process group one of them is in;',
    'nor, with a pid FILE, a process that started after the file was written (its server exited, the pid was reused).',
    'Exit status: 0 stopped (or not running), 1 one still running after SIGKILL or its GPU memory still held, 2 bad usage',
    '(such a pid included: nothing is signalled).',
    ''
  ].join('\n')
}

export function historyHelpText(): string {
  return [
    'wait-for-model history: print the runs recorded in the history file (outcome, startup seconds, phases).',
    '',
    'Usage: wait-for-model history [--key KEY] [--file PATH] [--format table|json|csv] [--html FILE]',
    '',
    ...table([
      ['--key KEY', 'only the runs with this history key (the key a wait was given with --history-key, or its hash)'],
      ['--file PATH', 'the history file (default: $XDG_CACHE_HOME or ~/.cache/wait-for-model/history.jsonl)'],
      ['--format FORMAT', 'table (default), json (one array) or csv (RFC 4180, with a header row)'],
      ['--html FILE', 'write one self-contained page instead: charts per key, environment changes, phases, runs'],
      ['-h, --help', 'show this help']
    ]),
    '',
    'The runs go to stdout, oldest first; a count goes to stderr. Exit status: 0 printed (none recorded included),',
    '1 the file cannot be read, 2 bad usage.',
    ''
  ].join('\n')
}
