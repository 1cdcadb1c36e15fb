import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { ChangeRequestRow } from './rows.js'
import type { FileRow, RevisionRow } from '../content/rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { JsonDocument } from '../content/document.js'
import { emptyDocument } from '../content/document.js'
import { mapObjects } from '../content/map-json.js'
import { RevisionDraft, type PageData } from '../content/draft.js'
import type { ReadMarkdownOutput } from '../content/markdown-task.js'
import { findRevision, pageIn, requireRevision } from '../content/revision.js'
import { relativePageTarget } from '../content/relative-links.js'
import { slugify, uniqueSlug } from '../content/slug.js'
import { getSpace } from '../spaces/model.js'
import { baseRevisionOf, requireEditable, requireUnlocked, withContributor } from './model.js'
import { PageUpdateFields, type ContentChange } from './schemas.js'
import { z } from 'zod'

/** A file of the batch, its bytes already in the blob port (see prepare.ts). */
export interface PreparedFile {
  change: number
  index: number
  ref?: string
  name: string
  contentType: string
  size: number
  dimensions?: { width: number; height: number }
  blob: string
}

export type Outcome = { object: 'created_page'; ref?: string; page: string } | { object: 'updated_page'; page: string } | { object: 'deleted_page'; page: string }

const field = (i: number, name: string) => `Invalid request: body field \`changes[${i}].${name}\``

type Metadata = Partial<Pick<PageData, 'title' | 'slug' | 'emoji' | 'icon' | 'description' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'condition'>>

/** The frontmatter's metadata, held to the rules of the same fields in a change (a 400 naming the key and the rule). */
const FrontmatterSchema = z.object(PageUpdateFields)

/** Metadata a markdown frontmatter may carry, read with the types the page fields have. */
function frontmatterMetadata(fm: Record<string, unknown>, i: number): Metadata {
  const out: Record<string, unknown> = {}
  for (const key of ['title', 'slug', 'emoji', 'icon', 'description', 'condition'] as const) {
    const value = fm[key]
    // YAML reads `title: 2024` as a number: a scalar is meant as text.
    if (typeof value === 'string' || (key === 'title' && typeof value === 'number')) out[key] = String(value)
  }
  for (const key of ['hidden', 'noIndex', 'noRobotsIndex'] as const) if (typeof fm[key] === 'boolean') out[key] = fm[key]
  const checked = FrontmatterSchema.safeParse(out)
  if (!checked.success) {
    const issue = checked.error.issues[0]!
    throw new ApiError('BAD_REQUEST', `${field(i, 'document.markdown')}: frontmatter \`${String(issue.path[0])}\` ${issue.message}`)
  }
  return checked.data
}

/**
 * The body and metadata a change's `document` gives. Markdown was read before the transaction
 * (prepare-markdown.ts, `read`): its frontmatter is read (and wins over the change's fields), and
 * with `takeTitle` (insert_page, as Git Sync reads a file) a leading `# Heading` is the title when
 * the frontmatter has none; its block keys were made then.
 */
function readDocument(ctx: Context, input: { markdown: string } | { document: JsonDocument } | { markdown?: undefined; document?: undefined }, i: number, read: ReadMarkdownOutput | undefined): { document: JsonDocument; meta: Metadata } {
  if ('markdown' in input && input.markdown !== undefined) {
    if (!read) throw new Error(`changes[${i}]: markdown not read before the transaction`)
    if (!read.ok) throw new ApiError('BAD_REQUEST', `${field(i, 'document.markdown')}: ${read.message}`)
    const parsed = read.value
    const meta = frontmatterMetadata(parsed.frontmatter, i)
    if (parsed.title !== undefined && meta.title === undefined) {
      const heading = FrontmatterSchema.shape.title.safeParse(parsed.title)
      if (!heading.success) throw new ApiError('BAD_REQUEST', `${field(i, 'document.markdown')}: the leading heading, read as the page's title, ${heading.error.issues[0]!.message}`)
      meta.title = parsed.title
    }
    return { document: parsed.document, meta }
  }
  if ('document' in input && input.document !== undefined) return { document: input.document, meta: {} }
  return { document: emptyDocument(), meta: {} }
}

/** What a batch `ref` names: a page inserted or a file inserted by the batch. */
type BatchRef = { kind: 'page'; page: string } | { kind: 'file'; file: string }

/** Nodes whose reference may only be a file or a URL (images, an OpenAPI file): a page there stays a URL. */
const FILE_OR_URL_REFS: ReadonlySet<string> = new Set(['image', 'inline-image', 'swagger'])

/**
 * Links of the batch to a page or file by its `ref` become page and file references, wherever
 * they are (table cells and captions included), where the node's reference may be of that kind.
 * A relative link to a page file (`usage.md`, `../api.md#setup`: what `format.markdown.refs=relative`
 * writes), from a page whose parent's path is `dir`, becomes a link to the page of the draft at that
 * path (an anchor link with the anchor); one naming no page stays a URL.
 */
function resolveRefs(doc: JsonDocument, refs: ReadonlyMap<string, BatchRef>, draft: RevisionDraft, dir: string, linkless?: WeakSet<object>): JsonDocument {
  // A document the prepare step found without URL links has nothing to resolve: not walked again.
  if (linkless?.has(doc)) return doc
  const target = (url: unknown): BatchRef | { kind: 'anchor'; anchor: string; page: string } | undefined => {
    if (typeof url !== 'string') return undefined
    const name = url.replace(/^\.\//, '')
    const batch = refs.get(name) ?? refs.get(name.replace(/\.md$/, ''))
    if (batch) return batch
    const link = relativePageTarget(dir, url)
    const page = link && draft.byPath(link.path)
    if (!page) return undefined
    return link.anchor === undefined ? { kind: 'page', page } : { kind: 'anchor', anchor: link.anchor, page }
  }
  // Copy-on-write: a document without such links is kept as it is (frozen before the transaction, it is stored without a walk).
  return mapObjects(doc, (obj, children) => {
    const node = obj as { object?: unknown; type?: string; data?: { ref?: { kind?: string; url?: unknown } } }
    const ref = node.object === 'block' || node.object === 'inline' ? node.data?.ref : undefined
    const found = ref?.kind === 'url' ? target(ref.url) : undefined
    const resolved = found && (found.kind === 'file' || !FILE_OR_URL_REFS.has(node.type ?? '')) ? found : undefined
    const out = children(obj)
    return resolved ? { ...out, data: { ...(out.data as object), ref: resolved } } : out
  })
}

const METADATA_KEYS = ['title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'condition'] as const

function applyMetadata(base: PageData, fields: Metadata): PageData {
  const next: PageData = { ...base }
  for (const key of METADATA_KEYS) {
    const value = fields[key]
    if (value === undefined) continue
    // An empty emoji, icon or condition removes it (official RevisionPageUpdate).
    if ((key === 'emoji' || key === 'icon' || key === 'condition') && value === '') delete next[key]
    else (next as Record<string, unknown>)[key] = value
  }
  return next
}

const NO_SLUGS: { has(slug: string): boolean } = { has: () => false }

function place(draft: RevisionDraft, parent: string | undefined, pageId: string, at: number | undefined): void {
  const list = draft.children(parent).filter((id) => id !== pageId)
  const index = at === undefined ? list.length : Math.min(at, list.length)
  list.splice(index, 0, pageId)
  draft.setChildren(parent, list)
}

function unplace(draft: RevisionDraft, parent: string | undefined, pageId: string): void {
  draft.setChildren(
    parent,
    draft.children(parent).filter((id) => id !== pageId),
  )
}

/**
 * Apply a batch of content changes to a change request: one new revision for the whole batch,
 * or nothing at all when any change is invalid (the transaction rolls back). Main is untouched.
 */
/** A change request whose content may change: in progress (409 otherwise), in a space not locked (403). Returns the space. */
export function requireContentEditable(ctx: ReadContext, cr: ChangeRequestRow): SpaceRow {
  requireEditable(cr)
  const space = getSpace(ctx, cr.space)
  requireUnlocked(space)
  return space
}

export function applyContentChanges(ctx: Context, cr: ChangeRequestRow, changes: readonly ContentChange[], prepared: { files: readonly PreparedFile[]; markdown: ReadonlyMap<number, ReadMarkdownOutput>; linkless?: WeakSet<object> }) {
  const { files } = prepared
  const space = requireContentEditable(ctx, cr)
  const current = requireRevision(ctx, space, cr.revision)
  const draft = new RevisionDraft(ctx, current)
  const now = ctx.nowIso()
  const outcomes = new Map<string, Outcome>()
  // One outcome per page, in first-touched order (Map keeps it): the first, unless the page is deleted later.
  const note = (o: Outcome) => {
    if (!outcomes.has(o.page) || o.object === 'deleted_page') outcomes.set(o.page, o)
  }

  // Refs first: pages and files of the batch can link to each other whatever their order.
  const refs = new Map<string, BatchRef>()
  const pageIds = new Map<number, string>()
  changes.forEach((change, i) => {
    if (change.operation !== 'insert_page') return
    const id = ctx.newId()
    pageIds.set(i, id)
    if (change.ref !== undefined) {
      if (refs.has(change.ref)) throw new ApiError('BAD_REQUEST', `${field(i, 'ref')}: "${change.ref}" is used twice in the batch`)
      refs.set(change.ref, { kind: 'page', page: id })
    }
  })
  const inserted: FileRow[] = []
  for (const file of files) {
    const row = ctx.tx.insert('files', { id: ctx.newId(), space: space.id, name: file.name, contentType: file.contentType, size: file.size, blob: file.blob, createdAt: now, ...(file.dimensions && { dimensions: file.dimensions }) })
    inserted.push(row)
    if (file.ref !== undefined) {
      if (refs.has(file.ref)) throw new ApiError('BAD_REQUEST', `${field(file.change, `files[${file.index}].ref`)}: "${file.ref}" is used twice in the batch`)
      refs.set(file.ref, { kind: 'file', file: row.id })
    }
  }
  if (inserted.length > 0) draft.files = [...draft.files, ...inserted.map((f) => f.id)]
  // A parent (`into`) is a page id, or the ref of a page inserted earlier in the batch.
  const pageOf = (id: string): string => {
    const ref = draft.has(id) ? undefined : refs.get(id)
    return ref?.kind === 'page' ? ref.page : id
  }

  changes.forEach((change, i) => {
    switch (change.operation) {
      case 'insert_page': {
        const id = pageIds.get(i)!
        const parent = change.into === undefined ? undefined : pageOf(change.into)
        if (parent !== undefined && !draft.has(parent)) throw new ApiError('BAD_REQUEST', `${field(i, 'into')}: no page "${parent}" in the change request`)
        const { document, meta } = readDocument(ctx, change.document, i, prepared.markdown.get(i))
        const fields: Metadata = { ...change, ...meta }
        const title = fields.title ?? 'Untitled'
        const taken = draft.takenSlugs(parent)
        let slug: string
        if (fields.slug !== undefined) {
          if (taken.has(fields.slug)) throw new ApiError('BAD_REQUEST', `${field(i, 'slug')}: "${fields.slug}" is taken by a sibling page (slugs are unique among siblings)`)
          slug = fields.slug
        } else slug = uniqueSlug(slugify(title), taken)
        const page = applyMetadata(
          { page: id, space: space.id, type: 'document', title, slug, children: [], document: resolveRefs(document, refs, draft, draft.pathOf(parent), prepared.linkless), createdAt: now, updatedAt: now, ...(parent !== undefined && { parent }) },
          { ...fields, title, slug },
        )
        draft.set(id, page)
        place(draft, parent, id, change.at)
        note({ object: 'created_page', page: id, ...(change.ref !== undefined && { ref: change.ref }) })
        break
      }
      case 'update_page': {
        const old = draft.get(change.page)
        if (!old) throw new ApiError('BAD_REQUEST', `${field(i, 'page')}: no page "${change.page}" in the change request`)
        const body = change.document === undefined ? undefined : readDocument(ctx, change.document, i, prepared.markdown.get(i))
        const fields: Metadata = { ...change, ...body?.meta }
        const parent = change.into === undefined ? old.parent : change.into === null ? undefined : pageOf(change.into)
        if (parent !== undefined) {
          if (!draft.has(parent)) throw new ApiError('BAD_REQUEST', `${field(i, 'into')}: no page "${parent}" in the change request`)
          if (draft.isWithin(parent, change.page)) throw new ApiError('BAD_REQUEST', `${field(i, 'into')}: a page cannot move into itself or one of its subpages`)
        }
        const moved = parent !== old.parent
        // The siblings' slugs (a read of each sibling) only when this page's slug may change or
        // meet new siblings: an edit of a body or other metadata costs the same among 10 or 1,000.
        const slugMayChange = moved || fields.slug !== undefined || (fields.title !== undefined && fields.title !== old.title)
        const taken = slugMayChange ? draft.takenSlugs(parent, change.page) : NO_SLUGS
        if (fields.slug !== undefined && taken.has(fields.slug)) {
          throw new ApiError('BAD_REQUEST', `${field(i, 'slug')}: "${fields.slug}" is taken by a sibling page (slugs are unique among siblings)`)
        }
        let next = applyMetadata({ ...old, updatedAt: now }, fields)
        // A slug set explicitly stays; a derived one follows a new title.
        if (fields.slug === undefined && fields.title !== undefined && fields.title !== old.title && old.slug === slugify(old.title)) next.slug = uniqueSlug(slugify(fields.title), taken)
        else if (fields.slug === undefined && taken.has(next.slug)) next.slug = uniqueSlug(next.slug, taken)
        if (body) next.document = resolveRefs(body.document, refs, draft, draft.pathOf(parent), prepared.linkless)
        if (moved) {
          unplace(draft, old.parent, change.page)
          next = { ...next }
          if (parent === undefined) delete next.parent
          else next.parent = parent
        }
        draft.set(change.page, next)
        if (moved || change.at !== undefined) place(draft, parent, change.page, change.at)
        note({ object: 'updated_page', page: change.page })
        break
      }
      case 'delete_page': {
        const page = draft.get(change.page)
        if (!page) throw new ApiError('BAD_REQUEST', `${field(i, 'page')}: no page "${change.page}" in the change request`)
        unplace(draft, page.parent, change.page)
        const drop = (id: string) => {
          for (const child of draft.get(id)?.children ?? []) drop(child)
          draft.remove(id)
          note({ object: 'deleted_page', page: id })
        }
        drop(change.page)
        break
      }
      case 'revert_page': {
        // A revision named in the body is input: one the space lacks is a 400 naming the field.
        const target = change.revision === undefined ? requireRevision(ctx, space, baseRevisionOf(cr)) : findRevision(ctx.tx, space, change.revision)
        if (!target) throw new ApiError('BAD_REQUEST', `${field(i, 'revision')}: no revision "${change.revision}" in the space`)
        if (change.block !== undefined) revertBlocks(ctx, draft, target, change.page, change.block, i, now)
        else revertPage(ctx, draft, target, change.page, i)
        note(draft.has(change.page) ? { object: 'updated_page', page: change.page } : { object: 'deleted_page', page: change.page })
        break
      }
      case 'insert_files':
        break
    }
  })

  const revision = draft.commit({ type: 'edits', parents: [current.id], changeRequest: cr.id })
  const updated = ctx.tx.update('changeRequests', { ...cr, revision: revision.id, updatedAt: now, contributors: withContributor(ctx, cr) })
  return { changeRequest: updated, outcomes: [...outcomes.values()], files: inserted }
}

/** Put a page back as it is in `target`: restored (with its place) when it was deleted or changed, removed when `target` lacks it. */
function revertPage(ctx: Context, draft: RevisionDraft, target: RevisionRow, pageId: string, i: number): void {
  const before = pageIn(ctx.tx, target, pageId)
  const now = draft.get(pageId)
  if (!before && !now) throw new ApiError('BAD_REQUEST', `${field(i, 'page')}: no page "${pageId}" in the change request or the revision`)
  if (!before) {
    unplace(draft, now!.parent, pageId)
    const drop = (id: string) => {
      for (const child of draft.get(id)?.children ?? []) drop(child)
      draft.remove(id)
    }
    drop(pageId)
    return
  }
  // Back under its parent in `target`, unless that page is gone or now below this one (the change
  // request moved it there): then at the root, as a page cannot be its own ancestor.
  const parent = before.parent !== undefined && draft.has(before.parent) && !draft.isWithin(before.parent, pageId) ? before.parent : undefined
  if (now) unplace(draft, now.parent, pageId)
  // Children keep what the change request has (they are pages of their own); the rest comes back.
  const children = now ? now.children : []
  const { id: _version, ...fields } = before
  const restored: PageData = { ...fields, children }
  if (parent === undefined) delete restored.parent
  const taken = draft.takenSlugs(parent, pageId)
  if (taken.has(restored.slug)) restored.slug = uniqueSlug(restored.slug, taken)
  draft.set(pageId, restored)
  const siblings = before.parent === undefined ? target.rootPages : (pageIn(ctx.tx, target, before.parent)?.children ?? [])
  const position = siblings.indexOf(pageId)
  place(draft, parent, pageId, position < 0 ? undefined : position)
}

/**
 * Revert only the listed top-level blocks of a page (by `key`) to what they are in `target`: a
 * block the page has and the target lacks is removed, one the target has and the page lacks is
 * put back, one both have is reset to the target's content and place. A block comes back (or
 * goes back) right after the nearest block before it in the target that the page still holds.
 * The other blocks and the page's metadata stay as they are. A key in neither is a 400.
 */
function revertBlocks(ctx: Context, draft: RevisionDraft, target: RevisionRow, pageId: string, keys: readonly string[], i: number, now: string): void {
  const page = draft.get(pageId)
  if (!page) throw new ApiError('BAD_REQUEST', `${field(i, 'page')}: no page "${pageId}" in the change request (a deleted page is reverted whole, without \`block\`)`)
  const targetBlocks = pageIn(ctx.tx, target, pageId)?.document.nodes ?? []
  const byKey = new Map(targetBlocks.flatMap((b) => (b.key === undefined ? [] : [[b.key, b] as const])))
  let blocks = [...page.document.nodes]
  keys.forEach((key, j) => {
    if (!byKey.has(key) && !blocks.some((b) => b.key === key)) throw new ApiError('BAD_REQUEST', `${field(i, `block[${j}]`)}: no block "${key}" in the page or in the revision it is reverted to`)
  })
  const wanted = new Set(keys)
  blocks = blocks.filter((b) => b.key === undefined || !wanted.has(b.key))
  // Put back the target's blocks, in the target's order, each after its nearest kept predecessor.
  targetBlocks.forEach((block, index) => {
    if (block.key === undefined || !wanted.has(block.key)) return
    let at = 0
    for (let k = index - 1; k >= 0; k--) {
      const before = targetBlocks[k]!.key
      const found = before === undefined ? -1 : blocks.findIndex((b) => b.key === before)
      if (found >= 0) {
        at = found + 1
        break
      }
    }
    blocks.splice(at, 0, block)
  })
  draft.set(pageId, { ...page, document: { ...page.document, nodes: blocks }, updatedAt: now })
}
