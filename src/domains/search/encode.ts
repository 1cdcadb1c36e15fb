import type { ReadContext } from '../context.js'
import type { PageVersionRow, RevisionRow } from '../content/rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import { findRevision, pageIn } from '../content/revision.js'
import { excerpt } from './excerpt.js'
import { matchedTerms, type PageHit } from './ranking.js'
import { pageSections } from './sections.js'

/**
 * Search results as the official `SearchPageResult` and `SearchSpaceResult`. The path, the
 * ancestors and the URLs are read from the space's current revision when the answer is made (a
 * page moved under another keeps its indexed text: only its place changed). URLs are the app's,
 * as a page's own `urls.app`, percent-encoded so they are valid URIs whatever the slugs hold.
 */

/** The current revision of each space a result names, read once per answer. */
export type Revisions = Map<string, { space: SpaceRow; rev: RevisionRow }>

function revisionOf(ctx: ReadContext, revisions: Revisions, spaceId: string) {
  let found = revisions.get(spaceId)
  if (!found) {
    const space = ctx.tx.get('spaces', spaceId)!
    revisions.set(spaceId, (found = { space, rev: findRevision(ctx.tx, space, space.revision)! }))
  }
  return found
}

/** A page's path and its ancestors' titles (from the top-level page down to its parent), in one walk up. */
function placeOf(ctx: ReadContext, rev: RevisionRow, page: PageVersionRow): { path: string; ancestors: Array<{ title: string }> } {
  const slugs = [page.slug]
  const ancestors: Array<{ title: string }> = []
  for (let p = page.parent; p !== undefined;) {
    const parent = pageIn(ctx.tx, rev, p)
    if (!parent) break
    slugs.push(parent.slug)
    ancestors.push({ title: parent.title })
    p = parent.parent
  }
  return { path: slugs.reverse().join('/'), ancestors: ancestors.reverse() }
}

const round = (score: number) => Math.round(score * 1000) / 1000

/** A page of the results with its best sections (at most `maxSections`, and those ranking found). */
export function encodePageHit(ctx: ReadContext, revisions: Revisions, hit: PageHit, maxSections = Infinity) {
  const { space, rev } = revisionOf(ctx, revisions, hit.space)
  const page = pageIn(ctx.tx, rev, hit.page)!
  const { path, ancestors } = placeOf(ctx, rev, page)
  const pageUrl = ctx.urls.app(`/s/${space.id}/${encodeURI(path)}`)
  const sections = pageSections(page)
  const terms = matchedTerms(hit)
  // A page that matched on its title or description alone shows its first section (the official
  // "arbitrary section of the matching page").
  const shown = (
    hit.sections.length > 0
      ? hit.sections.map((s) => ({ ...s, resultType: 'section' as const }))
      : sections.length > 0
        ? [{ index: 0, score: hit.score, resultType: 'page' as const }]
        : []
  ).slice(0, maxSections)
  return {
    id: page.page,
    title: page.title,
    description: page.description ?? '',
    path,
    score: round(hit.score),
    rank: hit.rank,
    resultType: hit.resultType,
    sections: shown.map(({ index, score, resultType }) => {
      const section = sections[index]!
      const anchor = section.anchor === undefined ? '' : `#${encodeURIComponent(section.anchor)}`
      return {
        id: section.id,
        title: section.title,
        path: section.anchor === undefined ? path : `${path}#${section.anchor}`,
        score: round(score),
        resultType,
        body: excerpt(section.text, terms),
        urls: { app: `${pageUrl}${anchor}` },
      }
    }),
    ancestors,
    urls: { app: pageUrl },
  }
}

/** A space of an organization's results: its pages, each with its best section only (an overview: a space's own search shows more). */
export function encodeSpaceHit(ctx: ReadContext, revisions: Revisions, group: { space: string; score: number; pages: readonly PageHit[] }) {
  const { space } = revisionOf(ctx, revisions, group.space)
  return {
    type: 'space' as const,
    id: space.id,
    title: space.title,
    score: round(group.score),
    pages: group.pages.map((hit) => encodePageHit(ctx, revisions, hit, 1)),
  }
}
