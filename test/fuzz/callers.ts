import type { Role } from '../../src/core/roles.js'

/**
 * The callers of the matrix: one user per organization standing, then the callers without a user:
 * the bearer of a site token of the main site (as GitBook's renderer calls), the bearer of an
 * installation token of the world's integration (installed on the main organization, its private
 * space and its main site; scopes `INSTALLATION_SCOPES`), none, a bad token.
 */
export const MEMBER_CALLERS = ['outsider', 'guest', 'read', 'comment', 'edit', 'review', 'create', 'admin'] as const
export const CALLERS = [...MEMBER_CALLERS, 'siteToken', 'installation', 'anonymous', 'badToken'] as const
/** The scopes of the world's integration, which its installation token holds. */
export const INSTALLATION_SCOPES = ['space:content:read', 'space:content:write', 'site:metadata:read', 'openapi:read'] as const
export type MemberCaller = (typeof MEMBER_CALLERS)[number]
export type Caller = (typeof CALLERS)[number]

/** The role each member caller holds in the main organization (undefined: not a member; null: guest). */
export const ROLE_OF: Record<MemberCaller, Role | null | undefined> = {
  outsider: undefined,
  guest: null,
  read: 'read',
  comment: 'comment',
  edit: 'edit',
  review: 'review',
  create: 'create',
  admin: 'admin',
}
