import { collection } from '../../storage/port.js'

/**
 * The rows the sites area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

/** A published docs site of an organization. */
export interface SiteRow {
  id: string
  organization: string
  type: SiteType
  title: string
  visibility: 'public' | 'unlisted' | 'share-link' | 'visitor-auth'
  published: boolean
  createdAt: string
  hostname?: string
  basename?: string
  /** The origin a proxy serves the site from (host and path, e.g. `company.com/docs`). */
  proxy?: string
  adaptiveContent?: { enabled: boolean }
  agentsContext: 'excluded' | 'included'
  /** The visitor schema of adaptive content, once set. */
  adaptiveSchema?: { jsonSchema: Record<string, unknown>; updatedAt: string }
}

export type SiteType = 'basic' | 'premium' | 'ultimate' | 'sponsored' | 'legacy-basic' | 'legacy-premium'

/** The collections the sites area stores, with their indexes. */
export const sitesCollections = {
  sites: collection<SiteRow>({
    byOrganization: { key: (s) => s.organization },
    /** Custom hostnames are unique across sites. */
    byHostname: { key: (s) => s.hostname },
    /** So are proxy origins. */
    byProxy: { key: (s) => s.proxy },
    /** And basenames within an organization (`${organization}/${basename}`). */
    byBasename: { key: (s) => (s.basename === undefined ? undefined : `${s.organization}/${s.basename}`) },
  }),
}
