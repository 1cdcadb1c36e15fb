import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema } from '../../state/seed.js'
import { RoleSchema } from '../common/schemas.js'

/** A direct grant of a role on a site to a user or a team (the site's share dialog). */
export const SiteGrantRowSchema = z.strictObject({
  /** `${site}/user:${id}` or `${site}/team:${id}` */
  id: z.string(),
  site: SeedIdSchema,
  /** The site's organization. */
  organization: SeedIdSchema,
  principal: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('user'), user: SeedIdSchema }),
    z.strictObject({ type: z.literal('team'), team: SeedIdSchema }),
  ]),
  role: RoleSchema,
})
export type SiteGrantRow = z.output<typeof SiteGrantRowSchema>

/** The collections the site-permissions area stores, with their indexes. */
export const sitePermissionsCollections = {
  siteGrants: collection<SiteGrantRow>({
    bySite: { key: (g) => g.site },
    /** A site's user grants (`${site}/user`) or team grants (`${site}/team`), for paging each list. */
    bySiteAndType: { key: (g) => `${g.site}/${g.principal.type}` },
    byPrincipal: { key: (g) => (g.principal.type === 'user' ? `user:${g.principal.user}` : `team:${g.principal.team}`) },
  }),
}
