/**
 * `npm run demo` (`wait-for-model demo`): a simulated OpenAI-compatible server refuses connections, then answers
 * 503 "Loading model", then lists /shared/kimi-k2.5-int4; the packaged action waits for `model: kimi`.
 */
import { runAction } from '../../simulator/runner.js'
import { simulate } from '../../simulator/server.js'

const LOAD_MS = 12_000

/** Runs the action bundle `actionEntry` against the simulated server, printing to `out`; returns its exit code. */
export async function demo(actionEntry: string, out: NodeJS.WritableStream): Promise<number> {
  const say = (text: string): boolean => out.write(`${text}\n`)
  const server = await simulate({ engine: 'openai', model: '/shared/kimi-k2.5-int4', loadMs: LOAD_MS })
  const url = `${server.baseUrl}/v1/models`
  say(
    `Simulated server on ${url}: refuses connections for ${(LOAD_MS * 0.4) / 1000}s, answers 503 until ${LOAD_MS / 1000}s, then lists the model.\n`
  )
  say('Running dist/index.js as the runner would, with inputs: url, model: kimi, interval: 1s, timeout: 60s\n')
  try {
    const run = await runAction({
      entry: actionEntry,
      inputs: { url, model: 'kimi', interval: '1s', timeout: '60s', 'progress-interval': '3s' },
      echo: out
    })
    say('\nOutputs:')
    for (const [name, value] of Object.entries(run.outputs)) say(`  ${name} = ${value}`)
    say('\nJob summary:\n')
    say(run.summary)
    return run.code ?? 1
  } finally {
    await server.close()
  }
}
