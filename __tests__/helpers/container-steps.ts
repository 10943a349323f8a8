/**
 * The main and post steps of the container suites (containers.e2e, containers-more.e2e, podman.e2e), run as a
 * runner runs them against the suite's own engine: `host()` is its DOCKER_HOST, read when a step runs (the engine
 * starts in the suite's beforeAll).
 */
import { runAction } from '../../src/simulator/runner.js'
import { entry } from './support.js'

const post = new URL('../../dist/post.js', import.meta.url).pathname

/** The simulated vLLM inside the test image (dist/ is /app there). */
export const simulate = (port: number, more = ''): string =>
  `/bin/node /app/cli.js simulate --engine vllm --model kimi --port ${port} ${more}`

export function containerSteps(host: () => string) {
  /** The main step; `echo` sees its stdout as it runs. */
  const mainStep = (
    port: number,
    inputs: Record<string, string>,
    env: Record<string, string> = {},
    echo?: NodeJS.WritableStream
  ) =>
    runAction({
      entry,
      inputs: {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: 'kimi',
        interval: '200ms',
        timeout: '60s',
        'history-file': '',
        ...inputs
      },
      env: { DOCKER_HOST: host(), PATH: `${process.env.PATH}`, ...env },
      echo
    })

  /** The post step with the main step's state, and how long it took (the whole process). */
  const postStep = async (
    state: Record<string, string>,
    more: Record<string, string> = {},
    onStart?: Parameters<typeof runAction>[0]['onStart']
  ) => {
    const env: Record<string, string> = { DOCKER_HOST: host(), ...more }
    for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value
    const started = performance.now()
    const run = await runAction({ entry: post, inputs: {}, env, onStart })
    return { ...run, ms: performance.now() - started }
  }
  return { mainStep, postStep }
}
