/**
 * The house's floors, checked from the code's own imports: the folders of src/ form the strict order that
 * docs/architecture.md states (its "Floors" table), each file imports only from its own folder or a lower one, and
 * no files or folders import each other in a circle. Type imports and dynamic `import()` count: a type that runs
 * back up a floor ties the floors as surely as a value does.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../../..')
const SRC = join(ROOT, 'src')
/** The entry points beside the folders (src/index.ts, src/post.ts, src/cli.ts) stand above every floor. */
const ENTRY = '(entry)'

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []
  )

/** Every relative import of a file, as a path under src/ without extension (`wait/gate`). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
  return info.importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(SRC, resolve(dirname(file), name)).replace(/\.(js|ts)$/, ''))
    .filter((p) => !p.startsWith('..'))
}

const nameOf = (file: string): string => relative(SRC, file).replace(/\.ts$/, '')
const folderOf = (name: string): string => (name.includes('/') ? name.split('/')[0] : ENTRY)

/** The floors as docs/architecture.md's table lists them, ground first: `| 1 | \`runtime\` | ... |`. */
function documentedFloors(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
  const section = doc.split(/^## Floors$/m)[1]?.split(/^## /m)[0] ?? ''
  return [...section.matchAll(/^\| *(\d+) *\| *`([a-z-]+)\/` *\|/gm)]
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => m[2])
}

/** Strongly connected components with more than one member (Tarjan): the circles of a graph. */
function circles(graph: Map<string, Set<string>>): string[][] {
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string): void => {
    indices.set(v, index)
    low.set(v, index++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!))
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || graph.get(v)?.has(v)) found.push(component.sort())
    }
  }
  for (const v of [...graph.keys()].sort()) if (!indices.has(v)) visit(v)
  return found
}

const files = sourceFiles(SRC)
const fileGraph = new Map(files.map((f) => [nameOf(f), new Set(importsOf(f))]))
const floors = documentedFloors()

describe('the floors of src/', () => {
  it('are documented in docs/architecture.md, and every folder of src/ has one floor', () => {
    const folders = [...new Set([...fileGraph.keys()].map(folderOf))].filter((f) => f !== ENTRY).sort()
    expect(floors.length).toBeGreaterThan(5)
    expect([...floors].sort()).toEqual(folders)
  })

  it('has no import circle between files', () => {
    expect(circles(fileGraph)).toEqual([])
  })

  it('has no import circle between folders', () => {
    const folderGraph = new Map<string, Set<string>>()
    for (const [from, tos] of fileGraph)
      for (const to of tos) {
        const [a, b] = [folderOf(from), folderOf(to)]
        if (a === b) continue
        if (!folderGraph.has(a)) folderGraph.set(a, new Set())
        folderGraph.get(a)!.add(b)
      }
    expect(circles(folderGraph)).toEqual([])
  })

  it('imports only from its own folder or a lower floor', () => {
    const floor = (folder: string): number => (folder === ENTRY ? floors.length : floors.indexOf(folder))
    const upward = [...fileGraph].flatMap(([from, tos]) =>
      [...tos]
        .filter((to) => folderOf(to) !== folderOf(from) && floor(folderOf(to)) > floor(folderOf(from)))
        .map((to) => `${from} -> ${to}`)
    )
    expect(upward).toEqual([])
  })

  it('keeps the simulator apart: it imports nothing from the product', () => {
    const product = [...fileGraph]
      .filter(([from]) => folderOf(from) === 'simulator')
      .flatMap(([from, tos]) => [...tos].filter((to) => folderOf(to) !== 'simulator').map((to) => `${from} -> ${to}`))
    expect(product).toEqual([])
  })
})

describe('the circle finder itself', () => {
  it('finds a circle of three and none in a chain', () => {
    const g = (edges: [string, string][]): Map<string, Set<string>> => {
      const m = new Map<string, Set<string>>()
      for (const [a, b] of edges) {
        if (!m.has(a)) m.set(a, new Set())
        if (!m.has(b)) m.set(b, new Set())
        m.get(a)!.add(b)
      }
      return m
    }
    expect(
      circles(
        g([
          ['a', 'b'],
          ['b', 'c'],
          ['c', 'a'],
          ['c', 'd']
        ])
      )
    ).toEqual([['a', 'b', 'c']])
    expect(
      circles(
        g([
          ['a', 'b'],
          ['b', 'c']
        ])
      )
    ).toEqual([])
  })
})
