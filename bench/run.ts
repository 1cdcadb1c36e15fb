import { spawn } from 'node:child_process'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { printTable } from './harness.js'
import { MEASURES, type Result } from './measures.js'

/**
 * `npm run bench`: every measure in a fresh child process (`node --expose-gc --import tsx
 * bench/child.ts <measure>`), one after the other, then one table. It exits 0 whatever the
 * numbers: a measurement, not a test. `npm run bench -- get list` runs only the measures named.
 */

const child = fileURLToPath(new URL('./child.ts', import.meta.url))

function runChild(name: string, env: Record<string, string> = {}): Promise<Result | { error: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', child, name], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    })
    let out = ''
    proc.stdout.on('data', (chunk) => (out += chunk))
    proc.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '))
      resolve(line ? JSON.parse(line.slice(7)) : { error: `exited with ${code} and no result` })
    })
  })
}

const wanted = process.argv.slice(2)
// A measure's companion runs with it: the baseline's heap with (f), the merged space's size (l) with (k).
const companions: Record<string, string> = { 'heap-baseline': 'heap', 'search-merge-space': 'search-merge' }
const names = Object.keys(MEASURES).filter((n) => wanted.length === 0 || wanted.includes(n) || (companions[n] !== undefined && wanted.includes(companions[n])))
console.error(`docs-content-api benchmark: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`)

const rows: string[][] = []
let baselineHeap: number | undefined
const started = performance.now()
for (const name of names) {
  const t0 = performance.now()
  const result = await runChild(name, baselineHeap === undefined ? {} : { BENCH_BASELINE_HEAP: String(baselineHeap) })
  console.error(`  ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  if (name === 'heap-baseline') {
    if (!('error' in result)) baselineHeap = result.value
    continue
  }
  const { title, target } = MEASURES[name]!
  if ('error' in result) {
    console.error(result.error)
    rows.push([title, '-', '-', `n/a: ${result.error.split('\n')[0]}`, target, '-'])
  } else rows.push([title, result.api, result.reference, result.shown, target, result.met ? 'yes' : 'NO'])
}
console.error(`  total: ${((performance.now() - started) / 1000).toFixed(0)} s`)

console.log('')
printTable(['measure', 'api', 'baseline / reference', 'result', 'target', 'met'], rows)
console.log('\nEach measure ran in a fresh process. Ratios are api / baseline throughput (medians of alternating rounds);')
console.log('(e) is the time per create at 100k spaces over that at 1k; (f) counts what the API keeps, caches included;')
console.log('(g)-(i) are the CPU time per operation on a space of 1,000 pages over that on a space of 10; (j) is the median CPU time of a search')
console.log('at 10,000 pages in 100 spaces, (k) the cost of the index update after a merge of 3 pages at 10,000 pages over 1,000,')
console.log('(l) the same in a space of 10,000 pages over a space of 100. See bench/README.md.')
console.log('(m)-(p) run the API on SQLite (a file on disk): (m), (n) over the in-memory API, (p) as (e). See bench/README.md.')
console.log("(q) is the CPU time of a page's calls by GitBook's renderer (with its site token) in a site of 1,000 pages over 10; (r) of resolving a")
console.log('published URL among 1,000 published sites over 10; (t) the median CPU time of a site search as the renderer makes it, at 10,000 pages.')
console.log(
  '(w) is the CPU time of a fresh process importing the package, creating an API and answering a first request, over one importing zod, immer and nanoid.',
)
console.log(
  '(y) serve the API over HTTP (docs-content-api serve, under autocannon) against a bare node:http floor answering the same bytes, and json-server 0.17.',
)
console.log('See bench/README.md.')
process.exitCode = 0
