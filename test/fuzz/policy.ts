import { POLICY, type OperationDef } from '../../src/index.js'
import { atLeast, strongest, type Level } from '../../src/core/roles.js'
import type { Resource } from '../../src/core/policy.js'
import { holdsScope, installationLevel, SCOPES } from '../../src/core/scopes.js'
import { INSTALLATION_SCOPES, ROLE_OF, type Caller } from './callers.js'

/**
 * What the authorization matrix expects, derived from the policy table (POLICY) and the role
 * lattice, for the world's matrix targets: every one of them gives a member exactly their
 * organization role (no default level, no grant to a caller), except the `public` variant's space,
 * which gives everyone at least `visitor` (reads it, lists none of its grants).
 */
export type Variant = 'private' | 'public'

/** The resource a path parameter names, for the parameters that carry a level. */
const PARAM_RESOURCE: Record<string, Resource> = {
  organizationId: 'organization',
  collectionId: 'collection',
  spaceId: 'space',
  siteId: 'site',
  teamId: 'team',
  integrationName: 'integration',
}

/** The caller's level on a resource of the matrix (null: no access). */
export function levelOf(resource: Resource, caller: Caller, variant: Variant): Level | null {
  // The main site's token: it reads that site (visitor), names its organization (guest), reads the
  // spaces the site publishes (none of them is a matrix target space) and nothing else.
  // It sees the integrations installed in its organization (the renderer renders their blocks): the matrix's is.
  if (caller === 'siteToken') return resource === 'site' || resource === 'integration' ? 'visitor' : resource === 'organization' ? 'guest' : null
  // The installation token: its scopes' level on the installation's targets (the main organization,
  // its private and public spaces, the main site: every matrix target of those kinds), nothing else.
  if (caller === 'installation') {
    const target = resource === 'organization' || resource === 'site' || resource === 'space'
    return target ? installationLevel(INSTALLATION_SCOPES) : null
  }
  const role = caller === 'anonymous' || caller === 'badToken' ? undefined : ROLE_OF[caller]
  const orgLevel: Level | null = role === undefined ? null : (role ?? 'guest')
  if (resource === 'organization' || resource === 'site' || resource === 'team') return orgLevel
  if (resource === 'collection') return role ?? null
  // The matrix's integration is public: anyone signed in sees it; members of its organization have their role.
  if (resource === 'integration') return strongest(role, 'visitor') ?? null
  // A space: the role (a guest level alone gives nothing); a public space gives `visitor` to anyone.
  return (variant === 'public' ? strongest(role, 'visitor') : role) ?? null
}

/**
 * Operations whose handler checks more than (or other than) their table permission, for the
 * matrix's targets. `action` replaces the table's action on the same resource; `callers` fixes
 * the answer for some callers. Each entry names the rule it comes from.
 */
export const EXCEPTIONS: Record<string, { action?: string; variant?: Variant; callers?: Partial<Record<Caller, number[]>>; rule: string }> = {
  getContentByUrl: {
    callers: { outsider: [404], guest: [404] },
    rule: "docs/behaviour/published.md: the content a URL names, read as its own read would be (the main site's default space: a private space only members with a role read)",
  },
  updateOrganizationMemberLastSeenAt: {
    callers: { siteToken: [404] },
    rule: "members/handlers.ts: the ping marks the caller's membership; a site token's bearer is no member (404 Member not found)",
  },
  getUserById: { callers: { outsider: [404] }, rule: 'docs/behaviour/access.md: a user is shown only to themselves and to users sharing an organization' },
  updateUserById: {
    callers: { outsider: [404], ...callersWith([403], 'guest', 'read', 'comment', 'edit', 'review', 'create', 'admin') },
    rule: 'docs/behaviour/access.md: a user updates only themself; another user is a 403, or a 404 when they share no organization (the target is another member)',
  },
  getMemberInOrganizationById: {
    action: 'listMembers',
    rule: 'docs/behaviour/organizations-and-members.md: a member may read their own membership without listMembers (the target is another member)',
  },
  listSpacesForOrganizationMember: {
    action: 'listMembers',
    rule: 'docs/behaviour/organizations-and-members.md: a member may read their own spaces without listMembers (the target is another member)',
  },
  listTeamsForOrganizationMember: {
    action: 'listMembers',
    rule: 'docs/behaviour/organizations-and-members.md: a member may read their own teams without listMembers (the target is another member)',
  },
  removeMemberFromOrganizationById: {
    action: 'manageMembers',
    rule: 'docs/behaviour/organizations-and-members.md: a member may leave; removing another member needs manageMembers',
  },
  getTeamInOrganizationById: {
    action: 'listTeams',
    rule: "teams/operations.ts: a team's own members may read it; others need listTeams (the target team has no caller)",
  },
  updateTeamInOrganizationById: {
    action: 'manageTeams',
    rule: 'docs/behaviour/teams.md: a team owner may rename their team; others need manageTeams (no caller owns the target)',
  },
  listTeamMembersInOrganizationById: {
    action: 'listTeams',
    rule: "docs/behaviour/teams.md: a team's own members may list its members; others need listTeams (the target team has no caller)",
  },
  ...Object.fromEntries(
    ['updateMembersInOrganizationTeam', 'addMemberToOrganizationTeamById', 'deleteMemberFromOrganizationTeamById'].map((id) => [
      id,
      { action: 'manageTeams', rule: "docs/behaviour/teams.md: a team's owners manage its members; others need manageTeams (no caller owns the target)" },
    ]),
  ),
  createCollection: { action: 'createContent', rule: 'docs/behaviour/collections-and-spaces.md: creating at the root needs createContent on the organization' },
  createSpace: { action: 'createContent', rule: 'docs/behaviour/collections-and-spaces.md: creating at the root needs createContent on the organization' },
  publishIntegration: {
    callers: { outsider: [404], ...callersWith([403], 'guest', 'read', 'comment', 'edit', 'review', 'create') },
    rule: "docs/behaviour/integrations.md: the body's organization (the caller's, by id or hostname; 404 otherwise) and its admins publish",
  },
  installIntegration: {
    callers: callersWith([404], 'outsider', 'guest', 'read', 'comment', 'edit', 'review', 'create', 'siteToken'),
    rule: 'docs/behaviour/integrations.md: organization admins install (the body names the sister organization, where only the admin caller is a member)',
  },
  getIntegrationInstallationById: {
    callers: { outsider: [404], ...callersWith([403], 'guest', 'read', 'comment', 'edit', 'review', 'create', 'siteToken') },
    rule: "docs/behaviour/integrations.md: an installation is for its organization's admins (listInstallations) and the integration's owner admins",
  },
  installIntegrationOnSpace: {
    callers: { outsider: [404], guest: [404], ...callersWith([403], 'read', 'comment', 'edit', 'review', 'create', 'siteToken') },
    rule: "docs/behaviour/integrations.md: the space's admins (installIntegration on the space) enable an installation of its organization",
  },
  installIntegrationOnSite: {
    callers: { outsider: [404], guest: [404], siteToken: [404], ...callersWith([403], 'read', 'comment', 'edit', 'review', 'create') },
    rule: "docs/behaviour/integrations.md: the organization's admins (installIntegration on the site) enable an installation on a site",
  },
  ...Object.fromEntries(
    [
      'updateIntegrationInstallation',
      'listIntegrationInstallationSpaces',
      'listIntegrationInstallationSites',
      'getIntegrationSpaceInstallation',
      'updateIntegrationSpaceInstallation',
      'getIntegrationSiteInstallation',
      'updateIntegrationSiteInstallation',
    ].map((id) => [
      id,
      {
        callers: { outsider: [404], ...callersWith([403], 'guest', 'read', 'comment', 'edit', 'review', 'create', 'siteToken') },
        rule: "docs/behaviour/integrations.md (Installations, complete): the installing organization's admins manage an installation and its space and site installations; its other members get a 403, outsiders a 404",
      },
    ]),
  ),
  ...Object.fromEntries(
    ['uninstallIntegration', 'uninstallIntegrationFromSpace', 'uninstallIntegrationFromSite'].map((id) => [
      id,
      {
        callers: { outsider: [204], ...callersWith([403], 'guest', 'read', 'comment', 'edit', 'review', 'create', 'siteToken') },
        rule: "docs/behaviour/integrations.md (Installations, complete): the installing organization's admins uninstall (205); its other members get a 403; an outsider sees none: 204, as the official document answers when there was none",
      },
    ]),
  ),
  ...Object.fromEntries(
    ['renderIntegrationUIWithPost', 'renderIntegrationUIWithGet'].map((id) => [
      id,
      {
        callers: { siteToken: [404] },
        rule: "docs/behaviour/integrations.md: a site token renders in the spaces its site publishes (GitBook's renderer), and the matrix's target space is none of them",
      },
    ]),
  ),
  ...Object.fromEntries(
    ['deleteCommentInSpace', 'deleteCommentInChangeRequest', 'deleteCommentReplyInSpace', 'deleteCommentReplyInChangeRequest'].map((id) => [
      id,
      { action: 'moderateComments', rule: 'docs/behaviour/comments.md: the author or a space admin deletes (the target was posted by the admin caller)' },
    ]),
  ),
}

function callersWith(status: number[], ...callers: Caller[]): Partial<Record<Caller, number[]>> {
  return Object.fromEntries(callers.map((c) => [c, status]))
}

export interface Expectation {
  status: number[]
  rule: string
}

const names = (op: OperationDef) => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)

/** The answer the policy gives `caller` on `op` for the matrix target of `variant`. */
export function expectedAnswer(op: OperationDef, caller: Caller, variant: Variant): Expectation {
  if (caller === 'badToken') return { status: [401], rule: 'an unknown token is a 401, even on an open operation' }
  if (caller === 'anonymous' && op.auth !== false) return { status: [401], rule: 'no token: 401' }
  if (caller === 'installation') {
    const need = SCOPES[op.id]
    // An open operation: the token's bearer calls it as anyone would.
    if (need === 'open') return expectedAnswer(op, 'anonymous', variant)
    if (need === undefined || need === 'none') return { status: [403], rule: `core/scopes.ts: installation tokens never call ${op.id}` }
  }
  const exception = EXCEPTIONS[op.id]
  const fixed = exception && (exception.variant ?? variant) === variant ? exception.callers?.[caller] : undefined
  if (fixed) return { status: fixed, rule: exception!.rule }
  if (!op.permission) {
    if (caller === 'siteToken' && op.auth !== false)
      return { status: [401], rule: 'a site token is no user: operations without a permission need a user token' }
    return { status: [op.status], rule: op.auth === false ? 'open to anyone' : 'any authenticated user' }
  }
  // Every parent in the path must be visible.
  for (const param of parentParams(op)) {
    const resource = PARAM_RESOURCE[param]!
    if (!atLeast(levelOf(resource, caller, variant), POLICY[resource].view)) {
      return { status: [404], rule: `a hidden parent in the path (${param}) is a 404 for every method` }
    }
  }
  const { resource, missingIsSuccess } = op.permission
  const action = exception?.action ?? op.permission.action
  const level = levelOf(resource, caller, variant)
  const need = (POLICY[resource] as Record<string, Level>)[action]!
  if (!atLeast(level, POLICY[resource].view)) {
    return missingIsSuccess
      ? { status: [204], rule: `idempotent delete: a hidden ${resource} answers 204` }
      : { status: [404], rule: `below ${resource}.view (${POLICY[resource].view}): not revealed` }
  }
  const scope = caller === 'installation' ? SCOPES[op.id] : undefined
  if (scope && scope !== 'open' && scope !== 'none' && !holdsScope(INSTALLATION_SCOPES, scope)) {
    return { status: [403], rule: `core/scopes.ts: ${op.id} needs the ${scope} scope (the token holds ${INSTALLATION_SCOPES.join(', ')})` }
  }
  if (!atLeast(level, need)) return { status: [403], rule: `sees the ${resource}, below ${resource}.${action} (${need})` }
  // Strict: a 205 delete answers 205 here, for the matrix request names what exists (world.ts gives
  // every 205 operation something to remove). Its 204 (NO_CONTENT, an idempotent delete of nothing,
  // which the official document lists beside 205) is for a target that is not there: the fuzz's
  // invariants (invariants.ts) accept it, and the official schema check holds it to the operations
  // that list it.
  const status = [op.status]
  return { status, rule: `${resource}.${action} (${need}) allowed at ${level}${exception?.rule ? `; ${exception.rule}` : ''}` }
}

/** The parents in an operation's path: the level-bearing parameters before the addressed (last) one. */
export function parentParams(op: OperationDef): string[] {
  return names(op)
    .slice(0, -1)
    .filter((n) => n in PARAM_RESOURCE)
}

/** The variants an operation is checked with: a public space too when the path names a space. */
export function variantsOf(op: OperationDef): Variant[] {
  return names(op).includes('spaceId') ? ['private', 'public'] : ['private']
}
