import { defineOperation } from '../../core/operation.js'
import { listQuery } from '../../core/paging.js'
import { pathParams } from '../common/schemas.js'
import { InviteToSpaceSchema, TeamSpacePermissionListSchema, UpdateSpacePermissionSchema, UserSpacePermissionListSchema } from '../space-permissions/schemas.js'

const tag = 'collection-permissions'
const manage = { resource: 'collection', action: 'managePermissions' } as const
const list = { resource: 'collection', action: 'listPermissions' } as const

/**
 * Direct grants of a role on a collection to users and teams, as for spaces (space-permissions):
 * changing them needs the admin role on the collection; listing them needs access to it. The
 * writes answer 204 and no body, as the official document says.
 */
export const collectionPermissionOperations = {
  inviteToCollection: defineOperation({
    id: 'inviteToCollection',
    method: 'POST',
    path: '/v1/collections/{collectionId}/permissions',
    tag,
    summary: 'Invite users (non-members join the organization as guests) or teams to a collection with a role',
    params: pathParams('collectionId'),
    body: InviteToSpaceSchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  listUserPermissionsInCollection: defineOperation({
    id: 'listUserPermissionsInCollection',
    method: 'GET',
    path: '/v1/collections/{collectionId}/permissions/users',
    tag,
    summary: 'List the users granted a role on a collection, in the order they were first granted',
    params: pathParams('collectionId'),
    query: listQuery,
    response: UserSpacePermissionListSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: list,
  }),
  updateUserPermissionInCollection: defineOperation({
    id: 'updateUserPermissionInCollection',
    method: 'PATCH',
    path: '/v1/collections/{collectionId}/permissions/users/{userId}',
    tag,
    summary: "Set a member's role on a collection (null removes it)",
    params: pathParams('collectionId', 'userId'),
    body: UpdateSpacePermissionSchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  removeUserFromCollection: defineOperation({
    id: 'removeUserFromCollection',
    method: 'DELETE',
    path: '/v1/collections/{collectionId}/permissions/users/{userId}',
    tag,
    summary: "Remove a user's role on a collection (204 also when there was none)",
    params: pathParams('collectionId', 'userId'),
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  listTeamPermissionsInCollection: defineOperation({
    id: 'listTeamPermissionsInCollection',
    method: 'GET',
    path: '/v1/collections/{collectionId}/permissions/teams',
    tag,
    summary: 'List the teams granted a role on a collection, in the order they were first granted',
    params: pathParams('collectionId'),
    query: listQuery,
    response: TeamSpacePermissionListSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: list,
  }),
  updateTeamPermissionInCollection: defineOperation({
    id: 'updateTeamPermissionInCollection',
    method: 'PATCH',
    path: '/v1/collections/{collectionId}/permissions/teams/{teamId}',
    tag,
    summary: "Set a team's role on a collection (null removes it)",
    params: pathParams('collectionId', 'teamId'),
    body: UpdateSpacePermissionSchema,
    bodyRequired: true,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  removeTeamFromCollection: defineOperation({
    id: 'removeTeamFromCollection',
    method: 'DELETE',
    path: '/v1/collections/{collectionId}/permissions/teams/{teamId}',
    tag,
    summary: "Remove a team's role on a collection (204 also when there was none)",
    params: pathParams('collectionId', 'teamId'),
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
}
