import { implement } from '../context.js'
import { mapPage } from '../../core/paging.js'
import { encodeMember } from './encode.js'
import { listMembers } from './list.js'
import { getMember, removeMember, requireUnlessSelf, setSsoMember, touchMember, updateMemberRole } from './model.js'
import { memberOperations } from './operations.js'

export const memberHandlers = implement(memberOperations, {
  listMembersInOrganizationById: (ctx, { params, query }) => mapPage(listMembers(ctx, params.organizationId, query), (row) => encodeMember(ctx, row)),

  getMemberInOrganizationById: (ctx, { params }) => {
    requireUnlessSelf(ctx, params.organizationId, params.userId, 'listMembers')
    return encodeMember(ctx, getMember(ctx, params.organizationId, params.userId))
  },

  updateMemberInOrganizationById: (ctx, { params, body }) => encodeMember(ctx, updateMemberRole(ctx, params.organizationId, params.userId, body.role)),

  removeMemberFromOrganizationById: (ctx, { params }) => {
    requireUnlessSelf(ctx, params.organizationId, params.userId, 'manageMembers')
    removeMember(ctx, params.organizationId, params.userId)
  },

  updateOrganizationMemberLastSeenAt: (ctx, { params }) => {
    touchMember(ctx, params.organizationId, ctx.actor.user)
    // `gitbookVisitorClaims` is optional in the official document and this API has no claims to give.
    return {}
  },

  setUserAsSSOMemberForOrganization: (ctx, { params }) => encodeMember(ctx, setSsoMember(ctx, params.organizationId, params.userId)),
})
