import type { Bow } from 'wink-nlp'

/**
 * Average linkage (UPGMA) over bags of words of length 1 (text-tools.ts `weigh`), where the dot
 * product of two bags is their cosine similarity. Two groups of issues are as similar as the mean
 * similarity of their pairs: an issue joins a group when it resembles the group as a whole, not
 * when it shares a common word with one member (single linkage chains "page" to "page" across
 * problems).
 */

/** The dot product of two bags (their cosine similarity when both have length 1). */
export function dot(a: Bow, b: Bow): number {
  let sum = 0
  for (const term in a) {
    const w = b[term]
    if (w !== undefined) sum += a[term]! * w
  }
  return sum
}

/** Add `bow` times `factor` into `into` (a group's sum of bags: its mean similarity to a bag is `dot(bag, sum) / size`). */
export function addInto(into: Bow, bow: Bow, factor = 1): void {
  for (const term in bow) into[term] = (into[term] ?? 0) + bow[term]! * factor
}

/**
 * Every pair's similarity, an n × n matrix (row-major). Through an inverted index: only pairs
 * sharing a term cost anything.
 */
export function similarities(bows: readonly Bow[]): Float32Array {
  const n = bows.length
  const sim = new Float32Array(n * n)
  const postings = new Map<string, Array<[number, number]>>()
  bows.forEach((bow, i) => {
    for (const term in bow) {
      const list = postings.get(term)
      if (list) list.push([i, bow[term]!])
      else postings.set(term, [[i, bow[term]!]])
    }
  })
  for (const list of postings.values()) {
    for (let x = 0; x < list.length; x++) {
      const [i, wi] = list[x]!
      for (let y = x + 1; y < list.length; y++) {
        const [j, wj] = list[y]!
        sim[i * n + j]! += wi * wj
      }
    }
  }
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) sim[j * n + i] = sim[i * n + j]!
  return sim
}

/**
 * Groups by average linkage, cut at `threshold`: two groups merge while the mean similarity of
 * their pairs is at least `threshold`. The dendrogram is built with the nearest-neighbour chain
 * (O(n²) time over the matrix, which it overwrites), then cut: average linkage never merges
 * at a higher similarity than a merge below it, so the cut is what merging the most similar
 * pair first would give. Returns each item's group number, groups numbered in the order of
 * their first item; ties go to the lower index, so the result depends only on the input order.
 */
export function averageLinkage(n: number, sim: Float32Array, threshold: number): number[] {
  const size = new Array<number>(n).fill(1)
  const active = new Array<boolean>(n).fill(true)
  const parent = Array.from({ length: n }, (_, i) => i)
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!
    return i
  }
  const chain: number[] = []
  let next = 0
  for (let remaining = n; remaining > 1;) {
    if (chain.length === 0) {
      while (!active[next]) next++
      chain.push(next)
    }
    const a = chain.at(-1)!
    const previous = chain.length > 1 ? chain.at(-2)! : -1
    // The previous link wins ties, so the chain never cycles.
    let best = previous
    let bestSim = previous >= 0 ? sim[a * n + previous]! : -Infinity
    for (let c = 0; c < n; c++) {
      if (c !== a && active[c] && sim[a * n + c]! > bestSim) [best, bestSim] = [c, sim[a * n + c]!]
    }
    if (best !== previous) {
      chain.push(best)
      continue
    }
    chain.length -= 2
    // a and b become one group, kept in the lower slot (Lance–Williams update for UPGMA).
    const [keep, drop] = a < best ? [a, best] : [best, a]
    const [sk, sd] = [size[keep]!, size[drop]!]
    for (let c = 0; c < n; c++) {
      if (!active[c] || c === keep || c === drop) continue
      const merged = (sk * sim[keep * n + c]! + sd * sim[drop * n + c]!) / (sk + sd)
      sim[keep * n + c] = sim[c * n + keep] = merged
    }
    size[keep] = sk + sd
    active[drop] = false
    remaining--
    if (bestSim >= threshold) parent[find(drop)] = find(keep)
  }
  const numbers = new Map<number, number>()
  return Array.from({ length: n }, (_, i) => {
    const root = find(i)
    let k = numbers.get(root)
    if (k === undefined) numbers.set(root, (k = numbers.size))
    return k
  })
}
