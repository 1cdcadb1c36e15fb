// Start-up and memory of a process on a large database (issue 26, docs/design/postgres.md): a PostgreSQL replica, the
// in-memory API loading a state document, a SQLite file. `DATABASE_URL=... node --import tsx bench/pg-start.ts 10000`
// (scripts/postgres-test.sh start gives one); each contender runs twice, in a fresh process (--expose-gc).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDocsApi } from '../src/index.js'
import { openPostgresData } from '../src/postgres.js'
import { openDataDir } from '../src/sqlite.js'

const [role, arg, arg2] = process.argv.slice(2)
const mem = () => {
  ;(globalThis as { gc?: () => void }).gc?.()
  const m = process.memoryUsage()
  return { rssMB: Math.round(m.rss / 1048576), heapMB: Math.round(m.heapUsed / 1048576) }
}
if (role === 'pg') {
  const t = performance.now()
  const data = await openPostgresData(arg!, { blobsDir: arg2! })
  const api = await data.store.shared.exclusive(() => createDocsApi({ store: data.store, blobs: data.blobs }))
  const ms = performance.now() - t
  console.log(JSON.stringify({ role, ms: Math.round(ms), ...mem(), spaces: api.store.read((tx) => tx.all('spaces').length) }))
  await data.close()
} else if (role === 'memory') {
  const doc = JSON.parse(readFileSync(arg!, 'utf8'))
  const t = performance.now()
  const api = createDocsApi({ seed: doc })
  const ms = performance.now() - t
  console.log(JSON.stringify({ role, ms: Math.round(ms), ...mem(), spaces: api.store.read((tx) => tx.all('spaces').length) }))
} else if (role === 'sqlite') {
  const t = performance.now()
  const data = openDataDir(arg!)
  const api = createDocsApi({ store: data.store, blobs: data.blobs })
  const ms = performance.now() - t
  console.log(JSON.stringify({ role, ms: Math.round(ms), ...mem(), spaces: api.store.read((tx) => tx.all('spaces').length) }))
  data.close()
} else {
  const { apiWorld } = await import('../bench/world.js')
  const n = Number(role ?? 10000)
  const w = await apiWorld(n)
  const doc = w.api.dump()
  const dir = mkdtempSync(join(tmpdir(), 'pgstart-'))
  const file = join(dir, 'state.json')
  writeFileSync(file, JSON.stringify(doc))
  const url = new URL(process.env.DATABASE_URL!)
  const { default: pg } = await import('pg')
  const admin = new pg.Client({ connectionString: url.toString() })
  await admin.connect()
  await admin.query('DROP DATABASE IF EXISTS pgstart WITH (FORCE)')
  await admin.query('CREATE DATABASE pgstart')
  await admin.end()
  url.pathname = '/pgstart'
  const data = await openPostgresData(url.toString(), { blobsDir: join(dir, 'blobs') })
  await data.store.shared.exclusive(() => createDocsApi({ store: data.store, blobs: data.blobs, seed: doc }))
  await data.close()
  const sq = openDataDir(join(dir, 'sqlite'))
  createDocsApi({ store: sq.store, blobs: sq.blobs, seed: doc })
  sq.close()
  const run = (...args: string[]) =>
    execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, ...args], { encoding: 'utf8' }).trim()
  for (let i = 0; i < 2; i++) {
    console.log(run('pg', url.toString(), join(dir, 'blobs')))
    console.log(run('memory', file))
    console.log(run('sqlite', join(dir, 'sqlite')))
  }
}
