import { spawn } from 'node:child_process'
import { DIAGNOSTIC_LIMIT_S, type DiagnosticsRunner, runDiagnostics } from '../../../src/server/diagnostics.js'

/** Runs the diagnostics through real processes, recording the groups and the output as the runner would show them. */
function recorder(): DiagnosticsRunner & { shown: string[] } {
  const shown: string[] = []
  return {
    shown,
    async group(title, body) {
      shown.push(`[${title}]`)
      await body()
      shown.push('[end]')
    },
    exec: (program, args) =>
      new Promise((resolve, reject) => {
        const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] })
        child.stdout.on('data', (d: Buffer) => shown.push(...d.toString().trim().split('\n')))
        child.on('error', reject)
        child.on('close', (code) => resolve(code ?? 1))
      }),
    log: (line) => shown.push(line)
  }
}

describe('runDiagnostics', () => {
  it('runs each command in the shell, in its own group, saying how the failing ones ended', async () => {
    const r = recorder()
    await runDiagnostics(['echo one | tr a-z A-Z', 'exit 4'], r)
    expect(r.shown).toEqual([
      '[Diagnostics: echo one | tr a-z A-Z]',
      'ONE',
      '[end]',
      '[Diagnostics: exit 4]',
      '(exit code 4)',
      '[end]'
    ])
  })

  it('keeps going when a command cannot be run at all', async () => {
    const r = recorder()
    r.exec = async () => {
      throw new Error('Unable to locate executable file: timeout')
    }
    await runDiagnostics(['nvidia-smi'], r)
    expect(r.shown).toEqual([
      '[Diagnostics: nvidia-smi]',
      '(could not run: Unable to locate executable file: timeout)',
      '[end]'
    ])
  })

  it(`limits each command to ${DIAGNOSTIC_LIMIT_S}s`, async () => {
    const r = recorder()
    let seen: string[] = []
    const exec = r.exec
    r.exec = (program, args) => {
      seen = [program, ...args]
      return exec(program, args)
    }
    await runDiagnostics(['true'], r)
    expect(seen).toEqual(['timeout', '-k', '5', String(DIAGNOSTIC_LIMIT_S), '/bin/sh', '-c', 'true'])
  })
})
