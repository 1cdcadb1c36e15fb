import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { DEMO_PAGES_FILE, generateDemoPages } from '../scripts/demo-pages.js'

// The demo's markdown, read ahead of time (scripts/demo-pages.ts): a change to the demo's markdown
// or to the markdown reader must come with `npm run gen:demo-pages`.
it('src/demo-pages.ts is the demo markdown as the API reads it now', async () => {
  const text = await generateDemoPages()
  expect(readFileSync(DEMO_PAGES_FILE, 'utf8') === text, `${DEMO_PAGES_FILE} is stale: run npm run gen:demo-pages`).toBe(true)
})
