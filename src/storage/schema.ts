import type { z } from 'zod'
import type { Level, Role } from '../core/roles.js'
import type { MergeRulesSchema, StandaloneMergeRulesSchema } from '../domains/common/schemas.js'
import { collection } from './port.js'

/**
 * The rows the API stores and the indexes its domains query. Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Timestamps are ISO strings, as on the wire.
 */

/** Merge rules of a space (may inherit) and of an organization (standalone). */
export type MergeRules = z.output<typeof MergeRulesSchema>
export type StandaloneMergeRules = z.output<typeof StandaloneMergeRulesSchema>

/** A space's or collection's default level: a role, `null` (no default access) or `inherit` (from the parent). */
export type DefaultLevel = Role | null | 'inherit'

export interface UserRow {
  id: string
  displayName: string
  email?: string
  /** Whether the email address has been verified (joining by email domain needs it). */
  emailVerified: boolean
  photoURL?: string
}

export interface TokenRow {
  /** The token string itself. */
  id: string
  user: string
  createdAt: string
}

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
}

export interface MemberRow {
  /** `${organization}/${user}` */
  id: string
  organization: string
  user: string
  /** null: a guest */
  role: Role | null
  disabled: boolean
  sso: boolean
  joinedAt: string
  lastSeenAt?: string
}

export interface InviteLinkRow {
  id: string
  organization: string
  role: Role | null
  createdAt: string
}

export interface TeamRow {
  id: string
  organization: string
  title: string
  createdAt: string
}

export interface TeamMemberRow {
  /** `${team}/${user}` */
  id: string
  team: string
  organization: string
  user: string
  role: 'owner' | 'member'
}

export interface CollectionRow {
  id: string
  organization: string
  parent?: string
  title: string
  description?: string
  defaultLevel: DefaultLevel
  /** Sort key among the siblings under the same parent (a fractional index). */
  position: number
  createdAt: string
}

export interface SpaceRow {
  id: string
  organization: string
  parent?: string
  title: string
  emoji: string
  icon?: string
  visibility: 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private'
  createdAt: string
  updatedAt: string
  deletedAt?: string
  editMode?: 'live' | 'locked'
  mergeRules: MergeRules
  language?: string
  revision: string
  defaultLevel: DefaultLevel
  position: number
  comments: number
  changeRequests: number
  changeRequestsOpen: number
  changeRequestsDraft: number
}

/** A direct grant of a role on a space to a user or a team. */
export interface SpaceGrantRow {
  /** `${space}/user:${id}` or `${space}/team:${id}` */
  id: string
  space: string
  organization: string
  principal: { type: 'user'; user: string } | { type: 'team'; team: string }
  role: Level
}

/** A named counter (see domains/common/sequence.ts). */
export interface SequenceRow {
  id: string
  value: number
}

/** Sibling key for items at the root of an organization (no parent collection). */
export const rootKey = (organization: string): string => `org:${organization}`
export const parentKey = (row: { organization: string; parent?: string }): string =>
  row.parent ?? rootKey(row.organization)

export const schema = {
  sequences: collection<SequenceRow>(),
  users: collection<UserRow>(),
  tokens: collection<TokenRow>({ byUser: { key: (t) => t.user } }),
  organizations: collection<OrganizationRow>(),
  members: collection<MemberRow>({
    byOrganization: { key: (m) => m.organization },
    byUser: { key: (m) => m.user },
    /** `${organization}/${role ?? 'guest'}`: the role filter of the member list and the last-admin rule. */
    byRole: { key: (m) => `${m.organization}/${m.role ?? 'guest'}` },
  }),
  inviteLinks: collection<InviteLinkRow>({ byOrganization: { key: (i) => i.organization } }),
  teams: collection<TeamRow>({ byOrganization: { key: (t) => t.organization } }),
  teamMembers: collection<TeamMemberRow>({
    byTeam: { key: (m) => m.team },
    byUser: { key: (m) => m.user },
  }),
  collections: collection<CollectionRow>({
    byOrganization: { key: (c) => c.organization },
    /** Collections under a parent (or an organization's root), in position order. */
    byParent: { key: parentKey, order: (c) => c.position },
  }),
  spaces: collection<SpaceRow>({
    /** Live spaces of an organization; deleted ones leave this index. */
    byOrganization: { key: (s) => (s.deletedAt ? undefined : s.organization) },
    /** Live spaces under a collection, or at an organization's root, in position order. */
    byParent: { key: (s) => (s.deletedAt ? undefined : parentKey(s)), order: (s) => s.position },
    /** Deleted spaces, waiting for restore or purge. */
    deleted: { key: (s) => (s.deletedAt ? s.organization : undefined) },
  }),
  spaceGrants: collection<SpaceGrantRow>({
    bySpace: { key: (g) => g.space },
    /** A space's user grants (`${space}/user`) or team grants (`${space}/team`), for paging each list. */
    bySpaceAndType: { key: (g) => `${g.space}/${g.principal.type}` },
    byPrincipal: { key: (g) => (g.principal.type === 'user' ? `user:${g.principal.user}` : `team:${g.principal.team}`) },
  }),
}

export type AppSchema = typeof schema
export type { StoragePort, ReadTx, WriteTx } from './port.js'
