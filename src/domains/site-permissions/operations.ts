import { defineOperation } from '../../core/operation.js'
import { listQuery } from '../../core/paging.js'
import { pathParams } from '../common/schemas.js'
import { InviteToSiteSchema, TeamSitePermissionListSchema, UpdateSitePermissionSchema, UserSitePermissionListSchema } from './schemas.js'

const tag = 'site-permissions'
const manage = { resource: 'site', action: 'managePermissions' } as const
const list = { resource: 'site', action: 'listPermissions' } as const

/**
 * Direct grants of a role on a site to users and teams, as on spaces: changing them needs the
 * admin level on the site, listing them a role in the organization or a grant on the site. The
 * writes answer 204 with no body; the removals 205, or 204 when there was no grant.
 */
export const sitePermissionOperations = {
  inviteToSite: defineOperation({
    id: 'inviteToSite',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/permissions',
    tag,
    summary: 'Invite users (non-members join the organization as guests) or teams to a site with a role',
    params: pathParams('organizationId', 'siteId'),
    body: InviteToSiteSchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  listUserPermissionsInSite: defineOperation({
    id: 'listUserPermissionsInSite',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/permissions/users',
    tag,
    summary: 'List the users granted a role on a site, in the order they were first granted',
    params: pathParams('organizationId', 'siteId'),
    query: listQuery,
    response: UserSitePermissionListSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: list,
  }),
  updateUserPermissionInSite: defineOperation({
    id: 'updateUserPermissionInSite',
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/permissions/users/{userId}',
    tag,
    summary: "Set a member's role on a site",
    params: pathParams('organizationId', 'siteId', 'userId'),
    body: UpdateSitePermissionSchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  removeUserFromSite: defineOperation({
    id: 'removeUserFromSite',
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/permissions/users/{userId}',
    tag,
    summary: "Remove a user's role on a site (205; 204 when there was none)",
    params: pathParams('organizationId', 'siteId', 'userId'),
    status: 205,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  listTeamPermissionsInSite: defineOperation({
    id: 'listTeamPermissionsInSite',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/permissions/teams',
    tag,
    summary: 'List the teams granted a role on a site, in the order they were first granted',
    params: pathParams('organizationId', 'siteId'),
    query: listQuery,
    response: TeamSitePermissionListSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: list,
  }),
  updateTeamPermissionInSite: defineOperation({
    id: 'updateTeamPermissionInSite',
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/permissions/teams/{teamId}',
    tag,
    summary: "Set a team's role on a site",
    params: pathParams('organizationId', 'siteId', 'teamId'),
    body: UpdateSitePermissionSchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  removeTeamFromSite: defineOperation({
    id: 'removeTeamFromSite',
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/permissions/teams/{teamId}',
    tag,
    summary: "Remove a team's role on a site (205; 204 when there was none)",
    params: pathParams('organizationId', 'siteId', 'teamId'),
    status: 205,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
}
