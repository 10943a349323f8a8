#!/usr/bin/env node
// Runs the action's main step, then (with --post) its job-end step, the way a runner does (INPUT_* variables,
// GITHUB_OUTPUT / GITHUB_STATE / GITHUB_STEP_SUMMARY files, STATE_* for the job-end step), for scripts/gpu-check.sh:
//   node scripts/action-steps.mjs main DIR name=value ...   (a value's "\n" stands for a line break)
//   node scripts/action-steps.mjs post DIR
// main writes DIR/outputs.json (the step's outputs, exit code and seconds) and DIR/summary.md; post runs the job-end
// step with main's saved state and writes DIR/post.json (its exit code, start and end on the Unix clock, in ms).
import { spawnSync } from 'node:child_process'
import process from 'node:process'
import { URL } from 'node:url'
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

const [step, dirArg, ...inputs] = process.argv.slice(2)
if (!['main', 'post'].includes(step) || !dirArg) {
  process.stderr.write('usage: node scripts/action-steps.mjs main|post DIR [name=value ...]\n')
  process.exit(2)
}
const dir = resolve(dirArg)
mkdirSync(dir, { recursive: true })
const root = new URL('..', import.meta.url).pathname
const files = { GITHUB_OUTPUT: 'output.txt', GITHUB_STATE: 'state.txt', GITHUB_STEP_SUMMARY: 'summary.md' }
const env = { ...process.env, RUNNER_TEMP: dir, RUNNER_TOOL_CACHE: join(dir, 'tool-cache'), GITHUB_ACTIONS: 'true' }
for (const [name, file] of Object.entries(files)) {
  env[name] = join(dir, file)
  if (step === 'main') writeFileSync(env[name], '')
}
for (const pair of inputs) {
  const at = pair.indexOf('=')
  env[`INPUT_${pair.slice(0, at).toUpperCase()}`] = pair.slice(at + 1).replaceAll('\\n', '\n')
}

// The `name<<delimiter` / value / `delimiter` records @actions/core appends.
function records(file) {
  const out = {}
  if (!existsSync(file)) return out
  const lines = readFileSync(file, 'utf8').split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i])
    if (!m) continue
    const value = []
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i])
    out[m[1]] = value.join('\n')
  }
  return out
}

if (step === 'main') {
  const started = Date.now()
  const run = spawnSync(process.execPath, [join(root, 'dist/index.js')], {
    env,
    stdio: ['ignore', 'inherit', 'inherit']
  })
  const outputs = records(env.GITHUB_OUTPUT)
  const result = { exit: run.status, seconds: (Date.now() - started) / 1000, outputs }
  writeFileSync(join(dir, 'outputs.json'), JSON.stringify(result, null, 2))
  process.exit(run.status ?? 1)
}
const postEnv = { ...env }
for (const [name, value] of Object.entries(records(env.GITHUB_STATE))) postEnv[`STATE_${name}`] = value
postEnv.GITHUB_STEP_SUMMARY = join(dir, 'post-summary.md')
const startMs = Date.now()
const run = spawnSync(process.execPath, [join(root, 'dist/post.js')], {
  env: postEnv,
  stdio: ['ignore', 'inherit', 'inherit']
})
writeFileSync(join(dir, 'post.json'), JSON.stringify({ exit: run.status, startMs, endMs: Date.now() }, null, 2))
process.exit(run.status ?? 1)
