import type { ReadContext } from '../context.js'
import type { FileRow, PageVersionRow, RevisionRow } from '../content/rows.js'
import { encodeFile } from '../content/encode.js'
import { pageIn, pagePath } from '../content/revision.js'
import { changedPages } from './merge.js'
import { KEYED_NODES } from '../content/merge-blocks.js'
import { reusableContentsOf } from '../content/reusable.js'
import type { ReusableContentVersionRow } from '../content/rows.js'
import { rememberBounded } from '../../core/bounded-map.js'

/**
 * Semantic changes between two revisions (the official `RevisionSemanticChange` union): what a
 * change request changed (its content against the revision of main it is based on) and what a
 * revision changed (against its first parent).
 *
 * The cost follows what changed, not the space: the pages compared are the ones whose version
 * differs in the two revisions' page indexes (merge.ts `changedPages`, which skips the buckets both
 * share without reading them), each then read once by id; files and variables are compared as the
 * two revisions' arrays and records (shared by reference when untouched).
 *
 * Each kind of change is one function of `KINDS` below, from the pair of revisions to its changes:
 * a new kind (reusable contents, tags) is one more function there.
 */

/** The two sides compared. */
export interface RevisionPair {
  before: RevisionRow
  after: RevisionRow
}

/** The official `ChangedRevisionPage`. */
interface ChangedPage {
  id: string
  type: PageVersionRow['type']
  title: string
  path: string
}

type StringChange = { before?: string; after?: string }

export type SemanticChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: Record<string, StringChange> }
  | { type: 'page_moved'; page: ChangedPage; parent: { before?: ChangedPage; after?: ChangedPage } }
  | { type: 'file_created' | 'file_deleted'; file: ChangedFile }
  | { type: 'file_edited'; file: ChangedFile; attributes: Record<string, unknown> }
  | { type: 'variables_edited'; variables: Record<string, { before?: string; after?: string }> }
  | { type: 'reusable_content_created' | 'reusable_content_deleted'; reusableContent: ChangedReusableContent }
  | { type: 'reusable_content_edited'; reusableContent: ChangedReusableContent; attributes: { title?: StringChange; document?: StringChange } }

/** The official `ChangedRevisionReusableContent` (`document` is the id of its document: its version). */
interface ChangedReusableContent {
  id: string
  title: string
  document: string
}

/** The official `ChangedRevisionFile`. */
interface ChangedFile {
  id: string
  name: string
  contentType: string
  downloadURL: string
}

/** One kind of change: the changes of that kind between the two revisions, in a stable order. */
export type SemanticKind = (ctx: ReadContext, pair: RevisionPair) => SemanticChange[]

const changedPage = (ctx: ReadContext, rev: RevisionRow, page: PageVersionRow): ChangedPage => ({
  id: page.page,
  type: page.type,
  title: page.title,
  path: pagePath(ctx.tx, rev, page),
})

/** Attributes of a page version the official change attributes name, by page type. */
const ATTRIBUTES: Record<PageVersionRow['type'], ReadonlyArray<'title' | 'description' | 'slug' | 'emoji'>> = {
  document: ['title', 'description', 'slug', 'emoji'],
  group: ['title', 'emoji', 'slug'],
  link: ['title', 'emoji'],
}

/** What changed in a page kept on both sides (its place apart): the official attributes, empty when nothing of them did. */
function pageAttributes(known: Map<string, boolean>, before: PageVersionRow, after: PageVersionRow): Record<string, StringChange> {
  const out: Record<string, StringChange> = {}
  for (const key of ATTRIBUTES[after.type]) {
    if (before[key] === after[key]) continue
    out[key] = { ...(before[key] !== undefined && { before: before[key] }), ...(after[key] !== undefined && { after: after[key] }) }
  }
  // A body changed: named without its content (the official attribute is a string; the documents
  // themselves are read through the page's revision).
  if (after.type === 'document' && !sameBody(known, before, after)) out.document = {}
  return out
}

/**
 * Whether two versions of a page have the same body, kept per API (its services) and pair of
 * version ids: versions are immutable, so the answer never changes, and ids (not row objects)
 * survive a store that reads rows anew (SQLite's row cache lets large rows go). Bounded: the
 * oldest pairs go first.
 */
const MAX_PAIRS = 50_000
const sameBodies = new WeakMap<object, Map<string, boolean>>()

const pairKey = (before: PageVersionRow, after: PageVersionRow) => `${before.id}\u0000${after.id}`

function bodiesOf(ctx: ReadContext): Map<string, boolean> {
  let found = sameBodies.get(ctx.services)
  if (!found) sameBodies.set(ctx.services, (found = new Map()))
  return found
}

function sameBody(known: Map<string, boolean>, before: PageVersionRow, after: PageVersionRow): boolean {
  const key = pairKey(before, after)
  let same = known.get(key)
  if (same === undefined) {
    same = sameJson(before.document, after.document)
    rememberBounded(known, key, same, MAX_PAIRS)
  }
  return same
}

/** How many bodies a request compares inline; past it, it warms up first. */
const INLINE_BODIES = 64

/**
 * Comparing bodies is the one cost that follows the size of what changed: a change request that
 * rewrote thousands of pages holds the event loop for their whole text. Past INLINE_BODIES pages
 * edited on both sides and not compared before, the request warms up first (core/warmup.ts): the
 * pairs are listed in a read of their own, compared in slices (the results kept by pair), then
 * the request runs again and finds them.
 */
function warmBodies(ctx: ReadContext, { before, after }: RevisionPair): void {
  const known = bodiesOf(ctx)
  const pairs = (tx: ReadContext['tx']) => {
    const out: Array<[PageVersionRow, PageVersionRow]> = []
    for (const id of changedPages(tx, before, after)) {
      const old = pageIn(tx, before, id)
      const now = pageIn(tx, after, id)
      if (old?.type === 'document' && now?.type === 'document' && !known.has(pairKey(old, now))) out.push([old, now])
    }
    return out
  }
  if (pairs(ctx.tx).length <= INLINE_BODIES) return
  ctx.beforehand(async ({ read, slicer }) => {
    for (const [old, now] of read((tx) => pairs(tx))) {
      sameBody(known, old, now)
      if (slicer.due()) await slicer.maybeYield()
    }
  })
}

/**
 * Deep equality of two JSON values, stopping at the first difference and making no strings: a
 * body kept by an edit of the page's metadata is the same object (in memory) or compares equal
 * walking it once; an edited one usually differs early. Key order does not count, and neither do
 * the editor `key`s of nodes (not content, as for the merge: merge-blocks.ts).
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  const skip = KEYED_NODES.has(x.object) ? 'key' : undefined
  let keys = 0
  for (const key in x) {
    if (x[key] === undefined || key === skip) continue
    keys++
    if (!sameJson(x[key], y[key])) return false
  }
  for (const key in y) if (y[key] !== undefined && key !== skip) keys--
  return keys === 0
}

/** Pages created, deleted, moved (another parent) and edited (an attribute or the body). */
const pageChanges: SemanticKind = (ctx, { before, after }) => {
  const out: SemanticChange[] = []
  const parentOf = (rev: RevisionRow, id: string | undefined) => {
    const page = id === undefined ? undefined : pageIn(ctx.tx, rev, id)
    return page && changedPage(ctx, rev, page)
  }
  for (const id of changedPages(ctx.tx, before, after)) {
    const old = pageIn(ctx.tx, before, id)
    const now = pageIn(ctx.tx, after, id)
    if (!old && now) out.push({ type: 'page_created', page: changedPage(ctx, after, now) })
    else if (old && !now) out.push({ type: 'page_deleted', page: changedPage(ctx, before, old) })
    else if (old && now) {
      const page = changedPage(ctx, after, now)
      if (old.parent !== now.parent) {
        const parent: { before?: ChangedPage; after?: ChangedPage } = {}
        const from = parentOf(before, old.parent)
        const to = parentOf(after, now.parent)
        if (from) parent.before = from
        if (to) parent.after = to
        out.push({ type: 'page_moved', page, parent })
      }
      const attributes = pageAttributes(bodiesOf(ctx), old, now)
      if (Object.keys(attributes).length > 0) out.push({ type: 'page_edited', page, attributes })
    }
  }
  return out.sort((a, b) => (byKey(a) < byKey(b) ? -1 : byKey(a) > byKey(b) ? 1 : 0))
}

/** Pages sorted by path, then id and kind (code unit order): an order that does not depend on the index's layout. */
const byKey = (c: SemanticChange): string => ('page' in c ? `${c.page.path}\u0000${c.page.id}\u0000${c.type}` : c.type)

const changedFile = (ctx: ReadContext, file: FileRow): ChangedFile => {
  const { id, name, contentType, downloadURL } = encodeFile(ctx, file)
  return { id, name, contentType, downloadURL }
}

/**
 * Files added and removed. A file row never changes (a new version of a file is a new file), so
 * there is no `file_edited` to report.
 */
const fileChanges: SemanticKind = (ctx, { before, after }) => {
  if (before.files === after.files) return []
  const out: SemanticChange[] = []
  const had = new Set(before.files)
  const has = new Set(after.files)
  for (const id of after.files) {
    const file = had.has(id) ? undefined : ctx.tx.get('files', id)
    if (file) out.push({ type: 'file_created', file: changedFile(ctx, file) })
  }
  for (const id of before.files) {
    const file = has.has(id) ? undefined : ctx.tx.get('files', id)
    if (file) out.push({ type: 'file_deleted', file: changedFile(ctx, file) })
  }
  return out
}

/** The space's variables: one change naming each variable added, removed or changed. */
const variableChanges: SemanticKind = (_ctx, { before, after }) => {
  if (before.variables === after.variables) return []
  const variables: Record<string, { before?: string; after?: string }> = {}
  for (const name of new Set([...Object.keys(before.variables), ...Object.keys(after.variables)])) {
    const b = before.variables[name]
    const a = after.variables[name]
    if (a !== b) variables[name] = { ...(b !== undefined && { before: b }), ...(a !== undefined && { after: a }) }
  }
  return Object.keys(variables).length > 0 ? [{ type: 'variables_edited', variables }] : []
}

const changedReusableContent = (row: ReusableContentVersionRow): ChangedReusableContent => ({ id: row.reusableContent, title: row.title, document: row.id })

/**
 * Reusable contents created, deleted and edited: a revision names each by id and current version
 * (content/reusable.ts), and an edit makes a new version, so only ids whose version differs are
 * read. An edit names its title (before and after) and its body (`document`, the ids of the two
 * versions' documents) when they changed; a new version equal to the old one is no edit.
 */
const reusableContentChanges: SemanticKind = (ctx, { before, after }) => {
  const old = reusableContentsOf(before)
  const now = reusableContentsOf(after)
  if (old === now) return []
  const out: SemanticChange[] = []
  const read = (version: string | undefined) => (version === undefined ? undefined : ctx.tx.get('reusableContentVersions', version))
  for (const id of new Set([...Object.keys(now), ...Object.keys(old)])) {
    const was = Object.hasOwn(old, id) ? old[id] : undefined
    const is = Object.hasOwn(now, id) ? now[id] : undefined
    if (was === is) continue
    const a = read(was)
    const b = read(is)
    if (!a && b) out.push({ type: 'reusable_content_created', reusableContent: changedReusableContent(b) })
    else if (a && !b) out.push({ type: 'reusable_content_deleted', reusableContent: changedReusableContent(a) })
    else if (a && b) {
      const attributes: { title?: StringChange; document?: StringChange } = {}
      if (a.title !== b.title) attributes.title = { before: a.title, after: b.title }
      if (!sameJson(a.document, b.document)) attributes.document = { before: a.id, after: b.id }
      if (attributes.title || attributes.document) out.push({ type: 'reusable_content_edited', reusableContent: changedReusableContent(b), attributes })
    }
  }
  return out
}

/** Every kind of change, in the order they are listed. */
export const KINDS: readonly SemanticKind[] = [pageChanges, fileChanges, variableChanges, reusableContentChanges]

/** The official `RevisionSemanticChanges` without `mergedFrom`: at most `limit` changes, and how many more there are. */
export function semanticChanges(ctx: ReadContext, pair: RevisionPair, limit: number): { changes: SemanticChange[]; more?: number } {
  warmBodies(ctx, pair)
  const all = KINDS.flatMap((kind) => kind(ctx, pair))
  const changes = all.slice(0, limit)
  return all.length > limit ? { changes, more: all.length - limit } : { changes }
}
