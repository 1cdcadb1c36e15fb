import type { IndexDef, Row, Schema } from '../storage/port.js'
import type { Database } from './driver.js'

/**
 * How a store lays its rows out in a SQLite file, made from the schema declaration alone (no
 * collection is named here): one table of rows per collection and one table per declared index,
 * so a scan is a range read of that index's primary key and never a table scan.
 *
 *   "rows.<collection>"          seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE, data TEXT (the row as JSON)
 *   "index.<collection>.<name>"  (key, ord, seq) primary key, id; WITHOUT ROWID
 *   meta                         format, version, and a fingerprint per built index
 *
 * `seq` is the row's sequence number (the port's `Entry.seq`): AUTOINCREMENT never gives one
 * twice, even after the newest row is deleted and the file reopened, and a rolled-back insert
 * gives its number back (the counter lives in sqlite_sequence, inside the transaction). `ord`
 * is the index's order value (0 in an insertion-ordered index). The index keeps the row's id so
 * that a scan whose rows are cached reads the index alone.
 */

/** What the meta table's `format` says: this file is a docs-content-api store. */
export const SQLITE_FORMAT = 'docs-content-api/sqlite'
/**
 * The layout's version. A file of an older version is migrated when opened (MIGRATIONS), one of
 * a newer version refused: this code cannot know what a later layout means.
 */
export const SQLITE_FORMAT_VERSION = 1

/** `MIGRATIONS[v]` takes a file from version v to v + 1, inside the opening transaction. None yet: 1 is the first layout. */
const MIGRATIONS: Record<number, (db: Database) => void> = {}

/** Thrown when a file cannot be opened as a store (not ours, a newer layout, in use). */
export class SqliteFormatError extends Error {
  override readonly name = 'SqliteFormatError'
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export const rowsTable = (collection: string): string => `"rows.${collection}"`
export const indexTable = (collection: string, index: string): string => `"index.${collection}.${index}"`

/**
 * What an index's rows depend on: its functions' source. A changed key or order function
 * (another branch of the code, a new release) rebuilds the index when the file is opened. A change
 * inside a helper the function calls does not show here: `rebuildIndexes` forces a rebuild.
 */
function fingerprint(def: IndexDef<Row>): string {
  return `1|${def.key.toString()}|${def.order?.toString() ?? ''}`
}

/** The keys a row is indexed under (none when the key function gives undefined), deduplicated. */
export function keysOf(def: IndexDef<Row>, row: Row): readonly string[] {
  const keys = def.key(row)
  if (keys === undefined) return []
  if (typeof keys === 'string') return [keys]
  return keys.length < 2 ? keys : [...new Set(keys)]
}

function readMeta(db: Database): Map<string, string> {
  const rows = db.prepare('SELECT key, value FROM meta').raw().all() as Array<[string, string]>
  return new Map(rows)
}

/** Check the file's format and version, migrating an older one; a new file gets the current layout. */
function checkFormat(db: Database, file: string): void {
  const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[])
  if (!tables.has('meta')) {
    if ([...tables].some((t) => t !== 'sqlite_sequence')) {
      throw new SqliteFormatError(
        `${file} is a SQLite database but not a docs-content-api store (it has tables and no meta table); give the store a file of its own`,
      )
    }
    db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID')
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)').run('format', SQLITE_FORMAT, 'version', String(SQLITE_FORMAT_VERSION))
    return
  }
  const meta = readMeta(db)
  if (meta.get('format') !== SQLITE_FORMAT)
    throw new SqliteFormatError(`${file} is not a docs-content-api store (its meta table says format ${JSON.stringify(meta.get('format') ?? null)})`)
  const version = Number(meta.get('version'))
  if (!Number.isInteger(version) || version < 1) throw new SqliteFormatError(`${file}: unreadable store version ${JSON.stringify(meta.get('version') ?? null)}`)
  if (version > SQLITE_FORMAT_VERSION) {
    throw new SqliteFormatError(
      `${file} was written by a newer docs-content-api (store format version ${version}); this one reads versions up to ${SQLITE_FORMAT_VERSION}: upgrade docs-content-api, or open a copy made before the upgrade`,
    )
  }
  for (let v = version; v < SQLITE_FORMAT_VERSION; v++) {
    const migrate = MIGRATIONS[v]
    if (!migrate) throw new SqliteFormatError(`${file}: store format version ${v} cannot be migrated to ${SQLITE_FORMAT_VERSION} by this docs-content-api`)
    migrate(db)
  }
  if (version !== SQLITE_FORMAT_VERSION) db.prepare("UPDATE meta SET value = ? WHERE key = 'version'").run(String(SQLITE_FORMAT_VERSION))
}

/** Fill an index table from its collection's rows (a new index, or one whose definition changed). */
function buildIndex(db: Database, collection: string, index: string, def: IndexDef<Row>): void {
  const table = indexTable(collection, index)
  db.exec(`DROP TABLE IF EXISTS ${table}`)
  db.exec(`CREATE TABLE ${table} (key TEXT NOT NULL, ord REAL NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL, PRIMARY KEY (key, ord, seq)) WITHOUT ROWID`)
  const add = db.prepare(`INSERT OR IGNORE INTO ${table} (key, ord, seq, id) VALUES (?, ?, ?, ?)`)
  // In batches: a connection cannot write while a statement of it is still iterating.
  const batch = db.prepare(`SELECT seq, data FROM ${rowsTable(collection)} WHERE seq > ? ORDER BY seq LIMIT 1000`).raw()
  for (let after = -1, rows: Array<[number, string]>; (rows = batch.all(after) as Array<[number, string]>).length > 0; after = rows[rows.length - 1]![0]) {
    for (const [seq, data] of rows) {
      const row = JSON.parse(data) as Row
      const ord = def.order ? def.order(row) : 0
      for (const key of keysOf(def, row)) add.run(key, ord, seq, row.id)
    }
  }
}

/**
 * Make the file fit the schema, in one transaction: check its format, create the tables of new
 * collections, (re)build indexes that are new or changed, and drop index tables the schema no
 * longer declares (they are derived data). Rows of a collection the schema no longer declares stay
 * in the file, untouched: dropping data is not the adapter's call.
 */
export function prepareLayout(db: Database, schema: Schema, file: string, rebuildIndexes: boolean): void {
  db.transaction(() => {
    checkFormat(db, file)
    const meta = readMeta(db)
    const setMeta = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)')
    const declared = new Set<string>()
    for (const [collection, def] of Object.entries(schema)) {
      if (!NAME.test(collection)) throw new TypeError(`SQLite store: collection name ${JSON.stringify(collection)} must match ${NAME}`)
      db.exec(`CREATE TABLE IF NOT EXISTS ${rowsTable(collection)} (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, data TEXT NOT NULL)`)
      for (const [index, indexDef] of Object.entries(def.indexes as Record<string, IndexDef<Row>>)) {
        if (!NAME.test(index)) throw new TypeError(`SQLite store: index name ${JSON.stringify(`${collection}.${index}`)} must match ${NAME}`)
        const name = `index:${collection}.${index}`
        declared.add(name)
        const print = fingerprint(indexDef)
        if (!rebuildIndexes && meta.get(name) === print) continue
        buildIndex(db, collection, index, indexDef)
        setMeta.run(name, print)
      }
    }
    for (const name of meta.keys()) {
      if (!name.startsWith('index:') || declared.has(name)) continue
      const [collection, index] = name.slice(6).split('.') as [string, string]
      db.exec(`DROP TABLE IF EXISTS ${indexTable(collection, index)}`)
      db.prepare('DELETE FROM meta WHERE key = ?').run(name)
    }
  }).immediate()
}
