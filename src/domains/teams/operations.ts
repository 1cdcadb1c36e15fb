import { defineOperation } from '../../core/operation.js'
import { listOf, pathParams } from '../common/schemas.js'
import { CreateTeamSchema, ListMemberTeamsQuerySchema, ListTeamsQuerySchema, MemberTeamSchema, TeamSchema, UpdateTeamSchema } from './schemas.js'

const tag = 'teams'
const teamParams = pathParams('organizationId', 'teamId')

/**
 * Operations on the teams of an organization. Reading and renaming a team are open to its own
 * members and owners beyond the organization roles, so those entries only need to see the
 * organization: the handler asks for `listTeams` / `manageTeams` otherwise.
 */
export const teamOperations = {
  listTeamsInOrganizationById: defineOperation({
    id: 'listTeamsInOrganizationById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/teams',
    tag,
    summary: 'List the teams of an organization by title (filter by title text, or by a member who can manage them)',
    params: pathParams('organizationId'),
    query: ListTeamsQuerySchema,
    response: listOf(TeamSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'listTeams' },
  }),
  createOrganizationTeam: defineOperation({
    id: 'createOrganizationTeam',
    method: 'PUT',
    path: '/v1/orgs/{organizationId}/teams',
    tag,
    summary: 'Create a team with its first members (the creator, when listed, becomes its owner)',
    params: pathParams('organizationId'),
    body: CreateTeamSchema,
    bodyRequired: true,
    response: TeamSchema,
    status: 201,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'manageTeams' },
  }),
  getTeamInOrganizationById: defineOperation({
    id: 'getTeamInOrganizationById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/teams/{teamId}',
    tag,
    summary: 'Get a team',
    params: teamParams,
    response: TeamSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'view' },
  }),
  removeTeamFromOrganizationById: defineOperation({
    id: 'removeTeamFromOrganizationById',
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/teams/{teamId}',
    tag,
    summary: 'Delete a team with its memberships and space grants (204 also when it did not exist)',
    params: teamParams,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'manageTeams' },
  }),
  updateTeamInOrganizationById: defineOperation({
    id: 'updateTeamInOrganizationById',
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/teams/{teamId}',
    tag,
    summary: 'Rename a team (organization admins and the owners of the team)',
    params: teamParams,
    body: UpdateTeamSchema,
    bodyRequired: true,
    response: TeamSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'view' },
  }),
  // A member's teams (a member may list their own).
  listTeamsForOrganizationMember: defineOperation({
    id: 'listTeamsForOrganizationMember',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members/{userId}/teams',
    tag: 'members',
    summary: 'List the teams a member belongs to, with their role in each',
    params: pathParams('organizationId', 'userId'),
    query: ListMemberTeamsQuerySchema,
    response: listOf(MemberTeamSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'view' },
  }),
}
