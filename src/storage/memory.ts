import { freeze } from 'immer'
import type { Entry, ReadTx, Row, ScanOptions, Schema, StoragePort, WriteTx } from './port.js'

interface Stored {
  seq: number
  row: Row
}

/**
 * The rows under one index key, sorted by (order, seq) in three parallel arrays. New rows get the
 * highest sequence number and, in an ordered index, usually the highest order (positions are
 * appended from a sequence), so inserting is an append; a row placed between others, or moved
 * to another key, pays for a binary-search insert.
 */
class OrderedList {
  orders: number[] = []
  seqs: number[] = []
  ids: string[] = []

  /** Index of the first entry strictly after (order, seq). */
  upperBound(order: number, seq: number): number {
    let lo = 0
    let hi = this.seqs.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const o = this.orders[mid]!
      if (o < order || (o === order && this.seqs[mid]! <= seq)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  add(order: number, seq: number, id: string): void {
    const n = this.seqs.length
    const lastOrder = this.orders[n - 1]!
    if (n === 0 || lastOrder < order || (lastOrder === order && this.seqs[n - 1]! < seq)) {
      this.orders.push(order)
      this.seqs.push(seq)
      this.ids.push(id)
      return
    }
    const at = this.upperBound(order, seq)
    this.orders.splice(at, 0, order)
    this.seqs.splice(at, 0, seq)
    this.ids.splice(at, 0, id)
  }

  remove(order: number, seq: number): void {
    const at = this.upperBound(order, seq) - 1
    if (at >= 0 && this.seqs[at] === seq) {
      this.orders.splice(at, 1)
      this.seqs.splice(at, 1)
      this.ids.splice(at, 1)
    }
  }
}

type IndexKeys = string | readonly string[] | undefined

function keysOf(k: IndexKeys): readonly string[] {
  if (k === undefined) return []
  return typeof k === 'string' ? [k] : k
}

/** One undo record: the state of `id` in `collection` before a write (undefined: it did not exist). */
interface Undo {
  collection: string
  id: string
  before: Stored | undefined
}

/**
 * The in-memory adapter.
 *
 * Isolation: the port is synchronous, and JavaScript runs a synchronous function to completion,
 * so no other transaction can observe or interleave with one that is running.
 * Atomicity: every write pushes an undo record (the row's previous state); a transaction that
 * throws replays its records backwards. A commit just drops the log, so it costs O(rows written),
 * never a copy of the store.
 */
export function createMemoryStore<S extends Schema>(schema: S): StoragePort<S> {
  const rows = new Map<string, Map<string, Stored>>()
  const indexes = new Map<string, Map<string, Map<string, OrderedList>>>()
  for (const name of Object.keys(schema)) {
    rows.set(name, new Map())
    const byIndex = new Map<string, Map<string, OrderedList>>()
    for (const index of Object.keys(schema[name]!.indexes)) byIndex.set(index, new Map())
    indexes.set(name, byIndex)
  }
  let nextSeq = 1
  let undoLog: Undo[] | undefined

  const table = (collection: string): Map<string, Stored> => {
    const t = rows.get(collection)
    if (!t) throw new Error(`Unknown collection "${collection}"`)
    return t
  }
  const indexFor = (collection: string, index: string): Map<string, OrderedList> => {
    const i = indexes.get(collection)?.get(index)
    if (!i) throw new Error(`Unknown index "${collection}.${index}"`)
    return i
  }

  const indexRow = (collection: string, stored: Stored, add: boolean): void => {
    const defs = schema[collection]!.indexes
    for (const name of Object.keys(defs)) {
      const idx = indexFor(collection, name)
      const def = defs[name]!
      const order = def.order ? def.order(stored.row) : 0
      for (const key of keysOf(def.key(stored.row))) {
        let list = idx.get(key)
        if (add) {
          if (!list) idx.set(key, (list = new OrderedList()))
          list.add(order, stored.seq, stored.row.id)
        } else if (list) {
          list.remove(order, stored.seq)
          if (list.seqs.length === 0) idx.delete(key)
        }
      }
    }
  }

  /** Put `stored` (or nothing) at `id`, keeping indexes in step. */
  const put = (collection: string, id: string, stored: Stored | undefined): void => {
    const t = table(collection)
    const before = t.get(id)
    if (before) indexRow(collection, before, false)
    if (stored) {
      t.set(id, stored)
      indexRow(collection, stored, true)
    } else t.delete(id)
  }

  const write = (collection: string, id: string, stored: Stored | undefined): void => {
    if (!undoLog) throw new Error('Writes need a transaction')
    undoLog.push({ collection, id, before: table(collection).get(id) })
    put(collection, id, stored)
  }

  const reader: ReadTx<S> = {
    get: (collection, id) => table(collection).get(id)?.row as never,
    scan: (collection, index, key, options?: ScanOptions) => {
      const list = indexFor(collection, index).get(key)
      if (!list) return []
      const t = table(collection)
      const start = options?.after === undefined ? 0 : list.upperBound(options.after.order, options.after.seq)
      const end = options?.limit === undefined ? list.ids.length : Math.min(list.ids.length, start + options.limit)
      const out: Entry<never>[] = []
      for (let i = start; i < end; i++) {
        out.push({ order: list.orders[i]!, seq: list.seqs[i]!, row: t.get(list.ids[i]!)!.row as never })
      }
      return out
    },
    count: (collection, index, key) => indexFor(collection, index).get(key)?.ids.length ?? 0,
    seqOf: (collection, id) => table(collection).get(id)?.seq,
    all: (collection) => [...table(collection).values()].sort((a, b) => a.seq - b.seq).map((s) => s.row as never),
  }

  const writer: WriteTx<S> = {
    ...reader,
    insert: (collection, row) => {
      if (table(collection).has(row.id)) throw new Error(`Duplicate id "${row.id}" in "${collection}"`)
      const frozen = freeze(row, true)
      write(collection, row.id, { seq: nextSeq++, row: frozen })
      return frozen
    },
    update: (collection, row) => {
      const before = table(collection).get(row.id)
      if (!before) throw new Error(`No row "${row.id}" in "${collection}"`)
      const frozen = freeze(row, true)
      write(collection, row.id, { seq: before.seq, row: frozen })
      return frozen
    },
    delete: (collection, id) => {
      if (!table(collection).has(id)) return false
      write(collection, id, undefined)
      return true
    },
  }

  return {
    schema,
    read: (fn) => fn(reader),
    transaction: (fn) => {
      const outer = undoLog
      const log: Undo[] = []
      undoLog = log
      try {
        const result = fn(writer)
        if (result && typeof (result as { then?: unknown }).then === 'function') {
          throw new Error('A transaction function must be synchronous: the port gives no isolation across awaits')
        }
        if (outer) outer.push(...log) // a nested transaction commits into its parent
        return result
      } catch (error) {
        for (let i = log.length - 1; i >= 0; i--) put(log[i]!.collection, log[i]!.id, log[i]!.before)
        throw error
      } finally {
        undoLog = outer
      }
    },
  }
}
