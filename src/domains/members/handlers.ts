import type { Action } from '../../core/access.js'
import type { ReadContext } from '../context.js'
import { implement } from '../context.js'
import { mapPage } from '../../core/paging.js'
import { encodeSpace } from '../spaces/encode.js'
import { encodeTeam } from '../teams/encode.js'
import { encodeMember } from './encode.js'
import { listMembers, listMemberSpaces, listMemberTeams } from './list.js'
import { getMember, removeMember, setSsoMember, touchMember, updateMemberRole } from './model.js'
import { memberOperations } from './operations.js'

/** What a member may do on their own membership needs `action` only when aimed at someone else. */
function requireUnlessSelf(ctx: ReadContext, organization: string, user: string, action: Action): void {
  if (user !== ctx.actor.user) ctx.access.require('organization', organization, action)
}

export const memberHandlers = implement(memberOperations, {
  listMembersInOrganizationById: (ctx, { params, query }) =>
    mapPage(listMembers(ctx, params.organizationId, query), (row) => encodeMember(ctx, row)),

  getMemberInOrganizationById: (ctx, { params }) => {
    requireUnlessSelf(ctx, params.organizationId, params.userId, 'listMembers')
    return encodeMember(ctx, getMember(ctx, params.organizationId, params.userId))
  },

  updateMemberInOrganizationById: (ctx, { params, body }) =>
    encodeMember(ctx, updateMemberRole(ctx, params.organizationId, params.userId, body.role)),

  removeMemberFromOrganizationById: (ctx, { params }) => {
    requireUnlessSelf(ctx, params.organizationId, params.userId, 'manageMembers')
    removeMember(ctx, params.organizationId, params.userId)
  },

  updateOrganizationMemberLastSeenAt: (ctx, { params }) => {
    touchMember(ctx, params.organizationId, ctx.actor.user)
    // `gitbookVisitorClaims` is optional in the official document and this API has no claims to give.
    return {}
  },

  setUserAsSSOMemberForOrganization: (ctx, { params }) =>
    encodeMember(ctx, setSsoMember(ctx, params.organizationId, params.userId)),

  listSpacesForOrganizationMember: (ctx, { params, query }) => {
    requireUnlessSelf(ctx, params.organizationId, params.userId, 'listMembers')
    getMember(ctx, params.organizationId, params.userId)
    const page = listMemberSpaces(ctx, params.organizationId, params.userId, query)
    return mapPage(page, (item) => ({ permission: item.permission, space: encodeSpace(ctx, item.space) }))
  },

  listTeamsForOrganizationMember: (ctx, { params, query }) => {
    requireUnlessSelf(ctx, params.organizationId, params.userId, 'listMembers')
    getMember(ctx, params.organizationId, params.userId)
    const page = listMemberTeams(ctx, params.organizationId, params.userId, query)
    return mapPage(page, (item) => ({ team: encodeTeam(ctx, item.team), member: { role: item.membership.role } }))
  },
})
