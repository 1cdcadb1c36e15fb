import type { IndexDef, Row, Schema } from '../storage/port.js'
import type { Database, Statement } from './driver.js'
import { indexTable, rowsTable } from './layout.js'

/** The prepared statements of one index (see layout.ts for its table). */
export interface IndexTable {
  readonly name: string
  readonly def: IndexDef<Row>
  readonly add: Statement
  readonly remove: Statement
  /** [ord, seq, id] rows of one key, in (ord, seq) order, at most `limit` (-1: all). */
  readonly scanFirst: Statement
  /** The same, strictly after a position (a cursor). */
  readonly scanAfter: Statement
  readonly count: Statement
}

/** The prepared statements of one collection and its indexes. */
export interface Table {
  readonly name: string
  /** [seq, data] of an id. */
  readonly byId: Statement
  /** data of a sequence number. */
  readonly bySeq: Statement
  /** seq of an id. */
  readonly seqOf: Statement
  readonly insert: Statement
  readonly update: Statement
  readonly remove: Statement
  /** [seq, id, data] of every row, in sequence order. */
  readonly all: Statement
  /** 1 when the collection holds a row. */
  readonly any: Statement
  readonly indexes: ReadonlyMap<string, IndexTable>
  readonly indexList: readonly IndexTable[]
}

function prepareIndex(db: Database, collection: string, name: string, def: IndexDef<Row>): IndexTable {
  const t = indexTable(collection, name)
  return {
    name,
    def,
    add: db.prepare(`INSERT OR IGNORE INTO ${t} (key, ord, seq, id) VALUES (?, ?, ?, ?)`),
    remove: db.prepare(`DELETE FROM ${t} WHERE key = ? AND ord = ? AND seq = ?`),
    // A range read of the primary key (key, ord, seq): no sort, no table scan (test/sqlite checks the plan).
    scanFirst: db.prepare(`SELECT ord, seq, id FROM ${t} WHERE key = ? ORDER BY ord, seq LIMIT ?`).raw(),
    scanAfter: db.prepare(`SELECT ord, seq, id FROM ${t} WHERE key = ? AND (ord, seq) > (?, ?) ORDER BY ord, seq LIMIT ?`).raw(),
    count: db.prepare(`SELECT count(*) FROM ${t} WHERE key = ?`).pluck(),
  }
}

/** Prepare every statement the store runs, once, from the schema. */
export function prepareTables(db: Database, schema: Schema): Map<string, Table> {
  const tables = new Map<string, Table>()
  for (const [collection, def] of Object.entries(schema)) {
    const t = rowsTable(collection)
    const indexes = new Map<string, IndexTable>()
    for (const [name, indexDef] of Object.entries(def.indexes as Record<string, IndexDef<Row>>)) indexes.set(name, prepareIndex(db, collection, name, indexDef))
    tables.set(collection, {
      name: collection,
      byId: db.prepare(`SELECT seq, data FROM ${t} WHERE id = ?`).raw(),
      bySeq: db.prepare(`SELECT data FROM ${t} WHERE seq = ?`).pluck(),
      seqOf: db.prepare(`SELECT seq FROM ${t} WHERE id = ?`).pluck(),
      insert: db.prepare(`INSERT INTO ${t} (id, data) VALUES (?, ?)`),
      update: db.prepare(`UPDATE ${t} SET data = ? WHERE seq = ?`),
      remove: db.prepare(`DELETE FROM ${t} WHERE seq = ?`),
      all: db.prepare(`SELECT seq, id, data FROM ${t} ORDER BY seq`).raw(),
      any: db.prepare(`SELECT 1 FROM ${t} LIMIT 1`).pluck(),
      indexes,
      indexList: [...indexes.values()],
    })
  }
  return tables
}
