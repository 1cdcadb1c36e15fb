import type { z } from 'zod'
import { grantCollection, grantKind, grantRowSchema } from '../access/grants.js'

/** Grants on sites (the site's share dialog): rows `{ id, site, organization, principal, role }` in `siteGrants` (access/grants.ts). */
export const SITE_GRANTS = grantKind('site', 'siteGrants')

/** A direct grant of a role on a site to a user or a team (id `${site}/user:${id}` or `${site}/team:${id}`). */
export const SiteGrantRowSchema = grantRowSchema('site')
export type SiteGrantRow = z.output<typeof SiteGrantRowSchema>

/** The collections the site-permissions area stores, with their indexes (`bySite`, `bySiteAndType`, `byPrincipal`). */
export const sitePermissionsCollections = {
  siteGrants: grantCollection<'site', SiteGrantRow>(SITE_GRANTS),
}
