import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { sandbox } from '../../helpers/sandbox.js'

/**
 * The shell steps of .github/workflows/release.yml, run as the runner runs them (bash -eo pipefail) in a real git
 * repository with a real `origin`; only GitHub's own `gh` is a fake on PATH, which records what it was asked. The
 * repository holds this checkout's package.json and CHANGELOG.md as step 1 of docs/releases.md leaves them for the
 * next release: the version without its `-dev`, the `## [Unreleased]` entries moved under `## [X.Y.Z] - date`.
 */
const root = new URL('../../..', import.meta.url)
interface Step {
  name?: string
  run?: string
}
const release = parse(readFileSync(new URL('.github/workflows/release.yml', root), 'utf8')) as {
  jobs: {
    release: { steps: Step[] }
    npm: { needs: string; if?: string; permissions: Record<string, string>; steps: Step[] }
  }
}
const script = (name: string): string => {
  const step = release.jobs.release.steps.find((s) => s.name === name)
  if (step?.run === undefined) throw new Error(`release.yml has no step "${name}" with a script`)
  return step.run
}

/** Per test: the repository, its origin, the fake gh and what it recorded. */
const box = sandbox('wait-for-model-release-')
let dir: string
let work: string
const git = (...args: string[]): string =>
  execFileSync('git', args, { cwd: work, encoding: 'utf8', env: gitEnv }).trim()
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Release Test',
  GIT_AUTHOR_EMAIL: 'release@test.invalid',
  GIT_COMMITTER_NAME: 'Release Test',
  GIT_COMMITTER_EMAIL: 'release@test.invalid',
  GIT_CONFIG_GLOBAL: '/dev/null'
}

function step(name: string, env: Record<string, string>): { code: number | null; output: string } {
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script(name)], {
    cwd: work,
    env: { ...gitEnv, PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, ...env },
    encoding: 'utf8'
  })
  return { code: r.status, output: r.stdout + r.stderr }
}

beforeEach(() => {
  dir = box.dir()
  work = join(dir, 'work')
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', join(dir, 'origin.git')], { env: gitEnv })
  mkdirSync(work)
  git('init', '-q', '-b', 'main')
  git('remote', 'add', 'origin', join(dir, 'origin.git'))
  const pkg = JSON.parse(text('package.json')) as { version: string }
  writeFileSync(join(work, 'package.json'), `${JSON.stringify({ ...pkg, version }, null, 2)}\n`)
  writeFileSync(join(work, 'CHANGELOG.md'), releaseChangelog(text('CHANGELOG.md'), version))
  git('add', '.')
  git('commit', '-qm', 'Release')
  git('push', '-q', 'origin', 'main')
  // a fake gh: records its arguments and the notes file it was given
  mkdirSync(join(dir, 'bin'))
  writeFileSync(join(dir, 'bin', 'gh'), `#!/bin/sh\necho "$@" > "${dir}/gh-args"\ncp notes.md "${dir}/gh-notes"\n`)
  chmodSync(join(dir, 'bin', 'gh'), 0o755)
})

const text = (file: string): string => readFileSync(new URL(file, root), 'utf8')
/** The version the next release will have: package.json's, without a pre-release part (`1.0.0-dev`). */
const version = (JSON.parse(text('package.json')) as { version: string }).version.replace(/-.*$/, '')
/** Step 1 of docs/releases.md: the entries under [Unreleased] moved to a dated section of `v`, above the last one. */
function releaseChangelog(changelog: string, v: string): string {
  expect(changelog).toContain('\n## [Unreleased]\n')
  return changelog.replace('\n## [Unreleased]\n', `\n## [Unreleased]\n\n## [${v}] - 2026-12-02\n`)
}

describe('The tag, package.json and CHANGELOG.md agree', () => {
  const check = 'The tag, package.json and CHANGELOG.md agree'

  it(`passes v${version} on main`, () => {
    expect(step(check, { TAG: `v${version}`, GITHUB_SHA: git('rev-parse', 'HEAD') })).toEqual({ code: 0, output: '' })
  })

  it('refuses a tag whose version package.json does not have', () => {
    const r = step(check, { TAG: 'v99.0.0', GITHUB_SHA: git('rev-parse', 'HEAD') })
    expect(r).toEqual({ code: 1, output: `::error::package.json says ${version}, the tag v99.0.0\n` })
  })

  it('refuses a version without its CHANGELOG section, or with one not dated', () => {
    for (const changelog of ['# Changelog\n\n## [Unreleased]\n', `# Changelog\n\n## [${version}] - unreleased\n`]) {
      writeFileSync(join(work, 'CHANGELOG.md'), changelog)
      const r = step(check, { TAG: `v${version}`, GITHUB_SHA: git('rev-parse', 'HEAD') })
      expect(r).toEqual({ code: 1, output: `::error::CHANGELOG.md has no '## [${version}] - YYYY-MM-DD' section\n` })
    }
  })

  it('refuses this checkout as it is, before step 1 of the release: nothing is released by mistake', () => {
    for (const file of ['package.json', 'CHANGELOG.md']) copyFileSync(new URL(file, root), join(work, file))
    const r = step(check, { TAG: `v${version}`, GITHUB_SHA: git('rev-parse', 'HEAD') })
    expect(r.code).toBe(1)
    expect(r.output).toMatch(/^::error::(package\.json says .*-dev, the tag|CHANGELOG\.md has no)/)
  })

  it('refuses a commit that is not on main', () => {
    git('checkout', '-qb', 'elsewhere')
    git('commit', '-q', '--allow-empty', '-m', 'not on main')
    const r = step(check, { TAG: `v${version}`, GITHUB_SHA: git('rev-parse', 'HEAD') })
    expect(r).toEqual({ code: 1, output: `::error::v${version} is not on main\n` })
  })
})

it("creates the release from the version's CHANGELOG section, without other sections or links", () => {
  expect(step('Create the GitHub release', { TAG: `v${version}`, GH_TOKEN: 'unused' }).code).toBe(0)
  expect(readFileSync(join(dir, 'gh-args'), 'utf8')).toBe(
    `release create v${version} --verify-tag --title v${version} --notes-file notes.md\n`
  )
  const notes = readFileSync(join(dir, 'gh-notes'), 'utf8')
  const changelog = releaseChangelog(text('CHANGELOG.md'), version)
  const section = changelog.split(`## [${version}]`)[1].split(/^## \[|^\[[^\]]+\]: /m)[0]
  expect(notes).toBe(section.slice(section.indexOf('\n') + 1))
  expect(notes).toMatch(/^\n?### /)
  expect(notes).not.toMatch(/^## |^\[[^\]]+\]: /m)
})

it('moves the major tag on origin to each new release', () => {
  const major = `v${version.split('.')[0]}`
  const first = git('rev-parse', 'HEAD')
  expect(step('Move the major tag to this release', { TAG: `v${version}`, GITHUB_SHA: first }).code).toBe(0)
  expect(git('ls-remote', 'origin', `refs/tags/${major}`)).toBe(`${first}\trefs/tags/${major}`)
  git('commit', '-q', '--allow-empty', '-m', 'next')
  git('push', '-q', 'origin', 'main')
  const next = git('rev-parse', 'HEAD')
  const patch = `v${version.replace(/\d+$/, (p) => String(Number(p) + 1))}`
  expect(step('Move the major tag to this release', { TAG: patch, GITHUB_SHA: next }).code).toBe(0)
  expect(git('ls-remote', 'origin', `refs/tags/${major}`)).toBe(`${next}\trefs/tags/${major}`)
})

it('publishes the npm package on every release, after the GitHub release, with provenance and no install scripts', () => {
  const { npm } = release.jobs
  // no `if:` — a release that could not publish fails, so `npx wait-for-model` follows `@vX` from the first tag
  expect(npm.if).toBeUndefined()
  expect(npm.needs).toBe('release')
  expect(npm.permissions).toEqual({ contents: 'read', 'id-token': 'write' })
  expect(npm.steps.map((s) => s.run).filter(Boolean)).toEqual(['npm publish --ignore-scripts'])
  const pkg = JSON.parse(text('package.json')) as { publishConfig: Record<string, unknown> }
  expect(pkg.publishConfig).toEqual({ access: 'public', provenance: true })
})
