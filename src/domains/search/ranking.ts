import type { SearchResult } from 'minisearch'
import type { OrganizationIndex } from './organization-index.js'

/**
 * Search results by page: documents (a page's title and description, or one section of its body)
 * are grouped by page. A page scores as its best document and says whether that was the page
 * itself (`page`) or a section (`section`); its matching sections are listed best first, at most
 * MAX_SECTIONS. Pages are ranked by score (ties by space and page id, so a ranking is repeatable),
 * and `rank` is the 1-based position in that one ranking, whatever paging or grouping follows.
 */
export const MAX_SECTIONS = 5

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
  /** The index terms that matched (for excerpts). */
  terms: string[]
}

export function rankPages(index: OrganizationIndex, results: readonly SearchResult[]): PageHit[] {
  const byPage = new Map<string, PageHit>()
  for (const result of results) {
    const ref = index.ref(result.id as number)
    const key = `${ref.space}/${ref.page}`
    let hit = byPage.get(key)
    if (!hit) {
      // Results come best first: the first document of a page is its best.
      hit = { space: ref.space, page: ref.page, score: result.score, rank: 0, resultType: ref.section < 0 ? 'page' : 'section', sections: [], terms: [] }
      byPage.set(key, hit)
    }
    if (ref.section >= 0 && hit.sections.length < MAX_SECTIONS) hit.sections.push({ index: ref.section, score: result.score })
    for (const term of result.terms) if (!hit.terms.includes(term)) hit.terms.push(term)
  }
  const pages = [...byPage.values()].sort((a, b) => b.score - a.score || compare(a.space, b.space) || compare(a.page, b.page))
  pages.forEach((hit, i) => (hit.rank = i + 1))
  return pages
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

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
