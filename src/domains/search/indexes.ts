import { OrganizationIndex, type IndexStats } from './organization-index.js'

/**
 * The search indexes of one API instance: per organization searched, one index per space (each
 * built on the first search that reads it; see organization-index.ts). Derived state: kept outside the store, never dumped, and made again from the store
 * when needed, so a fork (`api.fork()`) or a new API over the same state builds its own, and a
 * restored snapshot is followed at the next search (each search brings the spaces it reads to
 * their current revision; see organization-index.ts).
 */
export interface SearchIndexes {
  /** The indexes of the organization's spaces (not yet brought up to date: `sync` or `syncAll` them). */
  of(organization: string): OrganizationIndex
  /** Pages indexed and removed so far, across organizations. */
  readonly stats: Readonly<IndexStats>
}

declare module '../../core/services.js' {
  interface Services {
    /** The API's full-text search indexes (domains/search). */
    search: SearchIndexes
  }
}

export function createSearchIndexes(): SearchIndexes {
  const byOrganization = new Map<string, OrganizationIndex>()
  const stats: IndexStats = { pagesIndexed: 0, pagesRemoved: 0 }
  return {
    stats,
    of(organization) {
      let index = byOrganization.get(organization)
      if (!index) byOrganization.set(organization, (index = new OrganizationIndex(stats)))
      return index
    },
  }
}
