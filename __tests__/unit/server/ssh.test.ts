import { connectFailure, sshWords } from '../../../src/server/ssh.js'

describe('the ssh command (WAIT_FOR_MODEL_SSH_COMMAND)', () => {
  it('is ssh when none is given, else split as a shell would, quotes kept whole', () => {
    expect(sshWords(undefined)).toEqual(['ssh'])
    expect(sshWords('  ')).toEqual(['ssh'])
    expect(sshWords(`ssh -F ./ssh_config -i './my key' -o "ProxyJump=a b"`)).toEqual([
      'ssh',
      '-F',
      './ssh_config',
      '-i',
      './my key',
      '-o',
      'ProxyJump=a b'
    ])
  })
})

describe('a connection that fails: one line naming the host and why', () => {
  const host = 'root@10.1.230.174'
  it('a changed host key', () => {
    const stderr =
      '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n' +
      '@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n' +
      'Host key for 10.1.230.174 has changed and you have requested strict checking.\nHost key verification failed.\n'
    expect(connectFailure(host, stderr)).toMatch(/^the host key of root@10\.1\.230\.174 has changed since/)
  })
  it('an unknown host key', () => {
    expect(
      connectFailure(
        host,
        'No ED25519 host key is known for 10.1.230.174 and you have requested strict checking.\nHost key verification failed.\n'
      )
    ).toMatch(/^the host key of root@10\.1\.230\.174 is not in known_hosts/)
  })
  it("an unreachable host, with ssh's own words", () => {
    expect(connectFailure(host, 'ssh: connect to host 10.1.230.174 port 22: Connection timed out\n')).toBe(
      'cannot reach root@10.1.230.174 over ssh (ssh: connect to host 10.1.230.174 port 22: Connection timed out)'
    )
    expect(connectFailure(host, 'root@10.1.230.174: Permission denied (publickey).\n')).toBe(
      'cannot reach root@10.1.230.174 over ssh (root@10.1.230.174: Permission denied (publickey).)'
    )
  })
})
