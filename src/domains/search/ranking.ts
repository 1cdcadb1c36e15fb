import type { SearchResult } from 'minisearch'
import type { IndexedPage, OrganizationIndex } from './organization-index.js'

/**
 * Search results by page: documents (a page's title and description, or one section of its body)
 * are grouped by page. A page scores as its best document and says whether that was the page
 * itself (`page`) or a section (`section`); its matching sections are its best MAX_SECTIONS.
 * Documents come best first (one index's answer, or several merged by score: organization-index.ts),
 * so pages come out ranked by their best document (ties in the order the documents came), and `rank` is the 1-based position in that one ranking, whatever paging or
 * grouping follows. Grouping costs a lookup per document; what only an answer shows (the words
 * that matched, for excerpts) is worked out for the pages answered alone.
 */
export const MAX_SECTIONS = 3

export interface SectionHit {
  /** The section's index in the page's sections (sections.ts). */
  index: number
  score: number
}

export interface PageHit {
  space: string
  page: string
  score: number
  rank: number
  resultType: 'page' | 'section'
  sections: SectionHit[]
  /** The page's documents that matched and are shown (its own, its best sections), best first. */
  results: SearchResult[]
}

export function rankPages(index: OrganizationIndex, results: readonly SearchResult[]): PageHit[] {
  // Pages are marked with this ranking's number as they are met (no map of pages per search).
  const ranking = ++rankings
  const pages: PageHit[] = []
  const met: IndexedPage[] = []
  for (const result of results) {
    const ref = index.ref(result.id as number)
    const of = ref.of
    let hit = of.ranking === ranking ? of.hit! : undefined
    if (!hit) {
      hit = {
        space: of.space,
        page: of.page,
        score: result.score,
        rank: pages.length + 1,
        resultType: ref.section < 0 ? 'page' : 'section',
        sections: [],
        results: [],
      }
      of.ranking = ranking
      of.hit = hit
      pages.push(hit)
      met.push(of)
    }
    // Kept: what an answer shows (the page's own document, its best sections).
    if (ref.section < 0) hit.results.push(result)
    else if (hit.sections.length < MAX_SECTIONS) {
      hit.sections.push({ index: ref.section, score: result.score })
      hit.results.push(result)
    }
  }
  // Released at once: an index keeps no result alive.
  for (const of of met) of.hit = undefined
  return pages
}

let rankings = 0

/** The index terms that matched in a page's documents shown (for excerpts). */
export function matchedTerms(hit: PageHit): string[] {
  const terms = new Set<string>()
  for (const result of hit.results) for (const term of result.terms) terms.add(term)
  return [...terms]
}

/** Pages grouped by space, spaces in the order of their best page (each with its best score). */
export function groupBySpace(pages: readonly PageHit[]): Array<{ space: string; score: number; pages: PageHit[] }> {
  const bySpace = new Map<string, { space: string; score: number; pages: PageHit[] }>()
  for (const hit of pages) {
    let group = bySpace.get(hit.space)
    if (!group) bySpace.set(hit.space, (group = { space: hit.space, score: hit.score, pages: [] }))
    group.pages.push(hit)
  }
  return [...bySpace.values()]
}
