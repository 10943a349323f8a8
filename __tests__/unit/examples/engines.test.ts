import { readFileSync } from 'node:fs'
import semver from 'semver'

/**
 * `npm ci` warns EBADENGINE for every installed package whose `engines.node` excludes the running Node. The CLI
 * needs Node 22.13 (package.json), GitHub runs the action on Node 24: on each Node from 22.13 on, every package of
 * the lock file must accept it, so that a new contributor's first command prints no such warning. Node 23 is
 * left out: an odd release, at its end of life, which jest and eslint exclude upstream (`^22 || >=24`).
 */
const root = new URL('../../..', import.meta.url).pathname
const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>
}
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { engines: { node: string } }

const NODES = ['22.13.0', '22.99.0', '24.0.0', '24.99.0', '25.0.0', '26.0.0']

describe('the Node versions the project supports', () => {
  it('start at the CLI’s 22.13, as package.json says', () => {
    expect(semver.minVersion(pkg.engines.node)?.version).toBe('22.13.0')
  })

  it.each(NODES)('Node %s: no package in the lock file excludes it (no EBADENGINE from npm ci)', (node) => {
    const excluding = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .map(([name, p]) => [name, Array.isArray(p.engines) ? undefined : p.engines?.node] as const)
      .filter(([, range]) => range !== undefined && !semver.satisfies(node, range))
      .map(([name, range]) => `${name} (${range})`)
    expect(excluding).toEqual([])
  })
})
