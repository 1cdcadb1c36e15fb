/**
 * Run by journal-memory.test.ts in a child `node --expose-gc` (a vitest worker has no `gc()`):
 * `count` requests of `megabytes` MiB each, from a signed-in user of no organization, to a change
 * request that does not exist (each a 400: the body is no content batch); prints, as JSON, the
 * heap after a collection before and after them, what was sent, and the journal's figures.
 */
import { createDocsApi } from '../../src/index.js'

const [count, megabytes] = process.argv.slice(2).map(Number) as [number, number]
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc')
const heap = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const api = createDocsApi({ baseUrl: 'http://localhost' })
const user = await api.fixtures.createUser({ displayName: 'Outsider', email: 'out@elsewhere.test' })
const token = await api.fixtures.createToken(user.id)
const send = async (size: number) => {
  const body = `{"changes":[{"pad":"${'x'.repeat(size)}"}]}`
  const response = await api.fetch(
    new Request('http://localhost/v1/spaces/nospace/change-requests/nocr/content', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    }),
  )
  await response.text()
  return { status: response.status, length: body.length }
}
// The code paths warmed, and the journal's own (small) entries in the baseline.
for (let i = 0; i < 5; i++) await send(100)
const before = heap()
let sent = 0
const statuses = new Set<number>()
for (let i = 0; i < count; i++) {
  const { status, length } = await send(megabytes * 1024 * 1024)
  statuses.add(status)
  sent += length
}
const after = heap()
console.log(
  JSON.stringify({
    before,
    after,
    sent,
    statuses: [...statuses],
    entries: api.journal.entries.length,
    size: api.journal.size,
    sizeLimit: api.journal.sizeLimit,
  }),
)
