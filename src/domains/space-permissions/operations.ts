import { defineOperation } from '../../core/operation.js'
import { listQuery } from '../../core/paging.js'
import { listOf, pathParams } from '../common/schemas.js'
import {
  InviteToSpaceSchema,
  ListMemberSpacesQuerySchema,
  MemberSpaceSchema,
  TeamSpacePermissionListSchema,
  UpdateSpacePermissionSchema,
  UserSpacePermissionListSchema,
} from './schemas.js'

const tag = 'space-permissions'
const manage = { resource: 'space', action: 'managePermissions' } as const
const list = { resource: 'space', action: 'listPermissions' } as const

/**
 * Direct grants of a role on a space to users and teams. Changing them needs the admin role on
 * the space; listing them needs only access to the space. The official document answers the
 * writes with 204 and no body, and so do we.
 */
export const spacePermissionOperations = {
  inviteToSpace: defineOperation({
    id: 'inviteToSpace',
    method: 'POST',
    path: '/v1/spaces/{spaceId}/permissions',
    tag,
    summary: 'Invite users (non-members join the organization as guests) or teams to a space with a role',
    params: pathParams('spaceId'),
    body: InviteToSpaceSchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  listUserPermissionsInSpace: defineOperation({
    id: 'listUserPermissionsInSpace',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/permissions/users',
    tag,
    summary: 'List the users granted a role on a space, in the order they were first granted',
    params: pathParams('spaceId'),
    query: listQuery,
    response: UserSpacePermissionListSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: list,
  }),
  updateUserPermissionInSpace: defineOperation({
    id: 'updateUserPermissionInSpace',
    method: 'PATCH',
    path: '/v1/spaces/{spaceId}/permissions/users/{userId}',
    tag,
    summary: "Set a member's role on a space (null removes it)",
    params: pathParams('spaceId', 'userId'),
    body: UpdateSpacePermissionSchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  removeUserFromSpace: defineOperation({
    id: 'removeUserFromSpace',
    method: 'DELETE',
    path: '/v1/spaces/{spaceId}/permissions/users/{userId}',
    tag,
    summary: "Remove a user's role on a space (204 also when there was none)",
    params: pathParams('spaceId', 'userId'),
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  listTeamPermissionsInSpace: defineOperation({
    id: 'listTeamPermissionsInSpace',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/permissions/teams',
    tag,
    summary: 'List the teams granted a role on a space, in the order they were first granted',
    params: pathParams('spaceId'),
    query: listQuery,
    response: TeamSpacePermissionListSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: list,
  }),
  updateTeamPermissionInSpace: defineOperation({
    id: 'updateTeamPermissionInSpace',
    method: 'PATCH',
    path: '/v1/spaces/{spaceId}/permissions/teams/{teamId}',
    tag,
    summary: "Set a team's role on a space (null removes it)",
    params: pathParams('spaceId', 'teamId'),
    body: UpdateSpacePermissionSchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  removeTeamFromSpace: defineOperation({
    id: 'removeTeamFromSpace',
    method: 'DELETE',
    path: '/v1/spaces/{spaceId}/permissions/teams/{teamId}',
    tag,
    summary: "Remove a team's role on a space (204 also when there was none)",
    params: pathParams('spaceId', 'teamId'),
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  // A member's spaces: the spaces they hold a direct grant on (a member may list their own).
  listSpacesForOrganizationMember: defineOperation({
    id: 'listSpacesForOrganizationMember',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members/{userId}/spaces',
    tag: 'members',
    summary: 'List the spaces a member holds a direct grant on, with the granted role',
    params: pathParams('organizationId', 'userId'),
    query: ListMemberSpacesQuerySchema,
    response: listOf(MemberSpaceSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'view' },
  }),
}
