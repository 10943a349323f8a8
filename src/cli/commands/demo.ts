/**
 * `npm run demo` (`wait-for-model demo`): the packaged action starts a simulated vLLM (`start: wait-for-model
 * simulate …`), follows its log through its phases and waits for `model: kimi`; its job-end step stops it. Then a
 * start-up that dies of CUDA out of memory (`--crash-after`): the action stops on the fatal line, and its summary
 * leads with it.
 */
import { dirname, join } from 'node:path'
import { runAction, type ActionRun } from '../../simulator/runner.js'
import { freePort } from '../../simulator/server.js'

const LOAD = '12s'
const MODEL = '/shared/kimi-k2.5-int4'

/** Runs the action bundle `actionEntry` (its cli.js and post.js beside it) against simulated engines, printing to `out`. */
export async function demo(actionEntry: string, out: NodeJS.WritableStream): Promise<number> {
  const say = (text: string): boolean => out.write(`${text}\n`)
  const dir = dirname(actionEntry)
  const simulate = (port: number, extra: string): string =>
    `${JSON.stringify(process.execPath)} ${JSON.stringify(join(dir, 'cli.js'))} simulate --engine vllm ` +
    `--model ${MODEL} --port ${port} ${extra}`.trimEnd()

  // the action's run, as the runner would start it, against the simulated engine on `port` that `start` launches
  const wait = (port: number, start: string): Promise<ActionRun> =>
    runAction({
      entry: actionEntry,
      inputs: { url: `http://127.0.0.1:${port}/v1/models`, model: 'kimi', start, interval: '1s', timeout: '60s' },
      echo: out
    })

  const port = await freePort()
  const start = simulate(port, `--load ${LOAD}`)
  say(
    `1. A simulated vLLM that takes ${LOAD} to start, printing its own log. Running dist/index.js as the runner would:`
  )
  say(`   start: ${start.replace(/"[^"]*\/(node|cli\.js)"/g, '$1')}`)
  say(`   url: http://127.0.0.1:${port}/v1/models, model: kimi, interval: 1s, timeout: 60s\n`)
  const ready = await wait(port, start)
  say('\nOutputs:')
  for (const [name, value] of Object.entries(ready.outputs)) say(`  ${name} = ${value}`)
  say('\nJob summary:\n')
  say(ready.summary)
  await jobEnd(dir, ready, out)

  const crashPort = await freePort()
  const crash = simulate(crashPort, '--load 60s --crash-after 4s')
  say('\n2. The same engine, dying of CUDA out of memory 4s into its start-up (--crash-after 4s):\n')
  const failed = await wait(crashPort, crash)
  say('\nJob summary:\n')
  say(failed.summary)
  await jobEnd(dir, failed, out)
  // the demo went as it should: the first wait ready, the second stopped by the fatal line
  return ready.code === 0 && failed.code === 1 ? 0 : 1
}

/** The job-end step (post.js) with the state the step saved, as the runner passes it: it stops the server. */
async function jobEnd(dir: string, run: ActionRun, out: NodeJS.WritableStream): Promise<void> {
  if (Object.keys(run.state).length === 0) return
  out.write('\nThe job-end step (dist/post.js):\n')
  const env = Object.fromEntries(Object.entries(run.state).map(([name, value]) => [`STATE_${name}`, value]))
  await runAction({ entry: join(dir, 'post.js'), inputs: {}, env, echo: out })
}
