import { readFileSync } from 'node:fs'
import { INPUT_DEFAULTS, type InputName } from '../../../src/inputs/input-names.js'
import { InputError } from '../../../src/inputs/input-error.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { endpointsOf } from '../../../src/inputs/settings.js'

const settingsFrom = (inputs: Partial<Record<InputName, string>>) => parseSettings((name) => inputs[name] ?? '')

describe('parseSettings', () => {
  it('applies the documented defaults, and the fixed values no input sets', () => {
    const s = settingsFrom({ url: 'http://localhost:8000/v1/models' })
    expect(s).toMatchObject({
      intervalMs: 5_000,
      timeoutMs: 900_000,
      requestTimeoutMs: 10_000,
      progressIntervalMs: 30_000,
      wrongModelAfterMs: 30_000,
      stopTimeoutMs: 30_000,
      headers: {},
      secrets: [],
      model: undefined,
      match: undefined
    })
    expect(s.matchRegex).toBeUndefined()
    expect(s.status).toEqual([[200, 299]])
    expect(endpointsOf(s).map((t) => t.url.href)).toEqual(['http://localhost:8000/v1/models'])
  })

  it('reads match as literal text, or in slashes as a regular expression with its flags', () => {
    const literal = settingsFrom({ url: 'http://h/', match: ' "ready" ' })
    expect([literal.match, literal.matchRegex]).toEqual(['"ready"', undefined])
    expect(settingsFrom({ url: 'http://h/', match: '/health/ok' })).toMatchObject({ match: '/health/ok' })
    const s = settingsFrom({ url: 'http://h/', match: '/"status":\\s*"(ok|ready)"/i' })
    expect(s.match).toBeUndefined()
    expect(s.matchRegex?.test('{"STATUS": "Ready"}')).toBe(true)
  })

  it('sends api-key as a bearer token and marks it secret, with credential headers', () => {
    const s = settingsFrom({ url: 'https://h/v1/models', 'api-key': 'sk-123', headers: 'X-Api-Key: k-456\nX-Trace: 1' })
    expect(s.headers).toEqual({ authorization: 'Bearer sk-123', 'x-api-key': 'k-456', 'x-trace': '1' })
    expect(s.secrets.sort()).toEqual(['k-456', 'sk-123'])
  })

  const bad: Array<[InputName, string, RegExp]> = [
    ['url', '', /required/],
    ['url', 'localhost:8000', /http:\/\/ or https:\/\//],
    ['url', 'ftp://host/models', /http:\/\/ or https:\/\//],
    ['url', 'http://user:pw@host/', /credentials/],
    ['interval', 'fast', /250ms/],
    ['interval', '10ms', /too short/],
    ['timeout', '-1', /250ms/],
    ['timeout', '0', /too short/],
    ['match', '/(unclosed/', /regular expression/],
    ['headers', 'Authorization Bearer x', /Name: value/],
    ['headers', 'X-A: ok\r\nX-B: b\rInjected: 1', /control character/],
    ['api-key', 'Bearer sk-1', /white space/],
    ['api-key', 'sk\r\nX-Evil: 1', /white space|control/],
    ['api-key', 'sk-ключ', /outside Latin-1/],
    ['headers', 'X-Team: Zürich → 東京', /line 1 \(X-Team\) has a character outside Latin-1/],
    ['timeout', '1m1m1m', /each unit once, largest first/],
    ['model', 'kimi\u0007', /control character/],
    ['match', 'x'.repeat(70_000), /limit is/],
    ['pid', '0', /process id \(12345\) or the path of a file/],
    ['container', 'srv/../../containers/x', /is not a container's name or id/],
    ['container', '-v', /is not a container's name or id/],
    ['container', 'srv?all=1', /is not a container's name or id/],
    ['host', '-oProxyCommand=sh', /is not an ssh destination/],
    ['host', 'root@h; id', /is not an ssh destination/],
    ['host', 'root@10.1.230.174', /needs the server on that host: set "start" or "pid"/],
    ['fail-pattern', 'CUDA out of memory', /needs a log to watch: set "log-file", or "start"/],
    ['ranks', '0', /"0" is not a whole number of ranks from 1 to 65536, such as 16/],
    ['ranks', '8 GPUs', /is not a whole number of ranks/],
    ['ranks', '1e3', /is not a whole number of ranks/],
    ['ranks', '65537', /is not a whole number of ranks/],
    [
      'ranks',
      '16',
      /needs the server's log to count them in: set "start" \(which writes one\), "log-file" or "container"/
    ],
    ['env-report', 'NCCL_*', /needs the server process: set "start", "pid" or "container"/],
    ['probe-generation', 'maybe', /true or false/],
    ['probe-generation', 'true', /needs "model": the request to \/v1\/completions names the model/],
    ['start', 'vllm serve x\u0007', /control character/],
    ['engine', 'vllm2', /"vllm2" is not auto or one of vllm, sglang, tgi, ollama, llama.cpp, triton/],
    ['history-file', '/tmp/h\u0007', /control character/],
    ['history-key', 'k'.repeat(201), /at most 200/],
    ['regression-threshold', 'a lot', /percentage such as 25% or 25/],
    ['regression-threshold', '-5%', /percentage/],
    ['fail-on-regression', 'maybe', /true or false/],
    ['smoke-test', 'maybe', /"maybe" is not one of false, true, fail-on-error/]
  ]
  it.each(bad)('rejects %s=%p naming the input', (name, value, message) => {
    const inputs = { url: 'http://localhost:8000/v1/models', [name]: value }
    let error: unknown
    try {
      settingsFrom(inputs)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InputError)
    expect((error as InputError).input).toBe(name)
    expect((error as Error).message).toMatch(new RegExp(`^Input "${name}": `))
    expect((error as Error).message).toMatch(message)
  })

  it('reads ranks: none by default, a count with the server whose log it is counted in', () => {
    const url = 'http://localhost:8000/v1/models'
    expect(settingsFrom({ url, start: 'x' }).ranks).toBeUndefined()
    expect(settingsFrom({ url, start: 'x', ranks: ' 16 ' }).ranks).toBe(16)
    expect(settingsFrom({ url, 'log-file': '/tmp/none-yet.log', ranks: '65536' }).ranks).toBe(65_536)
  })

  it('reads the smoke test: off by default, true, or fail-on-error, of fixed sizes', () => {
    const url = 'http://localhost:8000/v1/models'
    expect(settingsFrom({ url })).toMatchObject({ smoke: undefined, regressionThresholdPercent: 25 })
    expect(settingsFrom({ url, 'smoke-test': 'true' }).smoke).toEqual({
      failOnError: false,
      requests: 3,
      tokens: 64,
      timeoutMs: 120_000
    })
    // one regression-threshold, for the startup and the decode rate (wait/run-history.ts)
    expect(settingsFrom({ url, 'smoke-test': ' Fail-On-Error ', 'regression-threshold': '10%' })).toMatchObject({
      smoke: { failOnError: true, requests: 3, tokens: 64, timeoutMs: 120_000 },
      regressionThresholdPercent: 10
    })
    expect(settingsFrom({ url, 'smoke-test': 'off' }).smoke).toBeUndefined()
  })

  it('reads the server inputs: start, a pid or a pid file, the log, its pattern and the reports', () => {
    const started = settingsFrom({
      url: 'http://localhost:30000/v1/models',
      model: 'kimi',
      start: 'python -m sglang.launch_server \\\n  --port 30000',
      'fail-pattern': 'CUDA out of memory|NCCL error',
      'probe-generation': 'true',
      'env-report': 'NCCL_*, CUDA_VISIBLE_DEVICES\nHF_TOKEN',
      diagnostics: 'nvidia-smi\n\n  dmesg | tail -20  \n'
    })
    expect(started).toMatchObject({
      servers: [{ start: 'python -m sglang.launch_server \\\n  --port 30000', pid: undefined, logFile: undefined }],
      envReport: ['NCCL_*', 'CUDA_VISIBLE_DEVICES', 'HF_TOKEN'],
      diagnostics: ['nvidia-smi', 'dmesg | tail -20']
    })
    expect(started.failPattern?.test('torch.OutOfMemoryError: CUDA out of memory.')).toBe(true)
    expect(endpointsOf(started)[0].generation).toMatchObject({
      base: 'http://localhost:30000',
      route: { name: 'openai' }
    })
    expect(settingsFrom({ url: 'http://h/', pid: ' 4242 ' }).servers[0].pid).toEqual({ pid: 4242 })
    expect(settingsFrom({ url: 'http://h/', container: ' vllm-1 ', stop: 'always' })).toMatchObject({
      servers: [{ container: 'vllm-1' }],
      stop: 'always'
    })
    // a container's environment comes from its engine, and its output is its log
    expect(
      settingsFrom({ url: 'http://h/', container: 'c', 'env-report': 'NCCL_*', 'fail-pattern': 'CUDA' })
    ).toMatchObject({ envReport: ['NCCL_*'] })
    expect(() => settingsFrom({ url: 'http://h/', container: 'c', pid: '42' })).toThrow(
      /Input "container": names the server, and so does "pid"/
    )
    expect(settingsFrom({ url: 'http://h/', pid: 'server.pid', 'log-file': '/tmp/s.log' })).toMatchObject({
      servers: [{ pid: { file: 'server.pid' }, logFile: '/tmp/s.log' }]
    })
    expect(settingsFrom({ url: 'http://h/' })).toMatchObject({
      logLines: 50,
      envReport: [],
      diagnostics: [],
      probeGeneration: false,
      failPattern: undefined
    })
  })

  it('reads a fleet: one URL per line, blank lines skipped, each line named in errors', () => {
    const s = settingsFrom({
      url: 'http://10.0.0.1:8000/v1/models\n\n  http://10.0.0.2:8000/v1/models  \n',
      'probe-generation': 'true',
      model: 'kimi'
    })
    expect(endpointsOf(s).map((t) => t.url.host)).toEqual(['10.0.0.1:8000', '10.0.0.2:8000'])
    expect(endpointsOf(s).map((t) => t.generation?.base)).toEqual(['http://10.0.0.1:8000', 'http://10.0.0.2:8000'])
    expect(() => settingsFrom({ url: 'http://a/v1/models\nftp://b/' })).toThrow(
      /^Input "url": line 2: "ftp:\/\/b\/" is not an http/
    )
    expect(() =>
      settingsFrom({ url: Array.from({ length: 1001 }, (_, i) => `http://h:${i + 1}/`).join('\n') })
    ).toThrow(/limit is 1000/)
  })

  it('reads the profile and history inputs; an empty history-file is history off, as the runner passes it', () => {
    const defaults = settingsFrom({ url: 'http://h/v1/models', 'history-file': INPUT_DEFAULTS['history-file'] })
    expect(defaults).toMatchObject({
      engine: undefined,
      historyFile: 'auto',
      historyKey: undefined,
      regressionThresholdPercent: 25,
      regressionMinRuns: 3,
      failOnRegression: false
    })
    const s = settingsFrom({
      url: 'http://h/v1/models',
      engine: 'Llama.cpp',
      'history-file': ' /var/cache/h.jsonl ',
      'history-key': 'kimi-tp8',
      'regression-threshold': '12.5',
      'fail-on-regression': 'true'
    })
    expect(s).toMatchObject({
      engine: 'llamacpp',
      historyFile: '/var/cache/h.jsonl',
      historyKey: 'kimi-tp8',
      regressionThresholdPercent: 12.5,
      failOnRegression: true
    })
    expect(settingsFrom({ url: 'http://h/v1/models', engine: 'SGLang' }).engine).toBe('sglang')
    expect(settingsFrom({ url: 'http://h/v1/models', 'history-file': '' }).historyFile).toBeUndefined()
  })

  it('refuses start and pid together, naming pid', () => {
    expect(() => settingsFrom({ url: 'http://h/', start: 'vllm serve m', pid: '12' })).toThrow(
      /^Input "pid": cannot be used with "start"/
    )
  })

  it('refuses probe-generation where no generation request is known, listing the endpoints that have one', () => {
    expect(() => settingsFrom({ url: 'http://h:8000/health', 'probe-generation': 'true' })).toThrow(
      /^Input "probe-generation": no generation request is known for \/health: point "url" at the server's model list, \/v1\/models \(vLLM, SGLang.*\/api\/tags or \/api\/ps \(Ollama\), \/info \(TGI\)$/
    )
    expect(
      settingsFrom({ url: 'http://h:8080/info', 'probe-generation': 'true' }).servers[0].targets[0].generation?.route
        .name
    ).toBe('tgi')
  })

  it('reads ca-cert as PEM text and insecure-tls as a boolean', () => {
    const path = new URL('../../fixtures/self-signed.crt', import.meta.url).pathname
    const s = settingsFrom({ url: 'https://localhost:8443/v1/models', 'ca-cert': path, 'insecure-tls': 'true' })
    expect(s.caCert).toBe(readFileSync(path, 'utf8'))
    expect(s.insecureTls).toBe(true)
    expect(settingsFrom({ url: 'https://h/' })).toMatchObject({ caCert: undefined, insecureTls: false })
  })

  it.each(['http://user:pw-91@h:8000/\u0001', 'http://user:pw-91@[::1/', 'user:pw-91@host', 'ftp://u:pw-91@h/'])(
    'never shows the password of %p',
    (url) => {
      expect(() => settingsFrom({ url })).toThrow(/^Input "url": (?!.*pw-91)/s)
    }
  )

  it('never puts the api-key in an error message', () => {
    expect(() => settingsFrom({ url: 'http://h/', 'api-key': 'sk-secret value' })).toThrow(/^(?!.*sk-secret).*$/s)
    expect(() => settingsFrom({ url: 'http://h/', 'api-key': 'sk-secret-ключ' })).toThrow(/^(?!.*sk-secret).*$/s)
  })
})
