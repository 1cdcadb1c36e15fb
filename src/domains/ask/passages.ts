import type { ReadContext as Context } from '../context.js'
import type { SiteSpaceRow } from '../site-structure/rows.js'
import { findRevision, pageIn, pagePath } from '../content/revision.js'
import { excerpt } from '../search/excerpt.js'
import { rankIn } from '../search/model.js'
import { matchedTerms } from '../search/ranking.js'
import { pageSections } from '../search/sections.js'
import type { AskPassage } from './answerer.js'

/** Passages handed to the answerer at most, and per page. */
export const MAX_PASSAGES = 5
const PER_PAGE = 2
const EXCERPT = 600

/**
 * The passages for a question: the site-spaces' spaces searched with the search index (their
 * current main content, nothing else), sections holding every word of the question first when
 * there are any, and the best sections of the best pages, best first. A
 * page that matched on its title alone gives its first section with text. Everything an answer
 * may cite or quote comes from here, so it is content the site publishes now.
 */
export function retrievePassages(ctx: Context, organization: string, siteSpaces: readonly SiteSpaceRow[], question: string): AskPassage[] {
  const siteSpaceOf = new Map<string, string | undefined>()
  for (const row of siteSpaces) if (!siteSpaceOf.has(row.space)) siteSpaceOf.set(row.space, row.id)
  return passagesOf(ctx, organization, siteSpaceOf, question)
}

/** The passages for a question asked of an organization's spaces (no site: passages name no site-space). */
export function retrieveOrganizationPassages(ctx: Context, organization: string, spaces: readonly string[], question: string): AskPassage[] {
  return passagesOf(ctx, organization, new Map(spaces.map((id) => [id, undefined])), question)
}

function passagesOf(ctx: Context, organization: string, siteSpaceOf: ReadonlyMap<string, string | undefined>, question: string): AskPassage[] {
  if (siteSpaceOf.size === 0) return []
  const out: AskPassage[] = []
  for (const hit of rankIn(ctx, organization, new Set(siteSpaceOf.keys()), question, true)) {
    const space = ctx.tx.get('spaces', hit.space)!
    const rev = findRevision(ctx.tx, space, space.revision)!
    const page = pageIn(ctx.tx, rev, hit.page)!
    const sections = pageSections(page)
    const wanted = hit.sections.length > 0 ? hit.sections.map((s) => s.index) : [sections.findIndex((s) => s.text !== '')]
    const path = pagePath(ctx.tx, rev, page)
    const terms = matchedTerms(hit)
    for (const index of wanted.filter((i) => i >= 0 && sections[i]!.text !== '').slice(0, PER_PAGE)) {
      const section = sections[index]!
      out.push({
        space: space.id,
        ...(siteSpaceOf.get(space.id) !== undefined && { siteSpace: siteSpaceOf.get(space.id)! }),
        revision: rev.id,
        page: page.page,
        pageTitle: page.title,
        path,
        url: ctx.urls.app(`/s/${space.id}/${encodeURI(path)}${section.anchor === undefined ? '' : `#${encodeURIComponent(section.anchor)}`}`),
        section: { id: section.id, title: section.title, text: section.text },
        excerpt: excerpt(section.text, terms, EXCERPT),
        score: hit.score,
      })
      if (out.length === MAX_PASSAGES) return out
    }
  }
  return out
}
