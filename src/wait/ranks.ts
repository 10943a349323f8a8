/**
 * One server across several nodes: its ranks counted as they join, from the engine's per-rank lines in every node's
 * log (a worker's lines come into the head's copy prefixed `[host] `); ready waits until every rank has joined.
 */
import { type Engine, ENGINE_RECORDS, ENGINES } from '../engines/index.js'
import { NO_LINE, type RankLines } from '../engines/engine-record.js'
import type { RanksMissing } from '../facts/answer.js'
import type { NodeJoin } from '../facts/outcome.js'

/** Ranks kept per engine: a log of endless distinct rank lines holds memory to a bound. */
const MAX_RANKS = 65_536

const RANKED = ENGINE_RECORDS.flatMap((r) => (r.log.ranks === undefined ? [] : [[r.name, r.log.ranks] as const]))

/** A start line's flag value (`--tp 8`, `--tp=8`), the first of the spellings given. */
function flagValue(start: string, spellings: readonly string[]): number | undefined {
  for (const flag of spellings) {
    const m = new RegExp(`(?:^|\\s)${flag.replace(/[-]/g, '\\-')}(?:=|\\s+)(\\d+)(?=\\s|$)`).exec(start)
    if (m !== null) return Number(m[1])
  }
  return undefined
}

/** How many ranks the start line says, from the engine's flags; undefined when it gives none of them. */
export function ranksFromFlags(lines: RankLines, start: string | undefined): number | undefined {
  if (start === undefined || lines.flags === undefined) return undefined
  const values = lines.flags.map((spellings) => flagValue(start, spellings))
  if (values.every((v) => v === undefined)) return undefined
  return values.reduce<number>((product, v) => product * (v ?? 1), 1)
}

/** The counts for one engine's lines. */
class EngineRanks {
  readonly seen = new Map<string, number>()
  world: number | undefined
  readonly factors: (number | undefined)[]
  /** Each node (by index) once it held its share of the ranks: the time since the server's start. */
  readonly joinedAt = new Map<number, number>()
  constructor(readonly lines: RankLines) {
    this.factors = (lines.factors ?? []).map(() => undefined)
  }

  /** The count the log says: a joined line's world, else its factor lines multiplied once all are read. */
  logCount(): number | undefined {
    if (this.world !== undefined) return this.world
    const { factors } = this
    if (factors.length === 0 || factors[0] === undefined) return undefined
    return factors.reduce<number>((product, v) => product * (v ?? 1), 1)
  }
}

export class RankCount {
  private readonly engines = new Map<Engine, EngineRanks>()

  /**
   * `hosts`: every node, the head first; `starts`: each node's start line, the head's first; `now`: the time since
   * the server's start, for each node's time to join.
   */
  constructor(
    private readonly hosts: readonly string[],
    private readonly starts: readonly string[],
    private readonly now: () => number
  ) {
    for (const [engine, lines] of RANKED) this.engines.set(engine, new EngineRanks(lines))
  }

  /** One line of the head's log copy (a worker's prefixed by its host). */
  line(text: string): void {
    const node = this.nodeOf(text)
    for (const [, counts] of this.engines) {
      const { lines } = counts
      lines.factors?.forEach((pattern, i) => {
        if (counts.factors[i] !== undefined) return
        const n = pattern.exec(text)?.groups?.n
        if (n !== undefined) counts.factors[i] = Number(n)
      })
      const joined = lines.joined.exec(text)?.groups
      if (joined?.rank === undefined) continue
      if (joined.world !== undefined) counts.world ??= Number(joined.world)
      const rank = joined.rank.trim()
      if (counts.seen.has(rank) || counts.seen.size >= MAX_RANKS) continue
      // a rank beyond the world its lines state is none of this server's: it must not fill the count
      if (counts.world !== undefined && /^\d+$/.test(rank) && Number(rank) >= counts.world) continue
      counts.seen.set(rank, node.index)
      const expected = counts.logCount() ?? ranksFromFlags(counts.lines, this.starts[0])
      if (expected !== undefined) this.noteJoins(counts, expected)
    }
  }

  /** The engine whose rank lines were read: `engine` where it has some, else the one with the most lines read. */
  private counting(engine: Engine | undefined): EngineRanks | undefined {
    if (engine !== undefined) return this.engines.get(engine)
    let best: EngineRanks | undefined
    for (const counts of this.engines.values()) if (counts.seen.size > (best?.seen.size ?? 0)) best = counts
    return best
  }

  /** How many ranks are expected: the log's own count, else the head's start line's flags; undefined: not known. */
  expected(engine: Engine | undefined): number | undefined {
    const counts = this.counting(engine)
    if (counts === undefined) return undefined
    return counts.logCount() ?? ranksFromFlags(counts.lines, this.starts[0])
  }

  /**
   * What holds readiness now; undefined when every rank joined. Where no line has told the count yet, the head's
   * own ready line, which its engine prints once its ranks joined, not read yet (the nodes' logs come over ssh,
   * behind its HTTP answers) holds it too; once read, a log whose rank lines are not known holds nothing.
   */
  missing(engine: Engine | undefined, readyLineSeen: boolean): RanksMissing | undefined {
    const counts = this.counting(engine)
    const expected = this.expected(engine)
    if (counts === undefined) return undefined
    const joined = counts.seen.size
    // the ready line read and not one rank line: this engine's version words them otherwise
    if (joined === 0 && counts.logCount() === undefined && readyLineSeen) return undefined
    if (expected === undefined) {
      const known = engine !== undefined && ENGINES[engine].log.ready !== NO_LINE
      return known && !readyLineSeen ? { joined, missingOn: [] } : undefined
    }
    if (joined >= expected) return undefined
    const perNode = this.perNode(counts)
    const share = expected % this.hosts.length === 0 ? expected / this.hosts.length : undefined
    // a node with more than its share: one log holds other nodes' ranks (Ray's, MPI's), so none can be named
    const pooled = share !== undefined && perNode.some((n) => (n ?? 0) > share)
    const missingOn = pooled
      ? []
      : this.hosts.flatMap((host, i) =>
          share === undefined || (perNode[i] ?? 0) < share ? [`node ${i + 1} (${host})`] : []
        )
    return { joined, expected, missingOn }
  }

  /** Each node's ranks, and when it held its share of them. */
  joins(engine: Engine | undefined): NodeJoin[] | undefined {
    const counts = this.counting(engine)
    if (counts === undefined || counts.seen.size === 0) return undefined
    const perNode = this.perNode(counts)
    return this.hosts.map((host, i) => ({ host, ranks: perNode[i] ?? 0, joinedMs: counts.joinedAt.get(i) }))
  }

  private perNode(counts: EngineRanks): number[] {
    const perNode: number[] = []
    for (const i of counts.seen.values()) perNode[i] = (perNode[i] ?? 0) + 1
    return perNode
  }

  /** A node joined once it holds its share (the whole count over the nodes, where it divides evenly). */
  private noteJoins(counts: EngineRanks, expected: number): void {
    const perNode = this.perNode(counts)
    const share = expected % this.hosts.length === 0 ? expected / this.hosts.length : undefined
    const all = counts.seen.size >= expected
    this.hosts.forEach((_, i) => {
      if (counts.joinedAt.has(i)) return
      if ((share !== undefined && (perNode[i] ?? 0) >= share) || (all && (perNode[i] ?? 0) > 0))
        counts.joinedAt.set(i, this.now())
    })
  }

  /** The node a line came from: a worker's lines begin with `[host] `, the head's with neither. */
  private nodeOf(text: string): { index: number } {
    if (text.startsWith('[')) {
      for (let i = 1; i < this.hosts.length; i++) if (text.startsWith(`[${this.hosts[i]}] `)) return { index: i }
    }
    return { index: 0 }
  }
}
