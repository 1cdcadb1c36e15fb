import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { RoleOrGuestSchema, StandaloneMergeRulesSchema, UrlSchema } from '../common/schemas.js'
import { JsonDocumentSchema } from '../content/schemas.js'
import { EmailDomainSchema, OrganizationHostnameSchema, OrganizationTitleSchema } from './schemas.js'

/**
 * The rows the organizations area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

export const OrganizationRowSchema = z.strictObject({
  id: SeedIdSchema,
  title: OrganizationTitleSchema,
  createdAt: SeedTimestampSchema,
  /** Stored lower-cased. */
  emailDomains: z.array(EmailDomainSchema.transform((s) => s.toLowerCase())),
  hostname: OrganizationHostnameSchema.optional(),
  type: z.enum(['business', 'community']),
  useCase: z.string().optional(),
  communityType: z.string().optional(),
  defaultRole: RoleOrGuestSchema,
  /** A site of the organization (the sites' seed rule checks it once sites are in). */
  defaultContent: z.strictObject({ type: z.literal('site'), site: SeedIdSchema }).optional(),
  logo: UrlSchema.optional(),
  sso: z.boolean(),
  ai: z.boolean(),
  inviteLinks: z.boolean(),
  plan: z.string(),
  mergeRules: StandaloneMergeRulesSchema,
  /** The docs agent's instructions, once set (`updatedBy`: a user id). */
  agentInstructions: z.strictObject({ instructions: JsonDocumentSchema, updatedAt: SeedTimestampSchema, updatedBy: SeedIdSchema }).optional(),
})
export type OrganizationRow = z.output<typeof OrganizationRowSchema>

export const InviteLinkRowSchema = z.strictObject({
  id: SeedIdSchema,
  organization: SeedIdSchema,
  role: RoleOrGuestSchema,
  createdAt: SeedTimestampSchema,
})
export type InviteLinkRow = z.output<typeof InviteLinkRowSchema>

/** The collections the organizations area stores, with their indexes. */
export const organizationsCollections = {
  organizations: collection<OrganizationRow>({
    /** Hostnames are unique across organizations (published URLs name an organization by it). */
    byHostname: { key: (o) => o.hostname },
    /** Each of its (lower-cased) email domains: the organizations a verified domain may join. */
    byEmailDomain: { key: (o) => o.emailDomains },
  }),
  inviteLinks: collection<InviteLinkRow>({ byOrganization: { key: (i) => i.organization } }),
}
