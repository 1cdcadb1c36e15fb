import { implement } from '../context.js'
import { mapPage } from '../../core/paging.js'
import { encodeMember } from './encode.js'
import { listMembers } from './list.js'
import { getMember, memberId, removeMember, requireUnlessSelf, setSsoMember, touchMember, updateMemberRole } from './model.js'
import { memberOperations } from './operations.js'
import { recordAudit, userTarget } from '../audit/model.js'

export const memberHandlers = implement(memberOperations, {
  listMembersInOrganizationById: (ctx, { params, query }) => mapPage(listMembers(ctx, params.organizationId, query), (row) => encodeMember(ctx, row)),

  getMemberInOrganizationById: (ctx, { params }) => {
    requireUnlessSelf(ctx, params.organizationId, params.userId, 'listMembers')
    return encodeMember(ctx, getMember(ctx, params.organizationId, params.userId))
  },

  updateMemberInOrganizationById: (ctx, { params, body }) => {
    const before = getMember(ctx, params.organizationId, params.userId).role
    const member = updateMemberRole(ctx, params.organizationId, params.userId, body.role)
    if (member.role !== before) {
      recordAudit(ctx, {
        organization: params.organizationId,
        action: 'member.role_updated',
        target: userTarget(ctx, params.userId),
        payload: { roleBefore: before, roleAfter: member.role },
      })
    }
    return encodeMember(ctx, member)
  },

  removeMemberFromOrganizationById: (ctx, { params }) => {
    requireUnlessSelf(ctx, params.organizationId, params.userId, 'manageMembers')
    const role = ctx.tx.get('members', memberId(params.organizationId, params.userId))?.role
    if (removeMember(ctx, params.organizationId, params.userId)) {
      recordAudit(ctx, {
        organization: params.organizationId,
        action: 'member.removed',
        target: userTarget(ctx, params.userId),
        payload: { role: role ?? null, left: params.userId === ctx.actor.user },
      })
    }
  },

  updateOrganizationMemberLastSeenAt: (ctx, { params }) => {
    touchMember(ctx, params.organizationId, ctx.actor.user)
    // `gitbookVisitorClaims` is optional in the official document and this API has no claims to give.
    return {}
  },

  setUserAsSSOMemberForOrganization: (ctx, { params }) => {
    const before = getMember(ctx, params.organizationId, params.userId)
    const member = setSsoMember(ctx, params.organizationId, params.userId)
    if (!before.sso)
      recordAudit(ctx, { organization: params.organizationId, action: 'member.sso_updated', target: userTarget(ctx, params.userId), payload: { sso: true } })
    return encodeMember(ctx, member)
  },
})
