/**
 * `npm run demo`: a simulated OpenAI-compatible server refuses connections, then answers 503 "Loading model",
 * then lists /shared/kimi-k2.5-int4; the packaged action waits for `model: kimi` and prints its outputs.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runAction } from './action-runner.js'
import { simulate } from './simulator.js'

const loadMs = 12_000
const server = await simulate({ engine: 'openai', model: '/shared/kimi-k2.5-int4', loadMs })
const url = `${server.baseUrl}/v1/models`
console.log(`Simulated server on ${url}: refuses connections for ${(loadMs * 0.4) / 1000}s, answers 503 until ${loadMs / 1000}s, then lists the model.\n`)
console.log('Running dist/index.js as the runner would, with inputs: url, model: kimi, interval: 1s, timeout: 60s\n')
try {
  const run = await runAction({
    // dist/demo/index.js runs the action bundle beside it, dist/index.js
    entry: join(dirname(fileURLToPath(import.meta.url)), '..', 'index.js'),
    inputs: { url, model: 'kimi', interval: '1s', timeout: '60s', 'progress-interval': '3s' },
    echo: process.stdout
  })
  console.log('\nOutputs:')
  for (const [name, value] of Object.entries(run.outputs)) console.log(`  ${name} = ${value}`)
  console.log('\nJob summary:\n')
  console.log(run.summary)
  process.exitCode = run.code ?? 1
} finally {
  await server.close()
}
