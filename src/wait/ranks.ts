/**
 * A server's ranks counted as they join, from the engine's per-rank lines in every node's log (a worker's lines come
 * into the head's copy prefixed `[host] `), or, with a count given (`ranks`), NCCL's `Init COMPLETE` lines where the
 * engine's own are not known; ready waits until every rank has joined.
 */
import { type Engine, ENGINE_RECORDS, ENGINES } from '../engines/index.js'
import { NO_LINE, type RankLines } from '../engines/engine-record.js'
import type { RanksMissing } from '../facts/answer.js'
import type { NodeJoin } from '../facts/outcome.js'
import { MAX_RANKS } from '../inputs/parse.js'
import { ncclJoined } from '../server/nccl-log.js'

const RANKED = ENGINE_RECORDS.flatMap((r) => (r.log.ranks === undefined ? [] : [[r.name, r.log.ranks] as const]))

/** The longest rank name counted (`node|host:pid:device`, `PP1 TP3`, a number). */
const MAX_RANK_CHARS = 128

/** A line quoted as the one that said the count: no more of it than this. */
const QUOTED_CHARS = 160

/** A start line's flag value (`--tp 8`, `--tp=8`), the first of the spellings given. */
function flagValue(start: string, spellings: readonly string[]): number | undefined {
  for (const flag of spellings) {
    const m = new RegExp(`(?:^|\\s)${flag.replace(/[-]/g, '\\-')}(?:=|\\s+)(\\d+)(?=\\s|$)`).exec(start)
    if (m !== null) return Number(m[1])
  }
  return undefined
}

/** The count flag values give, multiplied (a flag not given counts 1); undefined when none is given. */
function flagProduct(values: readonly (number | undefined)[]): number | undefined {
  if (values.every((v) => v === undefined)) return undefined
  return values.reduce<number>((product, v) => product * (v ?? 1), 1)
}

/** How many ranks the start line says, from the engine's flags; undefined when it gives none of them. */
export function ranksFromFlags(lines: RankLines, start: string | undefined): number | undefined {
  if (start === undefined || lines.flags === undefined) return undefined
  return flagProduct(lines.flags.map((spellings) => flagValue(start, spellings)))
}

/** The ranks one kind of line has counted: an engine's per-rank lines, or NCCL's. */
class Tally {
  /** Each rank (its number, tag or `host:pid:device`) and the node whose line said it joined. */
  readonly seen = new Map<string, number>()
  world: number | undefined
  readonly factors: (number | undefined)[]
  /** The line that said the count (the world's, else the last factor's). */
  saidBy: string | undefined
  /** Each node (by index) once it held its share of the ranks: the time since the server's start. */
  readonly joinedAt = new Map<number, number>()
  /** Each flag's value on the head's start line, in the order of `lines.flags`. */
  readonly flagged: (number | undefined)[]
  constructor(
    readonly lines?: RankLines,
    start?: string
  ) {
    this.factors = (lines?.factors ?? []).map(() => undefined)
    this.flagged = (lines?.flags ?? []).map((spellings) =>
      start === undefined ? undefined : flagValue(start, spellings)
    )
  }

  /**
   * A rank its own lines place beyond the server (a number at or past the world; a tag part at or past its factor,
   * else its flag): none of this server's, it must not fill the count.
   */
  beyond(rank: string): boolean {
    if (this.world !== undefined && /^\d+$/.test(rank)) return Number(rank) >= this.world
    const tagged = this.lines?.taggedFactors
    if (tagged === undefined) return false
    for (const [, part, index] of rank.matchAll(/([A-Z][A-Z_]*)(\d+)/g)) {
      const i = tagged.indexOf(part as string)
      const size = i < 0 ? undefined : (this.factors[i] ?? this.flagged[i])
      if (size !== undefined && Number(index) >= size) return true
    }
    return false
  }

  /** The count the head's start line says, from the flags read once (a rank line must not build their patterns). */
  flagCount(): number | undefined {
    return flagProduct(this.flagged)
  }

  /** The count the log says: a joined line's world, else its factor lines multiplied once all are read. */
  logCount(): number | undefined {
    if (this.world !== undefined) return this.world
    const { factors } = this
    if (factors.length === 0 || factors[0] === undefined) return undefined
    return factors.reduce<number>((product, v) => product * (v ?? 1), 1)
  }

  /** Each node's ranks, kept as they join: a count of thousands is not recounted at each line. */
  readonly perNode: number[] = []

  add(rank: string, node: number): boolean {
    // no rank's name is long (a host name is at most 64 characters): a log's made-up ones must not fill memory
    if (rank.length > MAX_RANK_CHARS || this.seen.has(rank) || this.seen.size >= MAX_RANKS) return false
    this.seen.set(rank, node)
    this.perNode[node] = (this.perNode[node] ?? 0) + 1
    return true
  }
}

export class RankCount {
  private readonly engines = new Map<Engine, Tally>()
  private readonly nccl = new Tally()

  /**
   * `hosts`: every node, the head first; `starts`: each node's start line, the head's first; `now`: the time since
   * the server's start, for each node's time to join; `required`: the count given (`ranks`), if one was.
   */
  constructor(
    private readonly hosts: readonly string[],
    starts: readonly string[],
    private readonly now: () => number,
    private readonly required?: number
  ) {
    for (const [engine, lines] of RANKED) this.engines.set(engine, new Tally(lines, starts[0]))
  }

  /** How many nodes the server runs on. */
  get nodes(): number {
    return this.hosts.length
  }

  /** One line of the head's log copy (a worker's prefixed by its host). */
  line(text: string): void {
    const node = this.nodeOf(text)
    for (const [, counts] of this.engines) {
      const lines = counts.lines as RankLines
      lines.factors?.forEach((pattern, i) => {
        if (counts.factors[i] !== undefined) return
        const n = pattern.exec(text)?.groups?.n
        if (n === undefined) return
        counts.factors[i] = Number(n)
        if (counts.world === undefined) counts.saidBy = text
      })
      const joined = lines.joined.exec(text)?.groups
      if (joined?.rank === undefined) continue
      if (joined.world !== undefined && counts.world === undefined) {
        counts.world = Number(joined.world)
        counts.saidBy = text
      }
      const rank = joined.rank.trim()
      if (counts.beyond(rank) || !counts.add(rank, node)) continue
      const expected = this.required ?? counts.logCount() ?? counts.flagCount()
      if (expected !== undefined) this.noteJoins(counts, expected)
    }
    // NCCL's lines are read only against a count given: they tell who joined, never how many should
    if (this.required === undefined) return
    const gpu = ncclJoined(text)
    if (gpu !== undefined && this.nccl.add(`${node}|${gpu}`, node)) this.noteJoins(this.nccl, this.required)
  }

  /** The engine's tally: `engine`'s where it has rank lines, else the one with the most lines read. */
  private engineTally(engine: Engine | undefined): Tally | undefined {
    if (engine !== undefined) return this.engines.get(engine)
    let best: Tally | undefined
    for (const counts of this.engines.values()) if (counts.seen.size > (best?.seen.size ?? 0)) best = counts
    return best
  }

  /**
   * The tally that counts: the engine's; with a count given, NCCL's where it holds more (an engine whose rank lines
   * are not known, or a version that words them otherwise).
   */
  private counting(engine: Engine | undefined): Tally | undefined {
    const own = this.engineTally(engine)
    if (this.required === undefined) return own
    return own !== undefined && own.seen.size >= this.nccl.seen.size && own.seen.size > 0 ? own : this.nccl
  }

  /** How many ranks are expected: the count given, else the log's own, else the head's start line's flags. */
  expected(engine: Engine | undefined): number | undefined {
    if (this.required !== undefined) return this.required
    const counts = this.counting(engine)
    if (counts === undefined) return undefined
    return counts.logCount() ?? counts.flagCount()
  }

  /** What was counted: NCCL's lines, or the engine's own. */
  countedBy(engine: Engine | undefined): 'nccl' | 'engine' | undefined {
    const counts = this.counting(engine)
    return counts === undefined ? undefined : counts === this.nccl ? 'nccl' : 'engine'
  }

  /**
   * What holds readiness now; undefined when every rank joined. Where no line has told the count yet, the head's
   * own ready line, which its engine prints once its ranks joined, not read yet (the nodes' logs come over ssh,
   * behind its HTTP answers) holds it too; once read, a log whose rank lines are not known holds nothing. A count
   * given that the log's own lines contradict is said as such (`conflict`): it can never be right.
   */
  missing(engine: Engine | undefined, readyLineSeen: boolean): RanksMissing | undefined {
    const said = this.engineTally(engine)
    const saidCount = said?.logCount()
    if (this.required !== undefined && saidCount !== undefined && saidCount !== this.required)
      return {
        joined: said?.seen.size ?? 0,
        expected: this.required,
        missingOn: [],
        conflict: { said: saidCount, line: (said?.saidBy ?? '').trim().slice(0, QUOTED_CHARS) }
      }
    const counts = this.counting(engine)
    const expected = this.expected(engine)
    if (counts === undefined) return undefined
    const joined = counts.seen.size
    if (this.required === undefined) {
      // the ready line read and not one rank line: this engine's version words them otherwise
      if (joined === 0 && counts.logCount() === undefined && readyLineSeen) return undefined
      if (expected === undefined) {
        const known = engine !== undefined && ENGINES[engine].log.ready !== NO_LINE
        return known && !readyLineSeen ? { joined, missingOn: [] } : undefined
      }
    }
    if (expected === undefined || joined >= expected) return undefined
    const perNode = counts.perNode
    const share = expected % this.hosts.length === 0 ? expected / this.hosts.length : undefined
    // a node with more than its share: one log holds other nodes' ranks (Ray's, MPI's), so none can be named
    const pooled = share !== undefined && perNode.some((n) => (n ?? 0) > share)
    const missingOn =
      pooled || this.hosts.length === 1
        ? []
        : this.hosts.flatMap((host, i) =>
            share === undefined || (perNode[i] ?? 0) < share ? [`node ${i + 1} (${host})`] : []
          )
    return {
      joined,
      expected,
      missingOn,
      ...(this.required === undefined ? {} : { countedBy: this.countedBy(engine) })
    }
  }

  /** Each node's ranks, and when it held its share of them. */
  joins(engine: Engine | undefined): NodeJoin[] | undefined {
    const counts = this.counting(engine)
    if (counts === undefined || counts.seen.size === 0) return undefined
    const perNode = counts.perNode
    return this.hosts.map((host, i) => ({ host, ranks: perNode[i] ?? 0, joinedMs: counts.joinedAt.get(i) }))
  }

  /** A node joined once it holds its share (the whole count over the nodes, where it divides evenly). */
  private noteJoins(counts: Tally, expected: number): void {
    const perNode = counts.perNode
    const share = expected % this.hosts.length === 0 ? expected / this.hosts.length : undefined
    const all = counts.seen.size >= expected
    this.hosts.forEach((_, i) => {
      if (counts.joinedAt.has(i)) return
      if ((share !== undefined && (perNode[i] ?? 0) >= share) || (all && (perNode[i] ?? 0) > 0))
        counts.joinedAt.set(i, this.now())
    })
  }

  /** The node a line came from: a worker's lines begin with `[host] `, the head's with neither. */
  private nodeOf(text: string): number {
    if (text.startsWith('[')) {
      for (let i = 1; i < this.hosts.length; i++) if (text.startsWith(`[${this.hosts[i]}] `)) return i
    }
    return 0
  }
}
