import { collection } from '../../storage/port.js'

/**
 * The rows the site-structure area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

/**
 * A section of a site. Sections and section groups of one container (the site's root or a
 * group) are siblings ordered by one `position` scale.
 */
export interface SiteSectionRow {
  id: string
  site: string
  organization: string
  /** The group holding the section; at the site's root when undefined. */
  sectionGroup?: string
  title: string
  path: string
  description?: string
  condition?: string
  icon?: string
  /** Exactly one section of a site with sections is its default. */
  default: boolean
  position: number
  createdAt: string
}

export interface SiteSectionGroupRow {
  id: string
  site: string
  organization: string
  /** The parent group; at the site's root when undefined. */
  sectionGroup?: string
  title: string
  icon?: string
  position: number
  createdAt: string
}

/** A space published in a site: in a section, or at the site's root when it has no sections. */
export interface SiteSpaceRow {
  id: string
  site: string
  organization: string
  section?: string
  space: string
  path: string
  /** A title override; the space's title otherwise. */
  title?: string
  /** Exactly one site-space of each container (a section, or the root) is its default. */
  default: boolean
  condition?: string
  hidden: boolean
  position: number
  createdAt: string
}

/** Container key of sections and groups: a site's root (`site:<id>`) or a group (`group:<id>`). */
export const structureKey = (site: string, group: string | undefined): string => (group ? `group:${group}` : `site:${site}`)

/** Container key of site-spaces: a section (`section:<id>`) or a site's root (`site:<id>`). */
export const siteSpaceContainer = (s: { site: string; section?: string }): string =>
  s.section ? `section:${s.section}` : `site:${s.site}`

/** The collections the site-structure area stores, with their indexes. */
export const siteStructureCollections = {
  siteSections: collection<SiteSectionRow>({
    bySite: { key: (s) => s.site },
    /** Sections of one container (`structureKey`), in position order. */
    byContainer: { key: (s) => structureKey(s.site, s.sectionGroup), order: (s) => s.position },
  }),
  siteSectionGroups: collection<SiteSectionGroupRow>({
    bySite: { key: (g) => g.site },
    byContainer: { key: (g) => structureKey(g.site, g.sectionGroup), order: (g) => g.position },
  }),
  siteSpaces: collection<SiteSpaceRow>({
    bySite: { key: (s) => s.site },
    /** Site-spaces of one section (`section:<id>`) or of a site's root (`site:<id>`), in position order. */
    byContainer: { key: siteSpaceContainer, order: (s) => s.position },
    /** Where a space is published: the `space` filter of the site list, share-key resolution. */
    bySpace: { key: (s) => s.space },
  }),
}
