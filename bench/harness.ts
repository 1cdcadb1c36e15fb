/**
 * A small measuring harness: warm-up, several rounds, medians. Contenders are measured in
 * alternating rounds so that drift (GC, JIT, CPU frequency, a neighbour's load) falls on all alike.
 */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export interface RoundOptions {
  /** Operations of each contender before measuring (JIT warm-up). */
  warmup: number
  /** Operations per measured round. */
  perRound: number
  rounds: number
}

/** CPU time of this process (user + system, all its threads), in milliseconds. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/**
 * Run `op` `count` times; returns operations per CPU second. CPU time, not wall time: the
 * machine may be shared, and time spent descheduled is nobody's cost. It counts every thread of
 * the process (GC helpers included), so work moved off the main thread is still paid for.
 */
async function timed(op: Contender, count: number, offset: number): Promise<number> {
  if (typeof op !== 'function') return timedStaged(op, count, offset)
  const start = cpuMs()
  for (let i = 0; i < count; i++) await op(offset + i)
  return (count / Math.max(cpuMs() - start, 0.001)) * 1000
}

/** As `timed`, but only `run` is timed: `prepare(i)` runs first, outside the clock, for each operation. */
async function timedStaged(op: StagedOp, count: number, offset: number): Promise<number> {
  let spent = 0
  for (let i = 0; i < count; i++) {
    await op.prepare(offset + i)
    const start = cpuMs()
    await op.run(offset + i)
    spent += cpuMs() - start
  }
  return (count / Math.max(spent, 0.001)) * 1000
}

/**
 * An operation with an untimed set-up: `prepare(i)` then `run(i)`, only `run` timed (a merge
 * needs a change request made and edited first). Timing each `run` alone costs two
 * `process.cpuUsage()` calls (about a microsecond each): use it for operations of 100 µs or more.
 */
export interface StagedOp {
  prepare: (i: number) => Promise<unknown>
  run: (i: number) => Promise<unknown>
}

/** What `compare` measures: an operation, timed whole, or a staged one, timed in its `run` part. */
export type Contender = ((i: number) => Promise<unknown>) | StagedOp

export interface Comparison {
  /** Median operations per CPU second of each contender. */
  rates: Record<string, number>
  /** Median over rounds of (first contender's rate / second's) in the same round. */
  ratio: number
  /** Each contender's rate in each round, in round order (for `pairRatio` of other pairs). */
  samples: Record<string, number[]>
}

/** Median over rounds of (a's rate / b's) in the same round, from `Comparison.samples`. */
export function pairRatio(samples: Record<string, number[]>, a: string, b: string): number {
  return median(samples[a]!.map((rate, round) => rate / samples[b]![round]!))
}

/**
 * Compare contenders in alternating rounds: each round runs every contender once, in turn (who
 * goes first alternates, so neither always runs right after a GC the other caused). Operation `i`
 * gets the same `i` for every contender, so they do the same work (the same space, the same
 * body). The ratio is the median of the per-round ratios: two contenders measured side by side
 * in one round share its conditions (a neighbour's load, a major GC), which a ratio of overall
 * medians would not pair up.
 */
export async function compare(contenders: Record<string, Contender>, options: RoundOptions): Promise<Comparison> {
  const names = Object.keys(contenders)
  for (const name of names) await timed(contenders[name]!, options.warmup, 0)
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]))
  const ratios: number[] = []
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 ? [...names].reverse() : names
    const rates: Record<string, number> = {}
    for (const name of order) rates[name] = await timed(contenders[name]!, options.perRound, options.warmup + round * options.perRound)
    for (const name of names) samples[name]!.push(rates[name]!)
    ratios.push(rates[names[0]!]! / rates[names[1]!]!)
  }
  return { rates: Object.fromEntries(names.map((n) => [n, median(samples[n]!)])), ratio: median(ratios), samples }
}

export function formatOps(opsPerSecond: number, unit = 'ops/s'): string {
  return `${Math.round(opsPerSecond).toLocaleString('en-US')} ${unit}`
}

/** Print rows as an aligned text table. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
}
