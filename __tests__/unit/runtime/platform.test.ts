import type { InputName } from '../../../src/inputs/input-names.js'
import { InputError } from '../../../src/inputs/input-error.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { currentPlatform, type Platform } from '../../../src/runtime/platform.js'

/** Inputs whose features this machine cannot serve fail when read, naming the input; fake facades stand in for macOS and Windows. */
const linux: Platform = { os: 'linux', hasProc: true }
const macos: Platform = { os: 'darwin', hasProc: false }
const windows: Platform = { os: 'win32', hasProc: false }
const url = 'http://localhost:8000/v1/models'

const settingsOn = (platform: Platform, inputs: Partial<Record<InputName, string>>) =>
  parseSettings((name) => inputs[name] ?? '', platform)

/** The InputError a platform gives for these inputs: its input and message. */
function refusal(platform: Platform, inputs: Partial<Record<InputName, string>>): { input: string; message: string } {
  try {
    settingsOn(platform, inputs)
  } catch (e) {
    if (e instanceof InputError) return { input: e.input, message: e.message }
    throw e
  }
  throw new Error('no InputError')
}

it('sees this machine as it is: Linux with /proc', () => {
  expect(currentPlatform()).toEqual({ os: 'linux', hasProc: true })
})

it('Linux takes every server input', () => {
  expect(settingsOn(linux, { url, pid: '1234', 'env-report': 'NCCL_*' }).envReport).toEqual(['NCCL_*'])
  expect(settingsOn(linux, { url, start: 'vllm serve m', 'env-report': 'NCCL_*' }).servers[0].start).toBe(
    'vllm serve m'
  )
})

describe('macOS (no /proc)', () => {
  it('refuses env-report with pid, naming the input, /proc and what to do instead', () => {
    const { input, message } = refusal(macos, { url, pid: '1234', 'env-report': 'NCCL_*' })
    expect(input).toBe('env-report')
    expect(message).toBe(
      'Input "env-report": with "pid", reads the server\'s environment from /proc, which this machine (macOS) does not ' +
        'have: remove "env-report", or launch the server with "start" (then its environment is the one given to it)'
    )
  })

  it('takes pid alone (its exit is still watched), start, diagnostics, and env-report with start', () => {
    expect(settingsOn(macos, { url, pid: '1234', diagnostics: 'uptime' })).toMatchObject({
      servers: [{ pid: { pid: 1234 } }],
      diagnostics: ['uptime']
    })
    expect(settingsOn(macos, { url, start: 'ollama serve', 'env-report': 'OLLAMA_*' })).toMatchObject({
      servers: [{ start: 'ollama serve' }],
      envReport: ['OLLAMA_*']
    })
  })
})

describe('Windows (no /proc, no /bin/sh)', () => {
  it('refuses start, naming it and pointing to pid', () => {
    const { input, message } = refusal(windows, { url, start: 'llama-server -m model.gguf' })
    expect(input).toBe('start')
    expect(message).toMatch(
      /needs a POSIX shell \(\/bin\/sh\), which this machine \(Windows\) does not have: .* "pid"$/
    )
  })

  it('refuses diagnostics, which run under /bin/sh too, pointing to a later step', () => {
    const { input, message } = refusal(windows, { url, pid: '1234', diagnostics: 'nvidia-smi' })
    expect(input).toBe('diagnostics')
    expect(message).toMatch(/needs a POSIX shell \(\/bin\/sh\), .*: run them in a later step with "if: failure\(\)"$/)
  })

  it('refuses env-report with pid, without suggesting start', () => {
    const { input, message } = refusal(windows, { url, pid: '1234', 'env-report': 'CUDA_VISIBLE_DEVICES' })
    expect(input).toBe('env-report')
    expect(message).toMatch(/\(Windows\) does not have: remove "env-report"$/)
  })

  it('takes pid and the rest of the inputs', () => {
    expect(
      settingsOn(windows, { url, pid: '1234', 'log-file': 'C:\\server.log', 'fail-pattern': 'CUDA error' }).servers[0]
        .pid
    ).toEqual({
      pid: 1234
    })
  })
})
