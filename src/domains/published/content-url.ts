import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { RevisionRow } from '../content/rows.js'
import { encodeCollection } from '../collections/encode.js'
import { encodeSpace } from '../spaces/encode.js'
import { encodePage } from '../content/encode.js'
import { findRevision, pageByPath, requireRevision } from '../content/revision.js'
import { encodeChangeRequest } from '../change-requests/encode.js'
import { findSiteByUrl, matchContent, parseUrl } from './resolve.js'

/**
 * `getContentByUrl`: the collection, space, change request and page a URL of this API's
 * application names (`urls.app` of collections, spaces, pages, revisions and change requests:
 * `/c/{id}`, `/s/{id}/{page path}`, `/s/{id}/~/revisions/{id}/{path}`, `/s/{id}/~/changes/{number}/{path}`),
 * or a published URL (the space and page it shows). What the caller may not see is a 404, as
 * the same read by id would be.
 */
export function contentByUrl(ctx: ReadContext, text: string) {
  const url = parseUrl(text)
  if (!url) throw notFound()
  const app = parseUrl(ctx.urls.app('/'))
  if (app && app.host === url.host && app.segments.every((s, i) => url.segments[i] === s)) return appContent(ctx, url.segments.slice(app.segments.length))
  const site = findSiteByUrl(ctx, url)
  const match = site && matchContent(ctx, site, url, () => true)
  if (!match) throw notFound()
  return spaceContent(ctx, readableSpace(ctx, match.siteSpace.space), match.rest)
}

const notFound = () => new ApiError('NOT_FOUND', 'No content found for the URL')

function readableSpace(ctx: ReadContext, id: string): SpaceRow {
  const space = ctx.tx.get('spaces', id)
  if (!space || space.deletedAt || !ctx.access.can('space', id, 'view')) throw notFound()
  return space
}

function appContent(ctx: ReadContext, segments: string[]) {
  const [kind, id, ...rest] = segments
  if (kind === 'c' && id !== undefined && rest.length === 0) {
    const collection = ctx.tx.get('collections', id)
    if (!collection || !ctx.access.can('collection', id, 'view')) throw notFound()
    return { collection: encodeCollection(ctx, collection) }
  }
  if (kind !== 's' || id === undefined) throw notFound()
  const space = readableSpace(ctx, id)
  if (rest[0] !== '~') return spaceContent(ctx, space, rest)
  const [, what, ref, ...path] = rest
  if (what === 'revisions' && ref !== undefined) {
    const rev = findRevision(ctx.tx, space, ref)
    // A change request's revision is for those who read change requests, as getRevisionById has it.
    if (!rev || (rev.changeRequest !== undefined && !ctx.access.can('space', space.id, 'viewChangeRequests'))) throw notFound()
    return spaceContent(ctx, space, path, rev)
  }
  if (what === 'changes' && ref !== undefined && ctx.access.can('space', space.id, 'viewChangeRequests')) {
    const cr = /^[1-9]\d{0,9}$/.test(ref)
      ? ctx.tx.scan('changeRequests', 'byNumber', `${space.id}/${ref}`, { limit: 1 })[0]?.row
      : ctx.tx.get('changeRequests', ref)
    if (!cr || cr.space !== space.id) throw notFound()
    return { ...spaceContent(ctx, space, path, requireRevision(ctx, space, cr.revision)), changeRequest: encodeChangeRequest(ctx, cr) }
  }
  throw notFound()
}

/** The space, and the page at `path` in `rev` (main by default) when a path is given: a 404 when there is none. */
function spaceContent(ctx: ReadContext, space: SpaceRow, path: readonly string[], rev: RevisionRow = requireRevision(ctx, space, space.revision)) {
  const out: { space: ReturnType<typeof encodeSpace>; page?: Record<string, unknown> } = { space: encodeSpace(ctx, space) }
  if (path.length > 0) {
    const page = pageByPath(ctx.tx, rev, path.join('/'))
    if (!page) throw notFound()
    out.page = encodePage(ctx, rev, page, 'document')
  }
  return out
}
