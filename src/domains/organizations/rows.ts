import type { Role } from '../../core/roles.js'
import type { JsonDocument } from '../content/document.js'
import { collection } from '../../storage/port.js'
import type { StandaloneMergeRules } from '../common/rows.js'

/**
 * The rows the organizations area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

export interface OrganizationRow {
  id: string
  title: string
  createdAt: string
  emailDomains: string[]
  hostname?: string
  type: 'business' | 'community'
  useCase?: string
  communityType?: string
  defaultRole: Role | null
  defaultContent?: { type: 'site'; site: string }
  logo?: string
  sso: boolean
  ai: boolean
  inviteLinks: boolean
  plan: string
  mergeRules: StandaloneMergeRules
  /** The docs agent's instructions, once set (`updatedBy`: a user id). */
  agentInstructions?: { instructions: JsonDocument; updatedAt: string; updatedBy: string }
}

export interface InviteLinkRow {
  id: string
  organization: string
  role: Role | null
  createdAt: string
}

/** The collections the organizations area stores, with their indexes. */
export const organizationsCollections = {
  organizations: collection<OrganizationRow>(),
  inviteLinks: collection<InviteLinkRow>({ byOrganization: { key: (i) => i.organization } }),
}
