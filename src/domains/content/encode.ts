import type { Context, ReadContext } from '../context.js'
import type { FileRow, PageVersionRow, RevisionRow } from './rows.js'
import type { JsonDocument } from './document.js'
import { documentRefs } from './markdown.js'
import { childrenOf, pagePath } from './revision.js'
import { withRelativePageLinks } from './relative-links.js'
import { encodeReusableContent, listReusableContents } from './reusable.js'

export type DocumentFormat = 'document' | 'markdown'

/** How markdown writes page links (`format.markdown.refs`): stable ids (`/pages/<id>`, the default here) or relative links between pages. */
export type MarkdownRefs = 'stable' | 'relative'

/** The layout of every page (the official document requires each option; these are the product's defaults). */
const DEFAULT_LAYOUT = Object.freeze({
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
})

/** Where a file's bytes are served, without a token (the key is unguessable), by the API's own fetch. */
export const fileDownloadUrl = (ctx: ReadContext, file: FileRow): string => `${ctx.urls.base}/files/${file.blob}/${encodeURIComponent(file.name)}`

export function encodeFile(ctx: ReadContext, file: FileRow) {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: fileDownloadUrl(ctx, file),
    size: file.size,
    ...(file.dimensions && { dimensions: file.dimensions }),
    // Where a Git Sync import read it (the official GitSyncBlob).
    ...(file.git && { git: file.git }),
  }
}

/**
 * A page as the official `RevisionPageDocument`: metadata, its path in the revision, exactly one
 * of `document` or `markdown` (by `format`), and its children the same way when `deep` (a page
 * read alone carries its children without bodies would break the official schema, so they are
 * encoded in full too).
 */
export function encodePage(
  ctx: ReadContext,
  rev: RevisionRow,
  page: PageVersionRow,
  format: DocumentFormat,
  path = pagePath(ctx.tx, rev, page),
  refs: MarkdownRefs = 'stable',
  evaluate?: (document: JsonDocument) => JsonDocument,
): Record<string, unknown> {
  const children = childrenOf(ctx.tx, rev, page).map((child) => encodePage(ctx, rev, child, format, `${path}/${child.slug}`, refs, evaluate))
  // The body as this reader gets it (`evaluated`: content/evaluate.ts), or as stored.
  const document = evaluate ? evaluate(page.document) : page.document
  const out: Record<string, unknown> = {
    id: page.page,
    title: page.title,
    kind: page.type === 'document' ? 'sheet' : page.type,
    type: page.type,
    ...(page.emoji !== undefined && { emoji: page.emoji }),
    ...(page.icon !== undefined && { icon: page.icon }),
    ...(page.description !== undefined && { description: page.description }),
    ...(page.hidden !== undefined && { hidden: page.hidden }),
    ...(page.noIndex !== undefined && { noIndex: page.noIndex }),
    ...(page.noRobotsIndex !== undefined && { noRobotsIndex: page.noRobotsIndex }),
    // As officially: a page's condition is shown to users, never to a site token's visitor.
    ...(page.condition !== undefined && !ctx.actor.content && { condition: page.condition }),
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    slug: page.slug,
    path,
    urls: { app: pageAppUrl(ctx, page.space, path) },
    layout: DEFAULT_LAYOUT,
    tags: [],
    pages: children,
    // The file a Git Sync import read it from (the official GitSyncBlob).
    ...(page.git && page.type === 'document' && { git: page.git }),
    // The id of its body (content/documents.ts: the version's id), for `getDocumentById`.
    ...(page.type === 'document' && { documentId: page.id }),
    ...(format === 'markdown' ? { markdown: '' } : { document }),
  }
  if (format === 'markdown') laterMarkdown(ctx, rev, page, document, path, refs, out)
  return out
}

/**
 * A page's body as markdown, written into `out.markdown` after the transaction through the
 * offload (ctx.later: a large page is not written on the event loop); with `relative`, its links
 * to pages of the revision are relative links (content/relative-links.ts).
 */
function laterMarkdown(
  ctx: ReadContext,
  rev: RevisionRow,
  page: PageVersionRow,
  body: JsonDocument,
  path: string,
  refs: MarkdownRefs,
  out: Record<string, unknown>,
): void {
  const document = refs === 'relative' ? withRelativePageLinks(ctx.tx, rev, path, body) : body
  const fileNames: Record<string, string> = {}
  for (const ref of documentRefs(document)) {
    const name = ref.kind === 'file' && typeof ref.file === 'string' ? ctx.tx.get('files', ref.file)?.name : undefined
    if (name !== undefined) fileNames[ref.file as string] = name
  }
  ctx.later('writeMarkdown', { document, fileNames }, (written) => {
    if (!written.ok) throw new Error(`Page ${page.page} could not be written as markdown: ${written.message}`)
    out.markdown = written.markdown
  })
}

/** The root pages of a revision, each with its subtree. */
export const encodePageTree = (ctx: ReadContext, rev: RevisionRow, format: DocumentFormat) =>
  childrenOf(ctx.tx, rev, undefined).map((page) => encodePage(ctx, rev, page, format, page.slug))

export function encodeFiles(ctx: ReadContext, rev: RevisionRow) {
  const out = []
  for (const id of rev.files) {
    const file = ctx.tx.get('files', id)
    if (file) out.push(encodeFile(ctx, file))
  }
  return out
}

/** A revision (`mergedFrom`, the merged change request, is added by the change-requests area's hook: handlers.ts answerRevision). */
export function encodeRevision(ctx: ReadContext, rev: RevisionRow, extra: Record<string, unknown> = {}) {
  return {
    object: 'revision' as const,
    id: rev.id,
    parents: [...rev.parents],
    type: rev.type,
    pages: encodePageTree(ctx, rev, 'document'),
    files: encodeFiles(ctx, rev),
    reusableContents: listReusableContents(ctx.tx, rev).map(encodeReusableContent),
    tags: [],
    variables: { ...rev.variables },
    createdAt: rev.createdAt,
    urls: { app: ctx.urls.app(`/s/${rev.space}/~/revisions/${rev.id}`) },
    // The commit a Git Sync import made it from (the official GitSyncCommit).
    ...(rev.git && { git: rev.git }),
    ...extra,
  }
}

/**
 * A page's URL in the application: its path's segments percent-encoded (a slug may hold letters
 * of any script, `中文-页面`; a URL carries only ASCII).
 */
export function pageAppUrl(ctx: Pick<Context, 'urls'>, space: string, path: string): string {
  return ctx.urls.app(`/s/${space}/${path.split('/').map(encodeURIComponent).join('/')}`)
}
