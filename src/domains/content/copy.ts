import type { Context } from '../context.js'
import type { JsonDocument } from './document.js'
import type { RevisionRow } from './rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import { mainRevision, walkPages } from './revision.js'
import { indexSet } from './tree-index.js'
import { mapObjects } from './map-json.js'
import { listReusableContents } from './reusable.js'

/**
 * A copy of a space's main content for another space (duplicating a space): every page of the
 * main revision as a new version row of the target space, keeping its page id (so links between
 * pages, `/pages/<id>`, still point inside the copy), and every file as a new file row of the
 * target space with a new id (file ids are unique across spaces), its bytes shared in the blob
 * port (blobs are immutable). References to the copied files inside page bodies are rewritten to
 * the new ids. Reusable contents are copied as pages are (their ids kept, new version rows). The copy is one revision of type `edits` with no parents: nothing in it is shared
 * with the source, so later edits of either space never show in the other. Cost: O(pages + files).
 *
 * Returns undefined when the source's main content is the empty revision (no row written).
 */
export function copyMainContent(ctx: Context, source: SpaceRow, target: string): RevisionRow | undefined {
  const rev = mainRevision(ctx, source)
  const reusable = listReusableContents(ctx.tx, rev)
  if (rev.rootPages.length === 0 && rev.files.length === 0 && reusable.length === 0) return undefined
  const now = ctx.nowIso()
  const fileIds = new Map<string, string>()
  const files = rev.files.map((id) => {
    const file = ctx.tx.get('files', id)!
    const copy = ctx.tx.insert('files', { ...file, id: ctx.newId(), space: target, createdAt: now })
    fileIds.set(id, copy.id)
    return copy.id
  })
  const versions = new Map<string, string>()
  for (const { page } of walkPages(ctx.tx, rev)) {
    const document = fileIds.size === 0 ? page.document : (withFileIds(page.document, fileIds) as JsonDocument)
    versions.set(page.page, ctx.tx.insert('pageVersions', { ...page, id: ctx.newId(), space: target, document }).id)
  }
  // Reusable contents keep their ids too: the copied pages' `reusable-content` blocks name them.
  const reusableContents: Record<string, string> = {}
  for (const content of reusable) {
    const document = fileIds.size === 0 ? content.document : (withFileIds(content.document, fileIds) as JsonDocument)
    reusableContents[content.reusableContent] = ctx.tx.insert('reusableContentVersions', { ...content, id: ctx.newId(), space: target, document }).id
  }
  return ctx.tx.insert('revisions', {
    id: ctx.newId(),
    space: target,
    parents: [],
    type: 'edits',
    createdAt: now,
    rootPages: rev.rootPages,
    buckets: indexSet(ctx, [], versions),
    files,
    variables: rev.variables,
    ...(reusable.length > 0 && { reusableContents }),
    // Page ids are kept by the copy: the redirects name the same pages.
    ...(rev.redirects !== undefined && { redirects: rev.redirects }),
  })
}

/**
 * A document with every file reference (`{ kind: 'file', file }`, in any block's or inline's
 * data: an image's `ref` and `refDark`, a file block, a link to a file) pointing at the new id.
 * Only the objects on the way to a changed reference are copied. Translation runs use it too, for
 * the result space's copies of the source's files.
 */
export function withFileIds(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  return mapObjects(value, (obj, children) =>
    obj.kind === 'file' && typeof obj.file === 'string' && ids.has(obj.file) ? { ...obj, file: ids.get(obj.file) } : children(obj),
  )
}
