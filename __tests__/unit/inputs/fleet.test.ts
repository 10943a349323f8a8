import { symlinkSync, writeFileSync } from 'node:fs'
import { entryLines } from '../../../src/inputs/parse-settings.js'
import type { Settings } from '../../../src/inputs/settings.js'
import type { InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { sandbox } from '../../helpers/sandbox.js'

const linux = { os: 'linux', hasProc: true } as const
const settingsFrom = (inputs: Partial<Record<InputName, string>>) => parseSettings((name) => inputs[name] ?? '', linux)
const box = sandbox('wfm-fleet-inputs-')
/** Each server's own fields, without its endpoints. */
const own = (s: Settings) => s.servers.map(({ targets: _, ...server }) => server)
const hrefs = (s: Settings) => s.servers.map((server) => server.targets.map((t) => t.url.href))
const urlOf = (n: number): string => `http://127.0.0.1:${8000 + n}/v1/models`
const urls = (n: number): string => Array.from({ length: n }, (_, i) => urlOf(i + 1)).join('\n')

describe('entryLines', () => {
  it('takes non-blank lines, trimmed, and a line ending in \\, &&, || or | on to the next one, as a shell does', () => {
    expect(entryLines('  a  \n\n b\n')).toEqual(['a', 'b'])
    expect(entryLines('export X=1 &&\n  vllm serve a\nvllm serve b \\\n  --port 2')).toEqual([
      'export X=1 &&\nvllm serve a',
      'vllm serve b \\\n--port 2'
    ])
    expect(entryLines('a ||\nb\nc |\nd')).toEqual(['a ||\nb', 'c |\nd'])
  })
})

describe('a fleet of servers in the inputs', () => {
  it('one start line per url line: each endpoint its own server, in order', () => {
    const s = settingsFrom({ url: urls(3), start: 'serve 1\nserve 2\nserve 3', model: 'kimi' })
    expect(own(s)).toEqual([{ start: 'serve 1' }, { start: 'serve 2' }, { start: 'serve 3' }])
    expect(hrefs(s)).toEqual([[urlOf(1)], [urlOf(2)], [urlOf(3)]])
  })
  it('one server across nodes: a host line per node, a start line per host line, the head first', () => {
    const s = settingsFrom({ url: urls(1), host: 'root@h1\nroot@h2', start: 'serve head\nserve worker', model: 'kimi' })
    expect(own(s)).toEqual([
      { host: 'root@h1', start: 'serve head', workers: [{ host: 'root@h2', start: 'serve worker' }] }
    ])
    expect(() => settingsFrom({ url: urls(1), host: 'root@h1\nroot@h2', start: 'serve', model: 'kimi' })).toThrow(
      /has 1 lines and "host" has 2/
    )
    expect(() => settingsFrom({ url: urls(1), host: 'root@h1\n-oX=y', start: 'a\nb', model: 'kimi' })).toThrow(
      /line 2: "-oX=y" is not an ssh destination/
    )
  })
  it('a host with a fleet of servers here is refused, not ignored', () => {
    expect(() =>
      settingsFrom({ url: urls(2), start: 'serve 1\nserve 2', host: 'root@10.1.230.174', model: 'kimi' })
    ).toThrow(/Input "host": is the host of one server/)
  })
  it('a single start (also a script of several lines) with one url keeps its meaning: one server', () => {
    const s = settingsFrom({ url: urls(1), start: 'export A=1\nserve', model: 'kimi' })
    expect(own(s)).toEqual([{ start: 'export A=1\nserve' }])
    const two = settingsFrom({ url: urls(2), start: 'serve', model: 'kimi' })
    expect(own(two)).toEqual([{ start: 'serve' }])
    expect(hrefs(two)).toEqual([[urlOf(1), urlOf(2)]])
  })
  it('pid, container and log-file lines, each read as its input reads one value', () => {
    const s = settingsFrom({ url: urls(2), pid: '123\n/run/b.pid', 'log-file': '/tmp/a.log\n/tmp/b.log' })
    expect(own(s)).toEqual([
      { pid: { pid: 123 }, logFile: '/tmp/a.log' },
      { pid: { file: '/run/b.pid' }, logFile: '/tmp/b.log' }
    ])
    expect(own(settingsFrom({ url: urls(2), container: 'vllm-0\nvllm-1' }))).toEqual([
      { container: 'vllm-0' },
      { container: 'vllm-1' }
    ])
  })
  it.each([
    [{ url: urls(3), start: 'a\nb' }, /^Input "start": has 2 lines and "url" has 3: give one line per "url" line/],
    [
      { url: urls(2), start: 'a\nb', 'log-file': '/tmp/x.log' },
      /^Input "log-file": is one value, and "start" has one line per "url" line/
    ],
    [
      { url: urls(2), container: 'a\nb', start: 'docker compose up' },
      /^Input "start": is one value, and "container" has one line per/
    ],
    [{ url: urls(2), start: 'export A=1\nserve' }, /^Input "start": line 1: "export A=1" starts no server/],
    [{ url: urls(2), start: 'serve\n# the second' }, /^Input "start": line 2: "# the second" starts no server/],
    [{ url: urls(2), start: 'A=1\nserve' }, /^Input "start": line 1: "A=1" starts no server/],
    [{ url: urls(2), pid: '12\n0' }, /^Input "pid": line 2: "0" is not a process id/],
    [{ url: urls(2), container: 'ok\nno way' }, /^Input "container": line 2: "no way" is not/]
  ])('refuses %j', (inputs, message) => {
    expect(() => settingsFrom({ model: 'kimi', ...inputs })).toThrow(message)
  })
  it('a log-file that is a symbolic link, where the action writes it (start, container): refused, its line named; with pid, read as it is', () => {
    const victim = box.path('victim.txt')
    writeFileSync(victim, 'not yours\n')
    const link = box.path('server.log')
    symlinkSync(victim, link)
    const mine = box.path('own.log')
    const refused =
      /^Input "log-file": "\S+server\.log" is a symbolic link, and the container's output \(from "container"\) is written to it; a link is never followed/
    // one server behind every url
    expect(() => settingsFrom({ url: urls(1), container: 'vllm', 'log-file': link })).toThrow(refused)
    expect(() => settingsFrom({ url: urls(1), container: 'vllm', start: 'docker run …', 'log-file': link })).toThrow(
      refused
    )
    expect(() => settingsFrom({ url: urls(1), start: 'serve', 'log-file': link })).toThrow(
      /^Input "log-file": "\S+" is a symbolic link, and "start" writes the server's output to it/
    )
    // a fleet: the line of the link
    expect(() => settingsFrom({ url: urls(2), container: 'vllm-0\nvllm-1', 'log-file': `${mine}\n${link}` })).toThrow(
      /^Input "log-file": line 2: "\S+server\.log" is a symbolic link, and the container's output/
    )
    expect(() => settingsFrom({ url: urls(2), start: 'a\nb', 'log-file': `${link}\n${mine}` })).toThrow(
      /^Input "log-file": line 1: "\S+server\.log" is a symbolic link, and "start" writes/
    )
    // a log the action only reads (pid) may be a link: nothing is written through it
    expect(settingsFrom({ url: urls(1), pid: '42', 'log-file': link }).servers[0].logFile).toBe(link)
    expect(settingsFrom({ url: urls(2), pid: '42\n43', 'log-file': `${mine}\n${link}` }).servers[1].logFile).toBe(link)
  })
})
