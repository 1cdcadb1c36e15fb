import type { Entry, IndexDef, ReadTx, Row, ScanOptions, Schema, StoragePort, StoreSnapshot, WriteTx } from './port.js'
import { deepFreeze } from './freeze.js'

/**
 * The sequence numbers of the rows under one index key, sorted by (order, seq); `orders` only
 * for an ordered index (an insertion-ordered one sorts by seq alone). Rows are found through
 * their sequence number (`Table.rows[seq]`), so an entry costs one or two numbers, not a record.
 * New rows get the highest sequence number and, in an ordered index, usually the highest order
 * (positions are appended from a sequence), so inserting is an append; a row placed between
 * others, or moved to another key, pays for a binary-search insert.
 */
class OrderedList {
  readonly seqs: number[] = []
  readonly orders: number[] | undefined

  constructor(ordered: boolean) {
    this.orders = ordered ? [] : undefined
  }

  /** Index of the first entry strictly after (order, seq). */
  upperBound(order: number, seq: number): number {
    const { orders, seqs } = this
    let lo = 0
    let hi = seqs.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const o = orders ? orders[mid]! : 0
      if (o < order || (o === order && seqs[mid]! <= seq)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  add(order: number, seq: number): void {
    const { orders, seqs } = this
    const n = seqs.length
    const lastOrder = orders ? orders[n - 1]! : 0
    if (n === 0 || lastOrder < order || (lastOrder === order && seqs[n - 1]! < seq)) {
      seqs.push(seq)
      orders?.push(order)
      return
    }
    const at = this.upperBound(order, seq)
    seqs.splice(at, 0, seq)
    orders?.splice(at, 0, order)
  }

  clone(): OrderedList {
    const copy = new OrderedList(this.orders !== undefined)
    copy.seqs.push(...this.seqs)
    copy.orders?.push(...this.orders!)
    return copy
  }

  remove(order: number, seq: number): void {
    const at = this.upperBound(order, seq) - 1
    if (at >= 0 && this.seqs[at] === seq) {
      this.seqs.splice(at, 1)
      this.orders?.splice(at, 1)
    }
  }
}

type IndexKeys = string | readonly string[] | undefined

/** Whether two results of an index's `key` name the same keys. */
function sameKeys(a: IndexKeys, b: IndexKeys): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

interface Index {
  readonly def: IndexDef<Row>
  readonly lists: Map<string, OrderedList>
}

/**
 * One collection. A row's sequence number is its slot in `rows`: given at insert (the next
 * slot), kept by updates, so `all()` is a walk of `rows` and an index holds slots only. A deleted
 * row leaves an empty slot (a sequence number is never given twice: a cursor past a deleted
 * row must not skip a new one), except that a rolled-back insert gives its slot back.
 */
interface Table {
  readonly name: string
  readonly seqById: Map<string, number>
  readonly rows: Array<Row | undefined>
  readonly indexes: Map<string, Index>
  readonly indexList: readonly Index[]
  /**
   * Held by a snapshot or another store (a fork) too: never written in place again. The first
   * write through a store copies the table for that store (see `writable`).
   */
  shared: boolean
}

function newTable(name: string, defs: Record<string, IndexDef<Row>>): Table {
  const indexes = new Map<string, Index>()
  for (const [index, def] of Object.entries(defs)) indexes.set(index, { def, lists: new Map() })
  return { name, seqById: new Map(), rows: [], indexes, indexList: [...indexes.values()], shared: false }
}

/** A table of one's own: the rows array, the id map and the index lists copied (the rows themselves are frozen, and shared). */
function cloneTable(t: Table): Table {
  const indexes = new Map<string, Index>()
  for (const [name, { def, lists }] of t.indexes) {
    const copy = new Map<string, OrderedList>()
    for (const [key, list] of lists) copy.set(key, list.clone())
    indexes.set(name, { def, lists: copy })
  }
  return { name: t.name, seqById: new Map(t.seqById), rows: t.rows.slice(), indexes, indexList: [...indexes.values()], shared: false }
}

/** The state a snapshot holds: the tables as they were (never written in place again). */
interface MemorySnapshot extends StoreSnapshot {
  readonly tables: ReadonlyMap<string, Table>
}

const SNAPSHOTS = new WeakSet<object>()

function addTo(index: Index, row: Row, seq: number): void {
  const { def, lists } = index
  const keys = def.key(row)
  if (keys === undefined) return
  const order = def.order ? def.order(row) : 0
  for (const key of typeof keys === 'string' ? [keys] : keys) {
    let list = lists.get(key)
    if (!list) lists.set(key, (list = new OrderedList(def.order !== undefined)))
    list.add(order, seq)
  }
}

function removeFrom(index: Index, row: Row, seq: number): void {
  const { def, lists } = index
  const keys = def.key(row)
  if (keys === undefined) return
  const order = def.order ? def.order(row) : 0
  for (const key of typeof keys === 'string' ? [keys] : keys) {
    const list = lists.get(key)
    if (!list) continue
    list.remove(order, seq)
    if (list.seqs.length === 0) lists.delete(key)
  }
}

/** Move a row's index entries from version `before` to version `after`; untouched when its keys and order did not change. */
function reindex(table: Table, before: Row, after: Row, seq: number): void {
  for (const index of table.indexList) {
    const { def } = index
    if (sameKeys(def.key(before), def.key(after)) && (!def.order || def.order(before) === def.order(after))) continue
    removeFrom(index, before, seq)
    addTo(index, after, seq)
  }
}

/** The slots an undo log changed, each once: its first record holds the row before, the table the row now. */
function changesOf(undoLog: ReadonlyArray<Table | number | Row | undefined>, tables: ReadonlyMap<string, Table>): SlotChange[] {
  const seen = new Map<string, Set<number>>()
  const out: SlotChange[] = []
  for (let i = 0; i < undoLog.length; i += 3) {
    const { name } = undoLog[i] as Table
    const seq = undoLog[i + 1] as number
    let slots = seen.get(name)
    if (!slots) seen.set(name, (slots = new Set()))
    if (slots.has(seq)) continue
    slots.add(seq)
    out.push({ collection: name, seq, before: undoLog[i + 2] as Row | undefined, after: tables.get(name)!.rows[seq] })
  }
  return out
}

/**
 * The in-memory adapter.
 *
 * Snapshots: `snapshot()` keeps references to the current tables and marks them shared, O(number
 * of collections), whatever the store holds. A shared table is never written in place: the first
 * write to it afterwards copies that one table (its id map, slots and index lists; rows are
 * frozen and stay shared), so a snapshot copies nothing while nothing changes, and then only what
 * is written. `restore` puts the kept tables back; `fork` starts another store on the same tables.
 *
 * Isolation: the port is synchronous, and JavaScript runs a synchronous function to completion,
 * so no other transaction can observe or interleave with one that is running.
 * Atomicity: every write appends an undo record (the table, the slot, the row it held before)
 * to one log; a transaction remembers where the log stood when it began, and one that throws
 * replays its records backwards down to that mark. A commit just moves the mark (the outermost
 * one empties the log), so it costs O(rows written), never a copy of the store.
 */
export function createMemoryStore<S extends Schema>(schema: S): StoragePort<S> {
  return memoryStore(schema, newTables(schema))
}

function newTables(schema: Schema): Map<string, Table> {
  const tables = new Map<string, Table>()
  for (const name of Object.keys(schema)) tables.set(name, newTable(name, schema[name]!.indexes as Record<string, IndexDef<Row>>))
  return tables
}

/**
 * One slot a committed transaction changed: the collection, the sequence number, the row the slot
 * held before and the row it holds now (undefined: none, an insert's before or a delete's after).
 */
export interface SlotChange {
  readonly collection: string
  readonly seq: number
  readonly before: Row | undefined
  readonly after: Row | undefined
}

/**
 * An in-memory store that is a replica of state kept elsewhere (the PostgreSQL store, src/postgres):
 * `committed` is told the slots each outermost transaction changed, and `apply` writes slots as
 * another replica changed them, at their sequence numbers (so every replica gives a row the same
 * one), outside transactions. `nextSeq` / `setNextSeq`: the slot an insert takes next in a
 * collection (deleted slots are never given again, so a replica loaded without them is told).
 */
export interface ReplicaStore<S extends Schema> {
  readonly store: StoragePort<S>
  apply(changes: ReadonlyArray<{ collection: string; seq: number; row: Row | undefined }>): void
  nextSeq(collection: string): number
  setNextSeq(collection: string, next: number): void
  /** Whether no collection holds a row (O(collections)). */
  isEmpty(): boolean
}

export function createReplicaStore<S extends Schema>(schema: S, committed: (changes: SlotChange[]) => void): ReplicaStore<S> {
  const tables = newTables(schema)
  let depth = 0
  const store = memoryStore(schema, tables, {
    committed,
    depth: (d) => (depth = d),
  })
  const table = (collection: string): Table => {
    const t = tables.get(collection)
    if (!t) throw new Error(`Unknown collection "${collection}"`)
    return t
  }
  return {
    store,
    isEmpty: () => [...tables.values()].every((t) => t.seqById.size === 0),
    nextSeq: (collection) => table(collection).rows.length,
    setNextSeq: (collection, next) => {
      const t = table(collection)
      if (t.rows.length < next) t.rows.length = next
    },
    apply: (changes) => {
      if (depth > 0) throw new Error('apply() cannot run inside a transaction')
      for (const { collection, seq, row } of changes) {
        let t = table(collection)
        if (t.shared) tables.set(collection, (t = cloneTable(t)))
        const current = t.rows[seq]
        const frozen = row && deepFreeze(row)
        if (current && frozen) {
          t.rows[seq] = frozen
          if (current.id !== frozen.id) t.seqById.delete(current.id)
          t.seqById.set(frozen.id, seq)
          reindex(t, current, frozen, seq)
        } else if (current) {
          for (const index of t.indexList) removeFrom(index, current, seq)
          t.seqById.delete(current.id)
          t.rows[seq] = undefined
        } else if (frozen) {
          if (t.rows.length <= seq) t.rows.length = seq + 1
          t.rows[seq] = frozen
          t.seqById.set(frozen.id, seq)
          for (const index of t.indexList) addTo(index, frozen, seq)
        }
      }
    },
  }
}

/** What a replica (createReplicaStore) is told. */
interface Observer {
  committed(changes: SlotChange[]): void
  depth(depth: number): void
}

function memoryStore<S extends Schema>(schema: S, tables: Map<string, Table>, observer?: Observer): StoragePort<S> {
  /** Undo records, three slots each: table, slot, the row the slot held before (undefined: none). */
  const undoLog: Array<Table | number | Row | undefined> = []
  let depth = 0

  const table = (collection: string): Table => {
    const t = tables.get(collection)
    if (!t) throw new Error(`Unknown collection "${collection}"`)
    return t
  }
  const indexOf = (collection: string, index: string): Index => {
    const i = table(collection).indexes.get(index)
    if (!i) throw new Error(`Unknown index "${collection}.${index}"`)
    return i
  }
  /** The table to write to: a shared one is first copied for this store. */
  const writable = (collection: string): Table => {
    const t = table(collection)
    if (!t.shared) return t
    const own = cloneTable(t)
    tables.set(collection, own)
    return own
  }
  const outsideTransactions = (what: string): void => {
    if (depth > 0) throw new Error(`${what} cannot run inside a transaction`)
  }
  /** Mark every current table shared and keep references to them. */
  const keep = (): MemorySnapshot => {
    for (const t of tables.values()) t.shared = true
    const snapshot: MemorySnapshot = Object.freeze({ kind: 'store-snapshot' as const, tables: new Map(tables) })
    SNAPSHOTS.add(snapshot)
    return snapshot
  }
  const logWrite = (t: Table, seq: number, before: Row | undefined): void => {
    if (depth === 0) throw new Error('Writes need a transaction')
    undoLog.push(t, seq, before)
  }

  /** Put the slot back as it was before a write (undo records are replayed newest first). */
  const undo = (t: Table, seq: number, before: Row | undefined): void => {
    const current = t.rows[seq]
    if (current && before) {
      t.rows[seq] = before
      reindex(t, current, before, seq)
    } else if (current) {
      // an insert: its slot is the last one (inserts are undone newest first), given back
      for (const index of t.indexList) removeFrom(index, current, seq)
      t.seqById.delete(current.id)
      if (seq === t.rows.length - 1) t.rows.length = seq
      else t.rows[seq] = undefined
    } else if (before) {
      t.rows[seq] = before
      t.seqById.set(before.id, seq)
      for (const index of t.indexList) addTo(index, before, seq)
    }
  }

  const reader: ReadTx<S> = {
    get: (collection, id) => {
      const t = table(collection)
      const seq = t.seqById.get(id)
      return (seq === undefined ? undefined : t.rows[seq]) as never
    },
    scan: (collection, index, key, options?: ScanOptions) => {
      const list = indexOf(collection, index).lists.get(key)
      if (!list) return []
      const rows = table(collection).rows
      const { seqs, orders } = list
      const start = options?.after === undefined ? 0 : list.upperBound(options.after.order, options.after.seq)
      const end = options?.limit === undefined ? seqs.length : Math.min(seqs.length, start + options.limit)
      const out: Entry<never>[] = []
      for (let i = start; i < end; i++) {
        const seq = seqs[i]!
        out.push({ order: orders ? orders[i]! : 0, seq, row: rows[seq] as never })
      }
      return out
    },
    count: (collection, index, key) => indexOf(collection, index).lists.get(key)?.seqs.length ?? 0,
    seqOf: (collection, id) => table(collection).seqById.get(id),
    all: (collection) => table(collection).rows.filter((row) => row !== undefined) as never[],
  }

  const writer: WriteTx<S> = {
    ...reader,
    insert: (collection, row) => {
      const t = writable(collection)
      if (t.seqById.has(row.id)) throw new Error(`Duplicate id "${row.id}" in "${collection}"`)
      const seq = t.rows.length
      logWrite(t, seq, undefined)
      const frozen = deepFreeze(row)
      t.rows.push(frozen)
      t.seqById.set(frozen.id, seq)
      for (const index of t.indexList) addTo(index, frozen, seq)
      return frozen
    },
    update: (collection, row) => {
      const t = writable(collection)
      const seq = t.seqById.get(row.id)
      if (seq === undefined) throw new Error(`No row "${row.id}" in "${collection}"`)
      const before = t.rows[seq]!
      logWrite(t, seq, before)
      const frozen = deepFreeze(row)
      t.rows[seq] = frozen
      reindex(t, before, frozen, seq)
      return frozen
    },
    delete: (collection, id) => {
      if (!table(collection).seqById.has(id)) return false
      const t = writable(collection)
      const seq = t.seqById.get(id)!
      const before = t.rows[seq]!
      logWrite(t, seq, before)
      t.rows[seq] = undefined
      t.seqById.delete(id)
      for (const index of t.indexList) removeFrom(index, before, seq)
      return true
    },
  }

  return {
    schema,
    read: (fn) => fn(reader),
    transaction: (fn) => {
      const mark = undoLog.length
      depth++
      observer?.depth(depth)
      try {
        const result = fn(writer)
        if (result && typeof (result as { then?: unknown }).then === 'function') {
          throw new Error('A transaction function must be synchronous: the port gives no isolation across awaits')
        }
        // A nested transaction commits into its parent: its records stay for the parent's rollback.
        if (depth === 1) {
          if (observer && undoLog.length > 0) observer.committed(changesOf(undoLog, tables))
          undoLog.length = 0
        }
        return result
      } catch (error) {
        for (let i = undoLog.length - 3; i >= mark; i -= 3) undo(undoLog[i] as Table, undoLog[i + 1] as number, undoLog[i + 2] as Row | undefined)
        undoLog.length = mark
        throw error
      } finally {
        depth--
        observer?.depth(depth)
      }
    },
    snapshot: () => {
      outsideTransactions('snapshot()')
      return keep()
    },
    restore: (snapshot) => {
      outsideTransactions('restore()')
      if (!SNAPSHOTS.has(snapshot)) throw new TypeError('restore() takes a snapshot made by snapshot() of an in-memory store')
      const kept = (snapshot as MemorySnapshot).tables
      if (kept.size !== tables.size || [...kept.keys()].some((name) => !tables.has(name)))
        throw new TypeError('restore(): the snapshot is of a store with other collections')
      // The kept tables stay shared: the snapshot still holds them, and may be restored again.
      for (const [name, t] of kept) tables.set(name, t)
    },
    fork: () => {
      outsideTransactions('fork()')
      return memoryStore(schema, new Map(keep().tables))
    },
  }
}
