import {
  credentialParts,
  holdsCredential,
  isCredentialName,
  proxySecrets,
  redact
} from '../../../src/inputs/secrets.js'
import { INPUT_DEFAULTS, type InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { envReport } from '../../../src/server/env-report.js'

const settings = (inputs: Partial<Record<InputName, string>>) =>
  parseSettings((name) => inputs[name] ?? INPUT_DEFAULTS[name])

describe('one credential-name rule', () => {
  it.each([
    'Authorization',
    'Proxy-Authorization',
    'Cookie',
    'X-Api-Key',
    'X-Auth-Token',
    'MODEL_AUTH',
    'DB_PASSWD',
    'api_key',
    'sig'
  ])('%s is a credential name', (name) => expect(isCredentialName(name)).toBe(true))
  it.each(['Accept', 'X-Request-Id', 'NCCL_DEBUG', 'CUDA_VISIBLE_DEVICES', 'model', 'design'])('%s is not', (name) =>
    expect(isCredentialName(name)).toBe(false)
  )
  it('is the one headers, env-report and URL query parameters use', () => {
    const s = settings({
      url: 'http://127.0.0.1:8000/v1/models?x-auth-token=qtok-1234&page=2',
      headers: 'X-Auth-Token: htok-1234\nX-Trace: trace-1234'
    })
    expect(s.secrets).toEqual(expect.arrayContaining(['htok-1234', 'qtok-1234']))
    expect(s.secrets).not.toContain('trace-1234')
    expect(envReport(['X_AUTH_TOKEN', 'TRACE'], { X_AUTH_TOKEN: 'e', TRACE: 't' })).toEqual([
      { name: 'X_AUTH_TOKEN', value: '***', secret: true },
      { name: 'TRACE', value: 't' }
    ])
  })
})

describe('credential parts', () => {
  it('are the token after an auth scheme and each cookie value', () => {
    expect(credentialParts('Authorization', 'Bearer tok_1234')).toEqual(['tok_1234'])
    expect(credentialParts('Proxy-Authorization', 'Basic dXNlcjpwYXNz')).toEqual(['dXNlcjpwYXNz'])
    expect(credentialParts('Cookie', 'lang=en; session=abc123; flag')).toEqual(['en', 'abc123', 'flag'])
    expect(credentialParts('X-Api-Key', 'two words')).toEqual([])
  })
  it('are registered as secrets, short cookie values apart', () => {
    const s = settings({
      url: 'http://127.0.0.1:8000/v1/models',
      headers: 'Authorization: Bearer tok_1234\nCookie: lang=en; session=abc123'
    })
    expect(s.secrets).toEqual(
      expect.arrayContaining(['Bearer tok_1234', 'tok_1234', 'lang=en; session=abc123', 'abc123'])
    )
    expect(s.secrets).not.toContain('en')
  })
  it.each([
    ['api-key', 'abc'],
    ['headers', 'Authorization: Bearer ab'],
    ['headers', 'X-Api-Key: k1'],
    ['url', 'http://127.0.0.1:8000/v1/models?token=abc']
  ] as const)('%s=%s: a credential of fewer than 4 characters is refused', (name, value) => {
    expect(() => settings({ url: 'http://127.0.0.1:8000/v1/models', [name]: value })).toThrow(
      new RegExp(`^Input "${name}": .*fewer than 4 characters`)
    )
  })
})

describe('redact', () => {
  it('masks a secret as written and as JSON escapes it once and twice', () => {
    const key = 'k"ey\\x-77'
    const once = JSON.stringify(key).slice(1, -1)
    const twice = JSON.stringify(once).slice(1, -1)
    expect(redact(`a ${key} b ${once} c ${twice}`, [key])).toBe('a *** b *** c ***')
  })
  it('masks the whole credential before its parts', () => {
    expect(redact('Authorization: Bearer tok_1234; tok_1234', ['tok_1234', 'Bearer tok_1234'])).toBe(
      'Authorization: ***; ***'
    )
  })
  it('leaves text alone without secrets, and never masks an empty one', () => {
    expect(redact('plain', [])).toBe('plain')
    expect(redact('plain', [''])).toBe('plain')
  })
})

describe('env-report', () => {
  it('masks any value holding a known secret, whatever the name', () => {
    expect(envReport(['MODEL_*'], { MODEL_CFG: 'x sk-1234 y', MODEL_NAME: 'kimi' }, ['sk-1234'])).toEqual([
      { name: 'MODEL_CFG', value: '***', secret: true },
      { name: 'MODEL_NAME', value: 'kimi' }
    ])
  })
})

describe('proxy credentials', () => {
  it('finds the user and password of each proxy variable, as written, alone and decoded', () => {
    expect(proxySecrets({ HTTPS_PROXY: 'http://alice:pa%40ss-word@proxy.corp:3128/' }).sort()).toEqual(
      ['alice:pa%40ss-word', 'pa%40ss-word', 'pa@ss-word'].sort()
    )
    // no scheme (curl reads host:port as http://), a bare @ in the password, a token as the user
    expect(proxySecrets({ http_proxy: 'bob:p@ssw0rd@10.0.0.1:8080' }).sort()).toEqual(['bob:p@ssw0rd', 'p@ssw0rd'])
    expect(proxySecrets({ ALL_PROXY: 'socks5://tok-123456@proxy:1080' })).toEqual(['tok-123456'])
  })

  it('masks a short password only with its user, and finds nothing in a proxy without credentials', () => {
    expect(proxySecrets({ HTTP_PROXY: 'http://carol:abc@proxy:3128' })).toEqual(['carol:abc'])
    expect(proxySecrets({ HTTP_PROXY: 'http://proxy:3128', NO_PROXY: 'user:pass@x' })).toEqual([])
    expect(proxySecrets({ HTTP_PROXY: 'http://u:%E0%A4%A@proxy' })).toEqual(['u:%E0%A4%A', '%E0%A4%A'])
  })

  it('are secrets of the settings: masked in every line, in env-report and in the history', () => {
    const env = { HTTPS_PROXY: 'http://alice:hunter2-proxy@127.0.0.1:3128' }
    const s = parseSettings((name) => (name === 'url' ? 'http://h/v1/models' : ''), undefined, env)
    expect(s.secrets).toContain('hunter2-proxy')
    expect(redact(`via ${env.HTTPS_PROXY}`, s.secrets)).toBe('via http://***@127.0.0.1:3128')
    expect(envReport(['HTTPS_PROXY'], env, s.secrets)).toEqual([{ name: 'HTTPS_PROXY', value: '***', secret: true }])
  })
})

describe('credentials by name and by value (issue 26)', () => {
  it.each([
    'MYSQL_PWD',
    'PGPASS',
    'CI_JOB_JWT',
    'SENTRY_DSN',
    'GH_PAT',
    'NETRC',
    'AWS_CREDENTIALS',
    'SSH_PRIVATE',
    'PASS'
  ])('%s is a credential name', (name) => expect(isCredentialName(name)).toBe(true))
  it.each(['PATH', 'PWD', 'OLDPWD', 'PATCH_LEVEL', 'COMPASS_DIR', 'DATABASE_URL'])('%s is not', (name) =>
    expect(isCredentialName(name)).toBe(false)
  )
  it.each([
    ['a URL with a password', 'postgres://app:s3cr3t-pw@db/x'],
    ['a URL with a user alone (a token)', 'https://abcdef0123456789@o1.ingest.sentry.io/5'],
    ['a password field', 'host=db user=app password=s3cr3t-pw'],
    ['.netrc text', 'machine api.example.com login app password s3cr3t-pw'],
    ['a PEM block', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----'],
    ['a GitHub token', `ghp_${'a1'.repeat(18)}`],
    ['a fine-grained GitHub token', `github_pat_${'B2'.repeat(20)}`],
    ['a Hugging Face token', `hf_${'c3'.repeat(17)}`],
    ['an OpenAI-style key', 'sk-proj-0123456789abcdef'],
    ['a Slack token', 'xoxb-1234567890-abcdefgh'],
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl']
  ])('%s is a credential by its value, and masked in text', (_what, value) => {
    expect(holdsCredential(value)).toBe(true)
    expect(envReport(['HARMLESS'], { HARMLESS: value })).toEqual([{ name: 'HARMLESS', value: '***', secret: true }])
    const secretPart = value.includes('s3cr3t-pw') ? 's3cr3t-pw' : value.includes('BEGIN') ? 'BEGIN OPENSSH' : value
    expect(redact(`config: ${value}`, [])).not.toContain(secretPart.split('\n')[0].slice(0, 24))
  })
  it.each(['/usr/bin:/bin', 'http://proxy:3128', '0,1', 'meta-llama/Llama-3.1-8B', 'password-less mode'])(
    '%s is no credential',
    (value) => {
      expect(holdsCredential(value)).toBe(false)
      expect(redact(value, [])).toBe(value)
    }
  )
  it('scans a hostile text in linear time (a 2 MB run of scheme letters, of "login ", of "a://")', () => {
    for (const text of ['a'.repeat(2e6), 'login '.repeat(3e5), 'a://'.repeat(5e5)]) {
      expect(holdsCredential(text)).toBe(false)
      expect(redact(text, [])).toBe(text)
    }
  })
})
