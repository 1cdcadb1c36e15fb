import type { ReadContext } from '../context.js'
import { paginateList } from '../../core/paging.js'
import type { ReadTx } from '../../storage/port.js'
import type { AppSchema } from '../schema.js'
import type { PageVersionRow, RevisionRow } from './rows.js'
import { documentRefs, type ContentRef } from './markdown.js'
import { pageIn, walkPages } from './revision.js'

export type LinkStatus = 'ok' | 'broken' | 'in-app'

export interface LinkItem {
  status: LinkStatus
  relation: 'page' | 'file' | 'url'
  /** The page holding the link. */
  source: { page: string }
  targetReference: Record<string, unknown>
}

/**
 * The links of a revision, worked out once per revision: revisions are immutable, so the list
 * is kept (weakly, by the frozen row) and every later request for the same revision reads it;
 * an edit makes a new revision, whose list is new. A request never scans other spaces.
 */
const cache = new WeakMap<RevisionRow, LinkItem[]>()

/**
 * The references of each page version, kept the same way (a version is immutable): the list of a
 * new revision reads the documents of the pages that changed only, and takes the others' from here.
 * An edit of one page among 1,000 walks one document, not 1,000.
 */
const refsOf = new WeakMap<PageVersionRow, ContentRef[]>()

function versionRefs(page: PageVersionRow): ContentRef[] {
  let refs = refsOf.get(page)
  if (!refs) {
    refs = documentRefs(page.document)
    if (Object.isFrozen(page)) refsOf.set(page, refs)
  }
  return refs
}

export function revisionLinks(ctx: ReadContext, rev: RevisionRow): LinkItem[] {
  let links = cache.get(rev)
  if (links) return links
  links = []
  const tx: ReadTx<AppSchema> = ctx.tx
  const files = new Set(rev.files)
  for (const { page } of walkPages(tx, rev)) {
    for (const ref of versionRefs(page)) {
      const item = classify(ctx, tx, rev, files, ref)
      if (item) links.push({ ...item, source: { page: page.page } })
    }
  }
  if (Object.isFrozen(rev)) cache.set(rev, links)
  return links
}

/** The links of one page of a revision (none when the revision lacks it): its own references only, whatever the revision's size. */
export function pageLinks(ctx: ReadContext, rev: RevisionRow, pageId: string): LinkItem[] {
  const page = pageIn(ctx.tx, rev, pageId)
  if (!page) return []
  const files = new Set(rev.files)
  const links: LinkItem[] = []
  for (const ref of versionRefs(page)) {
    const item = classify(ctx, ctx.tx, rev, files, ref)
    if (item) links.push({ ...item, source: { page: page.page } })
  }
  return links
}

function classify(ctx: ReadContext, tx: ReadTx<AppSchema>, rev: RevisionRow, files: Set<string>, ref: ContentRef): Omit<LinkItem, 'source'> | undefined {
  const here = ref.space === undefined || ref.space === rev.space
  if (ref.kind === 'page' && typeof ref.page === 'string') {
    const ok = here ? pageIn(tx, rev, ref.page) !== undefined : true
    return { status: ok ? 'ok' : 'broken', relation: 'page', targetReference: { ...ref, space: ref.space ?? rev.space } }
  }
  if (ref.kind === 'anchor' && typeof ref.anchor === 'string') {
    // An anchor in another page is broken when that page is gone; one in the page itself never is.
    const ok = !here || typeof ref.page !== 'string' || pageIn(tx, rev, ref.page) !== undefined
    return { status: ok ? 'ok' : 'broken', relation: 'page', targetReference: { ...ref, space: ref.space ?? rev.space } }
  }
  if (ref.kind === 'file' && typeof ref.file === 'string') {
    const ok = here ? files.has(ref.file) : true
    return { status: ok ? 'ok' : 'broken', relation: 'file', targetReference: { ...ref, space: ref.space ?? rev.space } }
  }
  if (ref.kind === 'url' && typeof ref.url === 'string') {
    const inApp = ref.url.startsWith(ctx.urls.app('/')) || ref.url.startsWith(ctx.urls.base)
    return { status: inApp ? 'in-app' : 'ok', relation: 'url', targetReference: ref }
  }
  return undefined
}

/** A page of link items (after the `status` filter) with `stats` over all of them. */
export function linksPage(
  all: LinkItem[],
  query: { status?: LinkStatus | undefined; page?: string | undefined; limit: number },
  brokenInChangeRequest: number,
) {
  const shown = query.status === undefined ? all : all.filter((l) => l.status === query.status)
  return {
    ...paginateList(shown, query),
    stats: { total: all.length, broken: { total: all.filter((l) => l.status === 'broken').length, changeRequest: brokenInChangeRequest } },
  }
}
