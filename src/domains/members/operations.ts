import { defineOperation } from '../../core/operation.js'
import { listOf, pathParams } from '../common/schemas.js'
import { ListMembersQuerySchema, MemberSchema, PingResponseSchema, UpdateMemberSchema } from './schemas.js'

const tag = 'members'
const memberParams = pathParams('organizationId', 'userId')

/**
 * Operations on organization members. Those that a member may do on their own membership (read
 * it, its spaces and teams; leave) only need to see the organization here: the handler asks for
 * `listMembers` / `manageMembers` when the target is someone else (`requireUnlessSelf`). A
 * member's spaces and teams are listed by the areas of those (space-permissions, teams).
 */
export const memberOperations = {
  listMembersInOrganizationById: defineOperation({
    id: 'listMembersInOrganizationById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members',
    tag,
    summary: 'List the members of an organization (filter by role or text; sort by join time, last activity or name)',
    params: pathParams('organizationId'),
    query: ListMembersQuerySchema,
    response: listOf(MemberSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'listMembers' },
  }),
  getMemberInOrganizationById: defineOperation({
    id: 'getMemberInOrganizationById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members/{userId}',
    tag,
    summary: 'Get a member (any member may get their own membership)',
    params: memberParams,
    response: MemberSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'view' },
  }),
  updateMemberInOrganizationById: defineOperation({
    id: 'updateMemberInOrganizationById',
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/members/{userId}',
    tag,
    summary: "Change a member's role (null: guest); the last admin cannot be demoted",
    params: memberParams,
    body: UpdateMemberSchema,
    bodyRequired: true,
    response: MemberSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'manageMembers' },
  }),
  removeMemberFromOrganizationById: defineOperation({
    id: 'removeMemberFromOrganizationById',
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/members/{userId}',
    tag,
    summary: 'Remove a member with their team memberships and space grants (204 also when not a member; a member may leave)',
    params: memberParams,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'view' },
  }),
  updateOrganizationMemberLastSeenAt: defineOperation({
    id: 'updateOrganizationMemberLastSeenAt',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/ping',
    tag,
    summary: "Set the caller's last-seen time in the organization to now",
    params: pathParams('organizationId'),
    response: PingResponseSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'organization', action: 'view' },
  }),
  setUserAsSSOMemberForOrganization: defineOperation({
    id: 'setUserAsSSOMemberForOrganization',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/members/{userId}/sso',
    tag,
    summary: 'Mark a member as signing in with SSO',
    params: memberParams,
    response: MemberSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'manageMembers' },
  }),
}
