/**
 * Run by import-memory.test.ts in a child `node --expose-gc` (a vitest worker has no `gc()`): one
 * Git Sync import of the repository at `url`, whose test server runs in the parent (its buffers
 * are not counted here). Prints, as JSON, the memory after a collection before the import (heap
 * and ArrayBuffers), what the job held when it stored its largest asset (measured in the blob
 * store's `put`, after a collection: the pack, the asset read, and whatever copies of them the job
 * still holds), the peak resident size, and the memory after the import.
 */
import { createDocsApi } from '../../../src/index.js'
import { createMemoryBlobs } from '../../../src/storage/blobs.js'

const [url, warmUrl] = process.argv.slice(2) as [string, string]
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc')
const used = () => {
  gc()
  gc()
  const m = process.memoryUsage()
  return { rss: m.rss, heapAndBuffers: m.heapUsed + m.external }
}

let atPut = 0
let rssAtPut = 0
const memory = createMemoryBlobs()
const blobs = {
  ...memory,
  put(bytes: Uint8Array, contentType: string, key?: string, options?: { owned?: boolean }) {
    if (bytes.byteLength > 1024 * 1024) {
      const m = used()
      atPut = Math.max(atPut, m.heapAndBuffers)
      rssAtPut = Math.max(rssAtPut, m.rss)
    }
    return memory.put(bytes, contentType, key, options)
  },
}
const api = createDocsApi({ baseUrl: 'http://localhost', allowPrivateNetwork: true, blobs })
const user = await api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: user.id, role: 'admin' }] })
const token = await api.fixtures.createToken(user.id)
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
const importInto = async (space: string, from = url) => {
  const response = await api.fetch(
    new Request(`http://localhost/v1/spaces/${space}/git/import`, { method: 'POST', headers, body: JSON.stringify({ url: from, ref: 'refs/heads/main' }) }),
  )
  if (response.status !== 204) throw new Error(`import: ${response.status} ${await response.text()}`)
  await api.idle()
  const info = (await (await api.fetch(new Request(`http://localhost/v1/spaces/${space}/git/info`, { headers }))).json()) as { operation: { state: string } }
  if (info.operation.state !== 'success') throw new Error(`import: ${JSON.stringify(info.operation)}`)
}
const space = await api.fixtures.createSpace(org.id, { title: 'Docs' })
// isomorphic-git loaded and the code paths warmed before the baseline.
const warm = await api.fixtures.createSpace(org.id, { title: 'Warm' })
await importInto(warm.id, warmUrl)
atPut = 0
rssAtPut = 0

const before = used()
await importInto(space.id)
const maxRss = process.resourceUsage().maxRSS * 1024
// The engine gives an array buffer's memory back on a helper thread after the collection that
// found it unreachable: on a loaded machine that thread may not have run yet when the collection
// returns, and `external` still counts a buffer freed. A turn of the event loop lets it finish.
await new Promise((resolve) => setTimeout(resolve, 20))
const after = used()
console.log(JSON.stringify({ before, atPut, rssAtPut, maxRss, after }))
