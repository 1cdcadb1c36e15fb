import type { Role } from '../../core/roles.js'
import { collection } from '../../storage/port.js'

/**
 * The rows the sso area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

/**
 * A SAML identity provider of an organization. The identity provider's settings (`entityID`,
 * `ssoURL`, `certificate`) may come one by one: the provider is `pending` until all three are set.
 */
export interface SamlProviderRow {
  id: string
  organization: string
  label: string
  entityID?: string
  ssoURL?: string
  /** A PEM X.509 certificate, as given (checked when set). */
  certificate?: string
  /** A team of the organization users signing in through the provider join. */
  defaultTeam?: string
  defaultRole: Role | null
  createdAt: string
}

/** The collections the sso area stores, with their indexes. */
export const ssoCollections = {
  samlProviders: collection<SamlProviderRow>({ byOrganization: { key: (p) => p.organization } }),
}
