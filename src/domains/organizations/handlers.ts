import { implement } from '../context.js'
import { mapPage, paginate } from '../../core/paging.js'
import { encodeOrganization } from './encode.js'
import { getOrganization, joinOrganization, updateOrganization } from './model.js'
import { organizationOperations } from './operations.js'

export const organizationHandlers = implement(organizationOperations, {
  listOrganizationsForAuthenticatedUser: (ctx, { query }) => {
    const memberships = ctx.tx.scan('members', 'byUser', ctx.actor.user).filter((e) => !e.row.disabled)
    const page = paginate(memberships, (e) => [e.seq], query)
    return mapPage(page, (e) => encodeOrganization(ctx, getOrganization(ctx, e.row.organization)))
  },
  getOrganizationById: (ctx, { params }) => encodeOrganization(ctx, getOrganization(ctx, params.organizationId)),
  updateOrganizationById: (ctx, { params, body }) => encodeOrganization(ctx, updateOrganization(ctx, params.organizationId, body)),
  deleteOrganizationInviteById: (ctx, { params }) => {
    const invite = ctx.tx.get('inviteLinks', params.inviteId)
    if (invite && invite.organization === params.organizationId) ctx.tx.delete('inviteLinks', invite.id)
  },
  joinOrganization: (ctx, { params }) => joinOrganization(ctx, params.organizationId),
})
