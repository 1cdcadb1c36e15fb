import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Result } from './measures.js'

/**
 * (w) What it costs to start using the package: a fresh Node process that imports the built
 * package (dist/index.js, as a consumer's `import('docs-content-api')` loads it), creates an API,
 * makes a user and a token, and has one request answered (`GET /v1/user`), against a fresh
 * process that imports zod, immer and nanoid (the package's three core dependencies) and uses
 * each once. Each child reports its own CPU time (`process.cpuUsage()`, user + system since the
 * process started: Node's own start-up is in both) when it is done; the rounds alternate which
 * child runs first, and the result is the median over rounds of api / baseline.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = join(ROOT, 'dist', 'index.js')
const ROUNDS = 15

/** The newest modification time of the files under `path` (the sources the build reads). */
function newest(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = 0
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)))
  return latest
}

/**
 * dist/ as the sources are now: built with `npm run build` when `file` (a built file, dist/index.js
 * by default) is missing or older than src/. The served measures (bench/served.ts) ask for dist/cli.js.
 */
export function ensureBuilt(file = DIST): void {
  const sources = Math.max(newest(join(ROOT, 'src')), newest(join(ROOT, 'tsup.config.ts')), newest(join(ROOT, 'package.json')))
  if (existsSync(file) && statSync(file).mtimeMs >= sources) return
  console.error(`  bench: ${existsSync(file) ? 'dist/ is older than src/' : 'dist/ is missing'}: npm run build`)
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  if (build.status !== 0 || !existsSync(file))
    throw new Error(`the bench needs the built package (${file}): \`npm run build\` failed (exit ${build.status}); run it and read its errors`)
}

const report = `const c = process.cpuUsage(); console.log('COST ' + JSON.stringify({ cpu: (c.user + c.system) / 1000, wall: performance.now() }))`

/** The reference of (w): a fresh process importing zod, immer and nanoid, each used once (the served start-up uses it too). */
export const BASELINE = `
const [{ z }, { produce }, { nanoid }] = await Promise.all([import('zod'), import('immer'), import('nanoid')])
const id = nanoid()
const parsed = z.object({ id: z.string() }).parse({ id })
const next = produce({ ids: [] }, (draft) => { draft.ids.push(parsed.id) })
if (next.ids[0] !== id) throw new Error('baseline: wrong result')
${report}`

const API = `
const { createDocsApi } = await import(${JSON.stringify(pathToFileURL(DIST).href)})
const api = createDocsApi({ baseUrl: 'http://bench.test' })
const user = await api.fixtures.createUser({ displayName: 'Bench', email: 'bench@bench.test' })
const token = await api.fixtures.createToken(user.id)
const response = await api.fetch(new Request('http://bench.test/v1/user', { headers: { authorization: 'Bearer ' + token } }))
const body = await response.json()
if (response.status !== 200 || body.id !== user.id) throw new Error('api: GET /v1/user answered ' + response.status)
${report}`

/** One fresh process running `script` (an ES module) from the package's root; its own CPU time, in ms. */
function child(script: string): Promise<{ cpu: number; wall: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    proc.stdout.on('data', (chunk) => (out += chunk))
    proc.on('error', reject)
    proc.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('COST '))
      if (code !== 0 || !line) reject(new Error(`a child process exited with ${code} and no figure`))
      else resolve(JSON.parse(line.slice(5)) as { cpu: number; wall: number })
    })
  })
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export async function importCostMeasure(): Promise<Result> {
  ensureBuilt()
  // One of each first, not counted: the files are read from disk once (the page cache).
  await child(BASELINE)
  await child(API)
  const api: number[] = []
  const baseline: number[] = []
  const ratios: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [API, BASELINE] : [BASELINE, API]
    const [first, second] = [await child(order[0]!), await child(order[1]!)]
    const [a, b] = order[0] === API ? [first, second] : [second, first]
    api.push(a.cpu)
    baseline.push(b.cpu)
    ratios.push(a.cpu / b.cpu)
  }
  const ratio = median(ratios)
  return { api: `${median(api).toFixed(0)} ms`, reference: `${median(baseline).toFixed(0)} ms`, value: ratio, shown: ratio.toFixed(2), met: ratio <= 3 }
}
