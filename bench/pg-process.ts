import { createServer } from 'node:http'
import { createDocsApi } from '../src/index.js'
import { toNodeHandler } from '../src/node.js'
import { openPostgresData } from '../src/postgres.js'

/**
 * One API process of measure `pg-scale` (bench/postgres.ts): `node --import tsx bench/pg-process.ts
 * <database url> <blobs dir>` opens the API on the PostgreSQL database (which the measure seeded
 * before), serves it with `toNodeHandler` on 127.0.0.1 on a free port and prints `listening <port>`.
 * It stops on SIGTERM (closing its store: its connections and leases go).
 */

const [url, blobsDir] = process.argv.slice(2)
if (!url || !blobsDir) {
  console.error('usage: pg-process.ts <database url> <blobs dir>')
  process.exit(2)
}
const data = await openPostgresData(url, { blobsDir })
const api = await data.store.shared.exclusive(() => createDocsApi({ baseUrl: 'http://localhost:4000', store: data.store, blobs: data.blobs }))
const server = createServer(toNodeHandler(api))
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`))
process.once('SIGTERM', () => {
  server.close()
  server.closeAllConnections()
  void data.close().finally(() => process.exit(0))
})
