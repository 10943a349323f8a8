import { serverVariable } from '../../../src/wait/endpoint-wait.js'

describe('serverVariable', () => {
  const name = 'SGLANG_ENABLE_HEALTH_ENDPOINT_GENERATION'
  it("reads the start line's own setting (prefix, docker -e, export, quoted), else the step's environment", () => {
    const env = { [name]: 'true' }
    expect(serverVariable(`${name}=0 python -m sglang.launch_server`, env, name)).toBe('0')
    expect(serverVariable(`docker run -e ${name}=false lmsysorg/sglang`, env, name)).toBe('false')
    expect(serverVariable(`export ${name}="0"; python -m sglang.launch_server`, env, name)).toBe('0')
    expect(serverVariable(`X${name}=0 python -m sglang.launch_server`, env, name)).toBe('true')
    expect(serverVariable('python -m sglang.launch_server', env, name)).toBe('true')
    // a server this step did not start: its environment is not the step's
    expect(serverVariable(undefined, env, name)).toBeUndefined()
  })
})
