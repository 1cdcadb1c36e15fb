import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { StoredExpressionSchema } from '../common/schemas.js'
import { SiteSpaceCustomizationOverrideSchema } from '../sites/customization-schemas.js'
import { IconSchema, SitePathSchema, SiteSectionGroupTitleSchema, SiteSectionTitleSchema } from './schemas.js'

/**
 * The rows the site-structure area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

/** The fields every structure row has: its id, site and organization (the site's), where it stands, when it was made. */
const structureFields = {
  id: SeedIdSchema,
  site: SeedIdSchema,
  organization: SeedIdSchema,
  /** Sort key among the siblings of the same container. */
  position: z.number().finite(),
  createdAt: SeedTimestampSchema,
}

export const SiteSectionGroupRowSchema = z.strictObject({
  ...structureFields,
  /** The parent group; at the site's root when undefined. */
  sectionGroup: SeedIdSchema.optional(),
  title: SiteSectionGroupTitleSchema,
  icon: IconSchema.optional(),
})
export type SiteSectionGroupRow = z.output<typeof SiteSectionGroupRowSchema>

/**
 * A section of a site. Sections and section groups of one container (the site's root or a
 * group) are siblings ordered by one `position` scale.
 */
export const SiteSectionRowSchema = z.strictObject({
  ...structureFields,
  /** The group holding the section; at the site's root when undefined. */
  sectionGroup: SeedIdSchema.optional(),
  title: SiteSectionTitleSchema,
  path: SitePathSchema,
  description: z.string().optional(),
  condition: StoredExpressionSchema.optional(),
  icon: IconSchema.optional(),
  /** Exactly one section of a site with sections is its default. */
  default: z.boolean(),
})
export type SiteSectionRow = z.output<typeof SiteSectionRowSchema>

/** A space published in a site: in a section, or at the site's root when it has no sections. */
export const SiteSpaceRowSchema = z.strictObject({
  ...structureFields,
  section: SeedIdSchema.optional(),
  space: SeedIdSchema,
  path: SitePathSchema,
  /** A title override; the space's title otherwise. */
  title: SiteSectionTitleSchema.optional(),
  /** Exactly one site-space of each container (a section, or the root) is its default. */
  default: z.boolean(),
  condition: StoredExpressionSchema.optional(),
  hidden: z.boolean(),
})
export type SiteSpaceRow = z.output<typeof SiteSpaceRowSchema>

/**
 * What a site-space overrides of its site's customization (overrideSiteSpaceCustomizationById):
 * one per site-space at most, holding only what it overrides (no nulls: a null clears).
 */
export const SiteSpaceCustomizationRowSchema = z.strictObject({
  id: SeedIdSchema,
  site: SeedIdSchema,
  organization: SeedIdSchema,
  siteSpace: SeedIdSchema,
  override: SiteSpaceCustomizationOverrideSchema,
  updatedAt: SeedTimestampSchema,
})
export type SiteSpaceCustomizationRow = z.output<typeof SiteSpaceCustomizationRowSchema>

/** Container key of sections and groups: a site's root (`site:<id>`) or a group (`group:<id>`). */
export const structureKey = (site: string, group: string | undefined): string => (group ? `group:${group}` : `site:${site}`)

/** Container key of site-spaces: a section (`section:<id>`) or a site's root (`site:<id>`). */
export const siteSpaceContainer = (s: { site: string; section?: string }): string => (s.section ? `section:${s.section}` : `site:${s.site}`)

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
  siteSpaceCustomizations: collection<SiteSpaceCustomizationRow>({
    bySite: { key: (c) => c.site },
    bySiteSpace: { key: (c) => c.siteSpace },
  }),
}
