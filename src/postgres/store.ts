import { createReplicaStore, type SlotChange } from '../storage/memory.js'
import type { Row, Schema, SharedStore, StoragePort } from '../storage/port.js'
import { StorageError } from '../storage/errors.js'
import { connect, loadPg, type Client } from './driver.js'
import { LOG_KEPT, prepareLayout } from './layout.js'

/**
 * The PostgreSQL store: several API processes over one database (issue 26; the decision and its
 * measurements are in docs/design/postgres.md).
 *
 * Each process holds the whole state in memory, in a replica (the in-memory store), so reads and
 * the domain's transactions stay synchronous and local, as the port wants. The database holds the
 * state (dca_rows) and an ordered log of the transactions (dca_log); every replica applies the log
 * in order.
 *
 * - A write (`exclusive`, which the API runs each request's and job's transaction in) takes the
 *   cluster's write lock (the row lock of dca_head), applies the log entries its replica lacks,
 *   runs the transaction in memory, then appends its changes to the log and the state, and
 *   commits, in two round trips. Writers of every process are serialized by the lock, so a
 *   transaction always runs on the newest state: no lost update, no conflict to retry, counters
 *   and numbers exact. The request is answered once the commit returned: a process killed at any
 *   point loses nothing it answered for (PostgreSQL drops the lock with the connection).
 * - A read (`sync`, which the API awaits before a request) asks the log for entries past the
 *   replica's position (one query, shared by every request that arrived while the previous one
 *   was out), applies them, and runs locally: a write acknowledged by any process is seen by the
 *   next request anywhere.
 * - LISTEN/NOTIFY (and a poll every `pollMs`) keeps idle replicas close to the head, so the
 *   query a request waits for rarely brings much.
 * - A transaction run outside `exclusive` (fixtures, `api.system`, the storage port suite) commits
 *   optimistically: it runs at once on the replica and is committed in the background, in order,
 *   if no other process wrote in between; otherwise it is dropped, the replica is loaded again
 *   and `onError` (and `flush()`) says so.
 */

export interface PostgresStoreOptions {
  /** The database: `postgres://user:password@host:port/database`. Every process of one deployment names the same one. */
  url: string
  /** How long a job's lease lasts unrenewed: a job of a process that died is taken up by another after this long. @default 15000 */
  leaseMs?: number
  /** How often the replica asks for new log entries when no notification came. @default 1000 */
  pollMs?: number
  /**
   * A PostgreSQL schema to keep the store's tables in (created when missing): several stores in one
   * database, each in its own schema. Left out: the connection's default (`public`).
   */
  schema?: string
  /** Errors of background work (a poll that failed, an optimistic commit refused). @default console.error */
  onError?: (error: unknown) => void
}

/** A storage port on PostgreSQL, with what only a shared store has. */
export interface PostgresStore<S extends Schema> extends StoragePort<S> {
  readonly shared: SharedStore
  /** Whether no collection holds a row. */
  isEmpty(): boolean
  /** The log position the replica holds (the sequence number of the last entry applied). */
  readonly position: number
  /** This process's name in the log and the leases. */
  readonly origin: string
  /** Resolves once every transaction run outside `exclusive` is committed; rejects when one could not be. */
  flush(): Promise<void>
  /**
   * A secret every process of the deployment shares (made at random by the first to ask, kept in
   * dca_meta): `secret('site-tokens')` is what `serve --database` signs site tokens with, so a
   * token one process issued is valid on the others.
   */
  secret(name: string): Promise<string>
  /** Wait for pending commits, then close the connections (leases held are released). */
  close(): Promise<void>
}

type LogChange = [collection: string, seq: number, row: Row | null, id: string]

const QUOTES = /'/g

/** The catch-up query, prepared once per connection (a named statement: parsed and planned once). */
/** Log entries read per query: a replica far behind catches up in batches, never holding the whole log's tail at once. */
const CATCH_UP_BATCH = 256
const CATCH_UP = { name: 'dca-catch-up', text: `SELECT seq, origin, changes FROM dca_log WHERE seq > $1 ORDER BY seq LIMIT ${CATCH_UP_BATCH}` }

/** Rows loaded per query at start (and on a reload). */
const LOAD_BATCH = 5_000

/** A connection error as the API reports a storage that cannot be reached: 503. */
function unavailable(error: unknown, what: string): unknown {
  if (error instanceof StorageError) return error
  const code = (error as { code?: string }).code
  // SQL errors (class 22, 23, 42...) are bugs, not availability: rethrown as they are.
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08') && !code.startsWith('57') && !code.startsWith('53')) return error
  return new StorageError('not-writable', `PostgreSQL: ${what} failed (${(error as Error).message ?? String(error)})`, { cause: error })
}

export async function openPostgresStore<S extends Schema>(schema: S, options: PostgresStoreOptions): Promise<PostgresStore<S>> {
  loadPg()
  const origin = `${globalThis.process?.pid ?? 0}-${Math.random().toString(36).slice(2, 10)}`
  const leaseMs = options.leaseMs ?? 15_000
  const pollMs = options.pollMs ?? 1_000
  const onError = options.onError ?? ((error: unknown) => console.error('[docs-content-api] PostgreSQL store:', error))
  const where = redact(options.url) + (options.schema === undefined ? '' : ` (schema ${options.schema})`)
  if (options.schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema))
    throw new TypeError(`PostgreSQL store: schema ${JSON.stringify(options.schema)} must match /^[a-z_][a-z0-9_]{0,62}$/`)
  /** The notification channel: one per schema, so stores in other schemas do not wake this one. */
  const channel = options.schema === undefined ? 'dca_log' : `dca_log_${options.schema}`
  const clients = new Set<Client>()
  /** Connections that failed (the server restarted, the network dropped): opened again before their next query. */
  const broken = new Set<Client>()
  const open = async (role: string) => {
    const client = await connect(options.url, `docs-content-api ${role} ${origin}`, options.schema)
    // A connection lost later fails the query in flight (a 503); the error event must not crash the process.
    client.on('error', (error) => {
      if (!broken.has(client) && !closed) onError(unavailable(error, `the ${role} connection`))
      broken.add(client)
    })
    client.on('end', () => broken.add(client))
    clients.add(client)
    return client
  }
  /** A new connection for one that broke (the old one is ended and forgotten). */
  const reopen = async (client: Client, role: string): Promise<Client> => {
    clients.delete(client)
    broken.delete(client)
    client.end().catch(() => undefined)
    return open(role)
  }
  let writer: Client, reader: Client, listener: Client
  try {
    writer = await open('writer')
    await prepareLayout(writer, where, options.schema)
    reader = await open('reader')
    listener = await open('listener')
  } catch (error) {
    await Promise.all([...clients].map((c) => c.end().catch(() => undefined)))
    throw unavailable(error, `opening ${where}`)
  }

  /** Changes of transactions committed in memory, while `exclusive` collects them; undefined outside. */
  let collecting: SlotChange[] | undefined
  /** Transactions run outside exclusive, waiting for their commit. */
  const replica = { current: createReplica() }
  function createReplica() {
    return createReplicaStore(schema, (changes) => {
      if (collecting) collecting.push(...changes)
      else optimistic(changes)
    })
  }
  /** The log position the replica holds. */
  let applied = 0
  /** Bumped whenever the replica changes other than by this process's own commits (remote entries, a reload). */
  let epoch = 0
  let closed = false
  let commits = 0

  const parseEntry = (text: string): LogChange[] => JSON.parse(text) as LogChange[]
  const applyEntries = (rows: Array<{ seq: string; origin: string; changes: string }>): boolean => {
    for (const { seq, origin: by, changes } of rows) {
      const n = Number(seq)
      if (n <= applied) continue
      // A gap: the entries this replica needs were deleted (LOG_KEPT): it loads the state again.
      if (n !== applied + 1) return false
      // This process's own commit, read back before its COMMIT's answer came: its changes are in the replica already.
      if (by === origin) {
        applied = n
        continue
      }
      replica.current.apply(parseEntry(changes).map(([collection, slot, row]) => ({ collection, seq: slot, row: row ?? undefined })))
      applied = n
      epoch++
    }
    return true
  }

  /** Load the whole state into a new replica, in one snapshot of the database (`client` may hold the write lock). */
  const load = async (client: Client, inTransaction: boolean): Promise<void> => {
    if (!inTransaction) await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    try {
      const next = createReplica()
      const head = Number((await client.query<{ seq: string }>('SELECT seq FROM dca_head WHERE id = 1')).rows[0]!.seq)
      for (const { collection, next: n } of (await client.query<{ collection: string; next: string }>('SELECT collection, next FROM dca_seqs')).rows)
        if (collection in schema) next.setNextSeq(collection, Number(n))
      let after: [string, number] = ['', -1]
      for (;;) {
        const batch = await client.query<{ collection: string; seq: string; data: string }>(
          'SELECT collection, seq, data FROM dca_rows WHERE (collection, seq) > ($1, $2) ORDER BY collection, seq LIMIT $3',
          [after[0], after[1], LOAD_BATCH],
        )
        const changes = []
        for (const r of batch.rows) if (r.collection in schema) changes.push({ collection: r.collection, seq: Number(r.seq), row: JSON.parse(r.data) as Row })
        next.apply(changes)
        if (batch.rows.length < LOAD_BATCH) break
        const last = batch.rows[batch.rows.length - 1]!
        after = [last.collection, Number(last.seq)]
      }
      if (!inTransaction) await client.query('COMMIT')
      replica.current = next
      applied = head
      epoch++
    } catch (error) {
      if (!inTransaction) await client.query('ROLLBACK').catch(() => undefined)
      throw error
    }
  }
  /** The reader's queries, one at a time (pg runs one query per connection; it warns of queuing). */
  let readerTail: Promise<unknown> = Promise.resolve()
  const readerQuery = <R extends object = Record<string, unknown>>(text: string | { name: string; text: string }, values?: unknown[]) => {
    const run = readerTail.then(async () => {
      // Closed: no query (and no connection opened again for one).
      if (closed) throw closedError()
      if (broken.has(reader)) reader = await reopen(reader, 'reader')
      return typeof text === 'string' ? reader.query<R>(text, values) : reader.query<R>({ ...text, values })
    })
    readerTail = run.then(
      () => undefined,
      () => undefined,
    )
    return run
  }
  await load(reader, false).catch(async (error) => {
    await Promise.all([...clients].map((c) => c.end().catch(() => undefined)))
    throw unavailable(error, `loading ${where}`)
  })

  // --- reads: catch up before a request runs ---------------------------------------------------
  /** The replica is not to be trusted (a commit failed half-way): it loads again before anything runs. */
  let stale = false
  const catchUp = async (): Promise<void> => {
    if (closed) throw closedError()
    try {
      if (stale) {
        await serialized(() => reloadIfStale())
        return
      }
      for (;;) {
        const { rows } = await readerQuery<{ seq: string; origin: string; changes: string }>(CATCH_UP, [applied])
        // A commit of this process may have moved the position meanwhile: entries at or below it are skipped.
        if (!applyEntries(rows)) {
          await serialized(async () => load(writer, false))
          return
        }
        if (rows.length < CATCH_UP_BATCH) return
      }
    } catch (error) {
      throw closed ? closedError() : unavailable(error, 'reading the log')
    }
  }
  /** A query out now, and the next one (not sent yet), which every request arriving meanwhile shares. */
  let running: Promise<void> | undefined
  let queued: Promise<void> | undefined
  const start = (): Promise<void> => {
    queued = undefined
    return (running = catchUp().finally(() => {
      running = undefined
    }))
  }
  const sync = (): Promise<void> => {
    // A query already out may have left before this request arrived: the request waits for the next one.
    if (queued) return queued
    if (!running) return start()
    return (queued = running.then(start, start))
  }

  // --- writes: one at a time per process, under the cluster's lock -----------------------------
  let tail: Promise<unknown> = Promise.resolve()
  /** Run `step` after every write of this process queued before it. */
  const serialized = <T>(step: () => Promise<T>): Promise<T> => {
    const run = tail.then(step)
    tail = run.then(
      () => undefined,
      () => undefined,
    )
    return run
  }
  const reloadIfStale = async (): Promise<void> => {
    if (closed) throw closedError()
    // A writer connection that broke may have lost a commit's answer: the state is read again.
    if (broken.has(writer)) {
      writer = await reopen(writer, 'writer')
      stale = true
    }
    if (!stale) return
    await load(writer, false)
    stale = false
  }

  /** Take the lock and bring the replica to the head: the head's sequence number. */
  const lockAndCatchUp = async (): Promise<number> => {
    const results = (await writer.query(
      `BEGIN; SELECT seq FROM dca_head WHERE id = 1 FOR UPDATE; ${CATCH_UP.text.replace('$1', String(applied))}`,
    )) as unknown as Array<{ rows: Array<{ seq: string; origin: string; changes: string }> }>
    const head = Number(results[1]!.rows[0]!.seq)
    let rows = results[2]!.rows
    let whole = applyEntries(rows)
    // Further behind than one batch: the rest in batches, under the lock (nothing is written meanwhile).
    while (whole && applied < head && rows.length === CATCH_UP_BATCH) {
      rows = (await writer.query<{ seq: string; origin: string; changes: string }>({ ...CATCH_UP, values: [applied] })).rows
      whole = applyEntries(rows)
    }
    if (!whole || applied !== head) await load(writer, true)
    return head
  }

  /** Append `changes` as entry `head + 1` and commit (the lock is held). */
  const commitEntry = async (head: number, changes: SlotChange[]): Promise<void> => {
    const seq = head + 1
    // standard_conforming_strings is on (set at connect): only quotes are doubled, by one native replace (pg's escapeLiteral walks a string a character at a time: tens of ms for a large row).
    const lit = (s: string) => `'${s.replace(QUOTES, "''")}'`
    const parts: string[] = []
    const upserts: string[] = []
    const upserted = new Set<string>()
    const deletes: string[] = []
    const nextSeqs = new Map<string, number>()
    for (const c of changes) {
      if (c.after) {
        const data = JSON.stringify(c.after)
        parts.push(`[${JSON.stringify(c.collection)},${c.seq},${data},${JSON.stringify(c.after.id)}]`)
        upserts.push(`(${lit(c.collection)},${lit(c.after.id)},${c.seq},${lit(data)})`)
        upserted.add(`${c.collection}\u0000${c.after.id}`)
      } else if (c.before) {
        parts.push(`[${JSON.stringify(c.collection)},${c.seq},null,${JSON.stringify(c.before.id)}]`)
      } else continue
      if (!nextSeqs.has(c.collection)) nextSeqs.set(c.collection, replica.current.nextSeq(c.collection))
    }
    for (const c of changes) {
      if (!c.after && c.before && !upserted.has(`${c.collection}\u0000${c.before.id}`)) deletes.push(`(${lit(c.collection)},${lit(c.before.id)},${c.seq})`)
    }
    let sql = `INSERT INTO dca_log (seq, origin, changes) VALUES (${seq}, ${lit(origin)}, ${lit(`[${parts.join(',')}]`)});`
    if (upserts.length)
      sql += `INSERT INTO dca_rows (collection, id, seq, data) VALUES ${upserts.join(',')} ON CONFLICT (collection, id) DO UPDATE SET seq = excluded.seq, data = excluded.data;`
    if (deletes.length) sql += `DELETE FROM dca_rows WHERE (collection, id, seq) IN (${deletes.join(',')});`
    if (nextSeqs.size)
      sql += `INSERT INTO dca_seqs (collection, next) VALUES ${[...nextSeqs].map(([c, n]) => `(${lit(c)},${n})`).join(',')} ON CONFLICT (collection) DO UPDATE SET next = GREATEST(dca_seqs.next, excluded.next);`
    if (++commits % 1000 === 0) sql += `DELETE FROM dca_log WHERE seq <= ${seq - LOG_KEPT};`
    sql += `UPDATE dca_head SET seq = ${seq} WHERE id = 1; SELECT pg_notify('${channel}', '${seq}'); COMMIT`
    await writer.query(sql)
    applied = seq
  }

  /** After a failure with the lock possibly held: roll back, and have the replica loaded again. */
  const failed = async (error: unknown): Promise<never> => {
    stale = true
    await writer.query('ROLLBACK').catch(() => undefined)
    throw unavailable(error, 'committing a transaction')
  }

  const exclusive = <T>(fn: () => T): Promise<T> =>
    serialized(async () => {
      if (closed) throw closedError()
      let head: number
      try {
        await reloadIfStale()
        head = await lockAndCatchUp()
      } catch (error) {
        return failed(error)
      }
      const changes: SlotChange[] = (collecting = [])
      let result: T | undefined
      let thrown: { error: unknown } | undefined
      try {
        result = fn()
      } catch (error) {
        thrown = { error }
      } finally {
        collecting = undefined
      }
      try {
        if (changes.length > 0) await commitEntry(head, changes)
        else await writer.query('COMMIT')
      } catch (error) {
        return failed(error)
      }
      if (thrown) throw thrown.error
      return result as T
    })

  // --- transactions outside exclusive: committed after, if nothing came in between -------------
  let firstFailure: unknown
  const optimistic = (changes: SlotChange[]): void => {
    const seenEpoch = epoch
    const commit = serialized(async () => {
      let head: number | undefined
      try {
        // Not when the replica changed since the transaction read it (another process's entry applied, a reload).
        if (epoch === seenEpoch && !stale && !broken.has(writer))
          head = Number(
            ((await writer.query('BEGIN; SELECT seq FROM dca_head WHERE id = 1 FOR UPDATE')) as unknown as Array<{ rows: Array<{ seq: string }> }>)[1]!.rows[0]!
              .seq,
          )
      } catch (error) {
        return failed(error)
      }
      if (head === undefined || head !== applied || epoch !== seenEpoch) {
        // Another process wrote first: the transaction is dropped, and the replica, which holds it, is loaded again.
        stale = true
        if (head !== undefined) await writer.query('ROLLBACK').catch(() => undefined)
        void serialized(reloadIfStale).catch((error: unknown) => closed || onError(error))
        throw conflict()
      }
      try {
        await commitEntry(head, changes)
      } catch (error) {
        return failed(error)
      }
    })
    commit.catch((error: unknown) => {
      firstFailure ??= error
      onError(error)
    })
  }
  const conflict = () =>
    new StorageError(
      'not-writable',
      'PostgreSQL: a transaction run outside exclusive() was dropped: another process wrote first (run writes inside store.shared.exclusive)',
    )

  // --- notifications and polling keep the replica close to the head --------------------------------
  const nudge = () => {
    if (closed || queued || running) return
    // A catch-up cut short by close() is no error of anyone's.
    sync().catch((error: unknown) => closed || onError(error))
  }
  const listen = async (client: Client) => {
    client.on('notification', (message) => {
      if (Number(message.payload) > applied) nudge()
    })
    await client.query(`LISTEN ${channel}`)
  }
  await listen(listener)
  let relistening = false
  const poll = setInterval(() => {
    nudge()
    // The listening connection broke: opened again (the poll catches up meanwhile).
    if (broken.has(listener) && !relistening && !closed) {
      relistening = true
      reopen(listener, 'listener')
        .then(async (client) => {
          listener = client
          await listen(client)
        })
        .catch(() => undefined)
        .finally(() => (relistening = false))
    }
  }, pollMs)
  ;(poll as { unref?: () => void }).unref?.()

  // --- leases of background jobs --------------------------------------------------------------------
  const held = new Set<string>()
  const renew = setInterval(
    () => {
      if (closed || held.size === 0) return
      readerQuery(`UPDATE dca_leases SET expires_at = now() + $2 * interval '1 millisecond' WHERE owner = $1`, [origin, leaseMs]).catch((error: unknown) =>
        onError(unavailable(error, 'renewing leases')),
      )
    },
    Math.max(100, Math.floor(leaseMs / 3)),
  )
  ;(renew as { unref?: () => void }).unref?.()

  const shared: SharedStore = {
    sync,
    exclusive,
    lease: async (name) => {
      // A closed store runs no more jobs.
      if (closed) return false
      const { rows } = await readerQuery(
        `INSERT INTO dca_leases (name, owner, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE dca_leases.expires_at < now() OR dca_leases.owner = excluded.owner RETURNING name`,
        [name, origin, leaseMs],
      )
      if (rows.length > 0) held.add(name)
      return rows.length > 0
    },
    release: async (name) => {
      held.delete(name)
      if (closed) return
      await readerQuery('DELETE FROM dca_leases WHERE name = $1 AND owner = $2', [name, origin])
    },
    leased: async () => new Set((await readerQuery<{ name: string }>('SELECT name FROM dca_leases WHERE expires_at > now()')).rows.map((r) => r.name)),
  }

  const port = {
    get schema() {
      return schema
    },
    read: (fn) => replica.current.store.read(fn),
    transaction: (fn) => replica.current.store.transaction(fn),
    snapshotCost: 'size',
    shared,
    // A fork is an in-memory store of its own, starting from the replica's state now (what `api.fork()` gives a test):
    // it shares nothing with the database afterwards. No snapshot or restore: a restore would rewrite every process's state.
    fork: () => {
      const fork = replica.current.store.fork?.()
      if (!fork) throw new Error('The replica cannot fork')
      return fork
    },
    isEmpty: () => replica.current.isEmpty(),
    get position() {
      return applied
    },
    origin,
    secret: async (name) => {
      const key = `secret:${name}`
      const made = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
      await readerQuery('INSERT INTO dca_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, made])
      return (await readerQuery<{ value: string }>('SELECT value FROM dca_meta WHERE key = $1', [key])).rows[0]!.value
    },
    flush: async () => {
      await tail
      if (firstFailure !== undefined) {
        const error = firstFailure
        firstFailure = undefined
        throw error
      }
    },
    close: async () => {
      if (closed) return
      await tail
      // The leases go first (a job of this process no longer runs: another may take its work up).
      if (held.size) await readerQuery('DELETE FROM dca_leases WHERE owner = $1', [origin]).catch(() => undefined)
      closed = true
      clearInterval(poll)
      clearInterval(renew)
      await readerTail
      await Promise.all([...clients].map((c) => c.end().catch(() => undefined)))
    },
  } satisfies PostgresStore<S> as PostgresStore<S>
  return port
}

/** What a request meets on a store being closed (a server shutting down): a 503, as for a database out of reach. */
const closedError = () => new StorageError('not-writable', 'PostgreSQL: the store is closed (the server is shutting down)')

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return 'the database'
  }
}
