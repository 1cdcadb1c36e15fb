/**
 * A small measuring harness: warm-up, several rounds, median. Contenders are measured in
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

/** Run `op` `count` times; returns operations per second. */
async function timed(op: (i: number) => Promise<unknown>, count: number, offset: number): Promise<number> {
  const start = performance.now()
  for (let i = 0; i < count; i++) await op(offset + i)
  const ms = performance.now() - start
  return (count / ms) * 1000
}

/**
 * Median operations per second of each contender, measured in alternating rounds. Operation `i`
 * gets the same `i` for every contender, so they do the same work (the same space, the same body).
 */
export async function compare(
  contenders: Record<string, (i: number) => Promise<unknown>>,
  options: RoundOptions,
): Promise<Record<string, number>> {
  const names = Object.keys(contenders)
  for (const name of names) await timed(contenders[name]!, options.warmup, 0)
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]))
  for (let round = 0; round < options.rounds; round++) {
    // Alternate who goes first, so neither always runs right after a GC the other caused.
    const order = round % 2 ? [...names].reverse() : names
    for (const name of order) samples[name]!.push(await timed(contenders[name]!, options.perRound, options.warmup + round * options.perRound))
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n]!)]))
}

export function formatOps(opsPerSecond: number, unit = 'ops/s'): string {
  return `${Math.round(opsPerSecond).toLocaleString('en-US')} ${unit}`
}

/** Print rows as an aligned text table. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
}
