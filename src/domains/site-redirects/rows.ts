import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { SiteRedirectSourcePathSchema, StoredDestinationSchema } from './schemas.js'
import { sourceKey } from './source.js'

/**
 * The rows the site-redirects area stores and its collections (indexes included); the storage
 * schema is assembled from every area's collections (domains/schema.ts). Rows hold state only:
 * the target URL is computed when a redirect is resolved. The seed rules (seed.ts) add the
 * defaults a loaded row gets.
 */

/** A redirect of a site: from a source path of the site to a destination. A site has at most one live and one draft redirect per source. */
export const SiteRedirectRowSchema = z.strictObject({
  id: SeedIdSchema,
  site: SeedIdSchema,
  /** The site's organization. */
  organization: SeedIdSchema,
  /** As given (its case kept); compared in the spelling of `sourceKey`. */
  source: SiteRedirectSourcePathSchema,
  draft: z.boolean(),
  captureWildcard: z.boolean(),
  permanent: z.boolean(),
  destination: StoredDestinationSchema,
  createdAt: SeedTimestampSchema,
  /** Absent until the redirect is first changed (as officially). */
  updatedAt: SeedTimestampSchema.optional(),
})
export type SiteRedirectRow = z.output<typeof SiteRedirectRowSchema>

/** The live or the draft redirects of a site (`${site}/live`, `${site}/draft`). */
export const redirectListKey = (site: string, draft: boolean): string => `${site}/${draft ? 'draft' : 'live'}`

/** Where a source's redirect is found: its site, live or draft, and the source's key (`sourceKey`). */
export const sourceIndexKey = (site: string, draft: boolean, key: string): string => `${redirectListKey(site, draft)}/${key}`

/** The `bySource` key of a source as given. */
export const redirectSourceKey = (site: string, draft: boolean, source: string): string => sourceIndexKey(site, draft, sourceKey(source))

/** The collections the site-redirects area stores, with their indexes. */
export const siteRedirectsCollections = {
  siteRedirects: collection<SiteRedirectRow>({
    bySite: { key: (r) => r.site },
    /** The live or the draft ones of a site, in creation order (`redirectListKey`). */
    byList: { key: (r) => redirectListKey(r.site, r.draft) },
    /** At most one row per key (`redirectSourceKey`): the lookup of a path costs no scan. */
    bySource: { key: (r) => redirectSourceKey(r.site, r.draft, r.source) },
  }),
}
