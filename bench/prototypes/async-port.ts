import type { Entry, ReadTx, Row, ScanOptions, StoragePort } from '../../src/storage/port.js'
import type { AppSchema } from '../../src/domains/schema.js'
import type { SpaceRow } from '../../src/domains/spaces/rows.js'
import type { ReadCall } from './read-counter.js'

/**
 * Issue 26, prototype (a): what would an asynchronous storage port cost on the in-memory hot path?
 *
 * `asyncFacade` is an async port over the in-memory store: every get/scan/count/seqOf returns a
 * promise (already resolved: the data is in memory, so what is measured is the price of `await`
 * itself, the floor of any asynchronous adapter). Beside it, two read paths written twice, sync
 * over the sync port and async over the facade, with the same logic and the same encoding:
 * GET a space (the space, the caller's membership, the space's Git Sync row, the JSON) and a
 * page of the organization's spaces (membership, an index scan after the cursor, the JSON). And a
 * replay of the reads the REAL operations make (recorded by read-counter.ts), sync and async.
 *
 * Prototype only: not the library's code (the library's port stays synchronous). These paths
 * mirror src/domains/spaces (getSpace, organizationSpaces, encodeSpaceJson) but are not them.
 */

export interface AsyncReadTx {
  get(collection: string, id: string): Promise<Row | undefined>
  scan(collection: string, index: string, key: string, options?: ScanOptions): Promise<Entry<Row>[]>
  count(collection: string, index: string, key: string): Promise<number>
  seqOf(collection: string, id: string): Promise<number | undefined>
  all(collection: string): Promise<Row[]>
}

/** The async facade: the memory store's reader behind promises (an async adapter's best case). */
export function asyncFacade(store: StoragePort<AppSchema>): { read<T>(fn: (tx: AsyncReadTx) => Promise<T>): Promise<T>; sync: ReadTx<AppSchema> } {
  // The memory store's reader is the same object for every read: keep it, as an async adapter keeps its connection.
  const tx = store.read((t) => t) as unknown as ReadTx<Record<string, never>> & Record<string, (...a: unknown[]) => unknown>
  const atx: AsyncReadTx = {
    get: async (c, id) => tx.get(c as never, id) as Row | undefined,
    scan: async (c, index, key, options) => tx.scan(c as never, index as never, key, options) as Entry<Row>[],
    count: async (c, index, key) => tx.count(c as never, index as never, key),
    seqOf: async (c, id) => tx.seqOf(c as never, id),
    all: async (c) => tx.all(c as never) as Row[],
  }
  return { read: (fn) => fn(atx), sync: store.read((t) => t) }
}

const BASE = 'http://localhost:4000/v1'

/** The same fields and order as the API's space resource (spaces/encode.ts), permissions simplified to the level. */
function spaceJson(row: SpaceRow, level: string | undefined, gitSync: Row | undefined): string {
  return JSON.stringify({
    object: 'space',
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
    editMode: row.editMode,
    mergeRules: row.mergeRules,
    urls: { location: `${BASE}/spaces/${row.id}`, app: `http://localhost:4000/s/${row.id}`, icon: row.icon },
    organization: row.organization,
    parent: row.parent,
    language: row.language,
    revision: row.revision,
    defaultLevel: row.defaultLevel,
    comments: row.comments,
    changeRequests: row.changeRequests,
    changeRequestsOpen: row.changeRequestsOpen,
    changeRequestsDraft: row.changeRequestsDraft,
    gitSync: gitSync ? { id: gitSync.id } : undefined,
    permissions: { view: level !== undefined, edit: level === 'admin' || level === 'editor', admin: level === 'admin' },
  })
}

type Member = Row & { role?: string | null; disabled?: boolean }
const roleOf = (member: Member | undefined) => (member && !member.disabled ? (member.role ?? undefined) : undefined)

/** GET a space, sync: the space (404 when missing or deleted), the caller's role, the Git Sync row, the JSON. */
export function getSpaceSync(tx: ReadTx<AppSchema>, id: string, user: string): string | undefined {
  const space = tx.get('spaces', id)
  if (!space || space.deletedAt) return undefined
  const role = roleOf(tx.get('members', `${space.organization}/${user}`) as Member | undefined)
  return spaceJson(space, role, tx.get('gitSyncs', id) as Row | undefined)
}

/** The same, async: each read awaited. */
export async function getSpaceAsync(tx: AsyncReadTx, id: string, user: string): Promise<string | undefined> {
  const space = (await tx.get('spaces', id)) as SpaceRow | undefined
  if (!space || space.deletedAt) return undefined
  const role = roleOf((await tx.get('members', `${space.organization}/${user}`)) as Member | undefined)
  return spaceJson(space, role, await tx.get('gitSyncs', id))
}

export interface ListPage {
  text: string
  /** The position of the last entry served, for the next page (undefined: the last page). */
  next?: { order: number; seq: number }
}

/**
 * A page of an organization's live spaces, sync: the caller's role, `limit + 1` entries of the
 * index after the cursor (one more tells whether there is a next page), each space's Git Sync
 * row and JSON. Members only here (as the API: a member sees every space).
 */
export function listPageSync(tx: ReadTx<AppSchema>, organization: string, user: string, limit: number, after?: ListPage['next']): ListPage {
  const role = roleOf(tx.get('members', `${organization}/${user}`) as Member | undefined)
  const entries = tx.scan('spaces', 'byOrganization', organization, { after, limit: limit + 1 })
  const served = entries.slice(0, limit)
  const items = served.map((e) => spaceJson(e.row, role, tx.get('gitSyncs', e.row.id) as Row | undefined))
  const last = served[served.length - 1]
  return { text: `{"items":[${items.join(',')}]}`, ...(entries.length > limit && last && { next: { order: last.order, seq: last.seq } }) }
}

/** The same, async: each read awaited (the Git Sync rows one by one, as the sync code reads them). */
export async function listPageAsync(tx: AsyncReadTx, organization: string, user: string, limit: number, after?: ListPage['next']): Promise<ListPage> {
  const role = roleOf((await tx.get('members', `${organization}/${user}`)) as Member | undefined)
  const entries = (await tx.scan('spaces', 'byOrganization', organization, { after, limit: limit + 1 })) as Entry<SpaceRow>[]
  const served = entries.slice(0, limit)
  const items: string[] = []
  for (const e of served) items.push(spaceJson(e.row, role, await tx.get('gitSyncs', e.row.id)))
  const last = served[served.length - 1]
  return { text: `{"items":[${items.join(',')}]}`, ...(entries.length > limit && last && { next: { order: last.order, seq: last.seq } }) }
}

/** Replay a recorded sequence of reads, sync. Returns a count of rows seen (so the reads are not dead code). */
export function replaySync(tx: ReadTx<AppSchema>, trace: readonly ReadCall[]): number {
  const reader = tx as unknown as Record<string, (...a: unknown[]) => unknown>
  let seen = 0
  for (const [method, ...args] of trace) if (reader[method]!(...args) !== undefined) seen++
  return seen
}

/** The same reads, each awaited through the async facade. */
export async function replayAsync(tx: AsyncReadTx, trace: readonly ReadCall[]): Promise<number> {
  const reader = tx as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>
  let seen = 0
  for (const [method, ...args] of trace) if ((await reader[method]!(...args)) !== undefined) seen++
  return seen
}
