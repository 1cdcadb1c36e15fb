import { extractIssues } from '../src/domains/conversations/extract.js'
import { SIMILARITY_THRESHOLD } from '../src/domains/conversations/clusters.js'
import { groupIssues } from '../src/domains/conversations/recluster.js'
import { BACKGROUND_ISSUES, loadTextTools } from '../src/domains/conversations/text-tools.js'
import { DISTINCT_PROBLEMS, EARLIER_PROBLEMS, PAGE_PROBLEMS, type Conversation } from '../test/domains/conversations/corpus.js'
import { DEV_PROBLEMS } from './clustering-corpus.js'

/**
 * `npx tsx bench/clustering.ts`: how well issues cluster, to choose SIMILARITY_THRESHOLD
 * (src/domains/conversations/clusters.ts) and BACKGROUND_ISSUES (text-tools.ts) from
 * measurements. A measurement, not a test: it prints tables and exits 0 (about a minute).
 *
 * The choosing corpus is bench/clustering-corpus.ts (42 conversations, 14 problems), in random
 * samples (seeded, so every run measures the same ones): 500 organizations of 5 to 14 of its
 * problems and 500 small ones of 1 to 3 problems, 2 or 3 conversations each. Each issue is
 * labelled with its conversation's problem and the sample clustered as processing does up to
 * 200 issues (all at once, average linkage). Scores: BCubed precision (how much of an issue's
 * cluster is its problem) and recall (how much of its problem is in its cluster), F1, and F0.5,
 * which counts precision twice: a cluster mixing problems hides one of them, a problem split in
 * two still shows. The choice is the pair with the best F0.5, averaged over both kinds of
 * samples. Splits (a problem over k clusters counts k - 1) and mixes (a cluster of k problems
 * counts k - 1) per sample are shown too. The tests' corpora are shown at the end for
 * information; they take no part in the choice.
 */
const tools = await loadTextTools()

type Item = { problem: string; terms: string[] }
const items = (corpus: readonly Conversation[], tag = ''): Item[] =>
  corpus.flatMap(([problem, , subject, body]) =>
    extractIssues(tools, { subject: subject || undefined, parts: [{ type: 'message', role: 'user', body }] }).map((i) => ({
      problem: tag + problem,
      terms: i.terms,
    })),
  )

interface Score {
  precision: number
  recall: number
  splits: number
  mixes: number
}

function score(its: readonly Item[], threshold: number, background = BACKGROUND_ISSUES): Score {
  const groups = groupIssues(tools, its, threshold, background)
  let [precision, recall] = [0, 0]
  its.forEach((a, i) => {
    let [both, cluster, problem] = [0, 0, 0]
    its.forEach((b, j) => {
      const together = groups[i] === groups[j]
      const same = a.problem === b.problem
      if (together) cluster++
      if (same) problem++
      if (together && same) both++
    })
    precision += both / cluster / its.length
    recall += both / problem / its.length
  })
  const clustersOf = new Map<string, Set<number>>()
  const problemsOf = new Map<number, Set<string>>()
  its.forEach((it, i) => {
    ;(clustersOf.get(it.problem) ?? clustersOf.set(it.problem, new Set()).get(it.problem)!).add(groups[i]!)
    ;(problemsOf.get(groups[i]!) ?? problemsOf.set(groups[i]!, new Set()).get(groups[i]!)!).add(it.problem)
  })
  const excess = (sets: Iterable<Set<unknown>>) => [...sets].reduce((n, s) => n + s.size - 1, 0)
  return { precision, recall, splits: excess(clustersOf.values()), mixes: excess(problemsOf.values()) }
}
const f = (beta: number, { precision: p, recall: r }: Score) => ((1 + beta * beta) * p * r) / (beta * beta * p + r)

/** mulberry32: a small seeded generator, so every run measures the same samples. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const shuffle = <T>(list: readonly T[], next: () => number) => {
  const out = [...list]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

const dev = items(DEV_PROBLEMS)
const problems = [...new Set(dev.map((i) => i.problem))]
const next = random(10)
const sample = (fewest: number, most: number) =>
  shuffle(
    shuffle(problems, next)
      .slice(0, fewest + Math.floor(next() * (most - fewest + 1)))
      .flatMap((p) =>
        shuffle(
          dev.filter((i) => i.problem === p),
          next,
        ).slice(0, 2 + Math.floor(next() * 2)),
      ),
    next,
  )
const samples = { organizations: Array.from({ length: 500 }, () => sample(5, 14)), small: Array.from({ length: 500 }, () => sample(1, 3)) }

type Mean = Score & { perfect: number }
function mean(list: readonly Item[][], threshold: number, background: number): Mean {
  const sum = { precision: 0, recall: 0, splits: 0, mixes: 0, perfect: 0 }
  for (const its of list) {
    const s = score(its, threshold, background)
    sum.precision += s.precision / list.length
    sum.recall += s.recall / list.length
    sum.splits += s.splits / list.length
    sum.mixes += s.mixes / list.length
    if (s.splits + s.mixes === 0) sum.perfect += 100 / list.length
  }
  return sum
}
const both = (threshold: number, background: number) =>
  (f(0.5, mean(samples.organizations, threshold, background)) + f(0.5, mean(samples.small, threshold, background))) / 2
const grid = (from: number, to: number, step: number) =>
  Array.from({ length: Math.round((to - from) / step) + 1 }, (_, k) => Math.round((from + k * step) * 1000) / 1000)

console.log('background issues: best threshold (step 0.01) and its F0.5, averaged over both kinds of samples')
let best = { background: 0, threshold: 0, f: 0 }
for (const background of [0, 5, 10, 20, 40]) {
  let mine = { threshold: 0, f: 0 }
  for (const threshold of grid(0.08, 0.2, 0.01)) {
    const score = both(threshold, background)
    if (score > mine.f) mine = { threshold, f: score }
  }
  if (mine.f > best.f) best = { background, ...mine }
  console.log(`${String(background).padStart(4)}: ${mine.threshold.toFixed(2)} ${mine.f.toFixed(4)}`)
}

console.log(`\nwith ${best.background} background issues, per threshold (step 0.005):`)
console.log('threshold | organizations: precision recall F1 F0.5, splits mixes, perfect | small: the same | F0.5 of both')
for (const threshold of grid(0.08, 0.2, 0.005)) {
  const cells = (m: Mean) =>
    `${[m.precision, m.recall, f(1, m), f(0.5, m)].map((x) => x.toFixed(3)).join(' ')}, ${m.splits.toFixed(2)} ${m.mixes.toFixed(2)}, ${m.perfect.toFixed(0).padStart(3)}%`
  const score = both(threshold, best.background)
  if (score > best.f) best = { ...best, threshold, f: score }
  console.log(
    `${threshold.toFixed(3)}     | ${cells(mean(samples.organizations, threshold, best.background))} | ${cells(mean(samples.small, threshold, best.background))} | ${score.toFixed(4)}`,
  )
}
console.log(`best: ${best.background} background issues, threshold ${best.threshold}; the code has ${BACKGROUND_ISSUES} and ${SIMILARITY_THRESHOLD}`)

console.log('\nthe tests\u2019 corpora (splits/mixes), for information:')
const corpora: Record<string, Item[]> = {
  'five page problems': items(PAGE_PROBLEMS),
  'earlier + page problems': [...items(EARLIER_PROBLEMS, 'earlier:'), ...items(PAGE_PROBLEMS)],
  'seven distinct problems': items(DISTINCT_PROBLEMS),
}
for (const [name, its] of Object.entries(corpora)) {
  const cells = grid(0.08, 0.2, 0.01).map((t) => {
    const s = score(its, t, best.background)
    return `${t.toFixed(2)}:${s.splits}/${s.mixes}`
  })
  console.log(`${name.padEnd(24)} ${cells.join(' ')}`)
}
