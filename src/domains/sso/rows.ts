import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { RoleOrGuestSchema } from '../common/schemas.js'
import { SamlCertificateSchema, SamlEntityIdSchema, SamlLabelSchema, SamlSsoUrlSchema } from './schemas.js'

/**
 * The rows the sso area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

/**
 * A SAML identity provider of an organization. The identity provider's settings (`entityID`,
 * `ssoURL`, `certificate`) may come one by one: the provider is `pending` until all three are set.
 */
export const SamlProviderRowSchema = z.strictObject({
  id: SeedIdSchema,
  organization: SeedIdSchema,
  label: SamlLabelSchema,
  entityID: SamlEntityIdSchema.optional(),
  ssoURL: SamlSsoUrlSchema.optional(),
  /** A PEM X.509 certificate, as given (checked when set). */
  certificate: SamlCertificateSchema.optional(),
  /** A team of the organization users signing in through the provider join. */
  defaultTeam: SeedIdSchema.optional(),
  defaultRole: RoleOrGuestSchema,
  createdAt: SeedTimestampSchema,
})
export type SamlProviderRow = z.output<typeof SamlProviderRowSchema>

/** The collections the sso area stores, with their indexes. */
export const ssoCollections = {
  samlProviders: collection<SamlProviderRow>({ byOrganization: { key: (p) => p.organization } }),
}
