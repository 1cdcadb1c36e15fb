import { MEASURES } from './measures.js'

/**
 * One measure in this (fresh) process: `node --expose-gc --import tsx bench/child.ts <measure>`.
 * Prints its result as one `RESULT {json}` line on stdout; progress and errors go to stderr.
 */
const name = process.argv[2] ?? ''
const measure = MEASURES[name]
if (!measure) {
  console.error(`unknown measure "${name}"; one of: ${Object.keys(MEASURES).join(', ')}`)
  process.exit(2)
}
try {
  console.log(`RESULT ${JSON.stringify(await measure.run())}`)
} catch (error) {
  console.log(`RESULT ${JSON.stringify({ error: (error as Error).stack ?? String(error) })}`)
}
