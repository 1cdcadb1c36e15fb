// Issue 26, prototype (b): one API-like process doing GET-like operations (the reads of a real
// GET /v1/spaces/{id}) one at a time with pg-native's synchronous queries, for a given time.
// `node pg-sync-worker.mjs <DATABASE_URL> <keys.json> <ms> <folder holding pg-native>`: prints
// the operations done. pg-native comes from a scratch install outside the repository.
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import process from 'node:process'

const [url, keysFile, ms, dir] = process.argv.slice(2)
const Client = createRequire(join(dir, 'package.json'))('pg-native')
const keys = JSON.parse(readFileSync(keysFile, 'utf8'))
const client = new Client()
client.connectSync(url)
client.prepareSync('get', 'SELECT data FROM rows WHERE collection = $1 AND id = $2', 2)
const until = Date.now() + Number(ms)
let done = 0
while (Date.now() < until) {
  for (const [c, id] of keys[done % keys.length]) {
    const r = client.executeSync('get', [c, id])
    if (r.length) JSON.parse(r[0].data)
  }
  done++
}
client.end()
process.stdout.write(`${done}\n`)
