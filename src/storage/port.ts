/**
 * The storage port: typed collections of rows, their indexes, and transactions. It knows rows,
 * keys and indexes, nothing of spaces or roles: domain queries live in the domains.
 *
 * The port is synchronous inside a transaction. That is the honest shape for an in-process store
 * (the in-memory adapter, an embedded database such as SQLite through a synchronous driver): a
 * request runs its whole read-check-write sequence without yielding, so no other request can
 * interleave with it, and the domain code needs no `await` on every read.
 */

/** Every stored row has a string id, unique in its collection. */
export interface Row {
  readonly id: string
}

/**
 * A secondary index: rows are grouped under the key(s) `key` returns (none when it returns
 * undefined). Within a key, rows are kept in insertion order (their sequence number), or, when
 * `order` is given, by `order(row)` with the sequence number breaking ties: a list ordered by a
 * position is then read page by page without sorting.
 */
export interface IndexDef<R> {
  key: (row: R) => string | readonly string[] | undefined
  order?: (row: R) => number
}

/** The declaration of a collection: its indexes by name. */
export interface CollectionDef<R extends Row> {
  readonly indexes: Readonly<Record<string, IndexDef<R>>>
  /** Phantom field carrying the row type; never set. */
  readonly __row?: R
}

// `any`: a collection's index functions take its own row type (contravariant), so no narrower bound fits them all.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Schema = Record<string, CollectionDef<any>>
export type RowOf<S extends Schema, C extends keyof S> = S[C] extends CollectionDef<infer R> ? R : never
export type IndexOf<S extends Schema, C extends keyof S> = Extract<keyof S[C]['indexes'], string>

/** Where a row stands in an index: its order value (0 in an insertion-ordered index) and its sequence number. */
export interface IndexPosition {
  readonly order: number
  readonly seq: number
}

/** One entry of an index scan: the row and where it stands (the sequence number is stable across updates). */
export interface Entry<R> extends IndexPosition {
  readonly row: R
}

export interface ScanOptions {
  /** Only entries strictly after this position (a cursor: the position of the last entry served). */
  after?: IndexPosition
  /** Stop after this many entries. */
  limit?: number
}

/** Read access. Rows handed out are frozen: mutating one cannot corrupt the store. */
export interface ReadTx<S extends Schema> {
  get<C extends keyof S & string>(collection: C, id: string): RowOf<S, C> | undefined
  /** Entries under `key` in `index`, in index order (insertion order unless the index has an `order`). */
  scan<C extends keyof S & string>(collection: C, index: IndexOf<S, C>, key: string, options?: ScanOptions): Entry<RowOf<S, C>>[]
  /** How many rows are under `key` in `index`. */
  count<C extends keyof S & string>(collection: C, index: IndexOf<S, C>, key: string): number
  /** The insertion sequence number of a row (undefined when missing). */
  seqOf<C extends keyof S & string>(collection: C, id: string): number | undefined
  /** Every row of a collection, in insertion order (for tests, fixtures and maintenance; not for request paths). */
  all<C extends keyof S & string>(collection: C): RowOf<S, C>[]
}

/** Read and write access inside a transaction. */
export interface WriteTx<S extends Schema> extends ReadTx<S> {
  /** Insert a new row; throws when the id is taken. */
  insert<C extends keyof S & string>(collection: C, row: RowOf<S, C>): RowOf<S, C>
  /** Replace an existing row (same id); throws when missing. Keeps the row's sequence number. */
  update<C extends keyof S & string>(collection: C, row: RowOf<S, C>): RowOf<S, C>
  /** Delete a row; returns whether it existed. */
  delete<C extends keyof S & string>(collection: C, id: string): boolean
}

/** A point-in-time state of a store, for `restore` (opaque: only the store that made it reads it). */
export interface StoreSnapshot {
  readonly kind: 'store-snapshot'
}

export interface StoragePort<S extends Schema> {
  readonly schema: S
  /** Run `fn` with read access. */
  read<T>(fn: (tx: ReadTx<S>) => T): T
  /**
   * Run `fn` as one atomic transaction: when it throws, every write it made is undone and the
   * error is rethrown; when it returns, its writes are committed.
   */
  transaction<T>(fn: (tx: WriteTx<S>) => T): T
  /**
   * Optional: the current state, to `restore` later. The API's `snapshot`, `restore`, `reset`
   * and `fork` need these three. Not inside a transaction.
   */
  snapshot?(): StoreSnapshot
  /** Go back to a state `snapshot` gave (of this store, or of the store it was forked from). */
  restore?(snapshot: StoreSnapshot): void
  /** A new, independent store starting from the current state. */
  fork?(): StoragePort<S>
  /**
   * What `snapshot` costs. `'constant'`: O(number of collections) whatever the store holds (the
   * in-memory adapter), so the API takes one when it is created, for `reset()`. `'size'`: a copy
   * of the data (the SQLite adapter), so the API takes none unasked and `reset()` refuses.
   * @default 'constant'
   */
  readonly snapshotCost?: 'constant' | 'size'
  /**
   * Set by a store several processes share (the PostgreSQL store): what the API awaits around
   * its synchronous transactions. Left out (memory, SQLite), nothing is awaited.
   */
  readonly shared?: SharedStore
}

/**
 * The asynchronous edge of a store shared by several processes, each holding a replica
 * (src/postgres/store.ts). The domain code stays synchronous: the API awaits `sync` before a
 * request reads, and runs a request's (or a job's) transaction inside `exclusive`, which waits
 * for the cluster's write lock, brings the replica up to date, runs the transaction, and resolves
 * once its writes are committed in the shared database.
 */
export interface SharedStore {
  /** Resolves once the replica holds every write committed anywhere before the call. */
  sync(): Promise<void>
  /**
   * Run `fn` (synchronous; it runs transactions) holding the cluster's write lock on an up-to-date
   * replica. The writes of its committed transactions are committed in the database before the
   * promise resolves (and `fn`'s error, when it throws after a commit, is rethrown after that).
   */
  exclusive<T>(fn: () => T): Promise<T>
  /**
   * Background jobs: take a lease (core/jobs.ts names one per job start: `<kind>:<row id>#<uuid>`),
   * which tells every process that a live one works on that row. False when another live process
   * holds it. Held until `release`, renewed meanwhile; when its process dies it expires (after
   * `leaseMs`), and another process takes the row's work up (core/resume.ts).
   */
  lease(name: string): Promise<boolean>
  release(name: string): Promise<void>
  /** The names of jobs a live process holds a lease on. */
  leased(): Promise<ReadonlySet<string>>
}

/** Declare a collection with its row type and indexes. */
export function collection<R extends Row>(indexes: Readonly<Record<string, IndexDef<R>>> = {}): CollectionDef<R> {
  return { indexes }
}
