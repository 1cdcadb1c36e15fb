import { implement } from '../context.js'
import { indexSource, mapPage, paginate, paginateScan } from '../../core/paging.js'
import { encodeOrganization } from './encode.js'
import { createInviteLink, encodeInviteLink, getInviteLink, inviteUsers, joinWithInviteLink, updateInviteLink } from './invites.js'
import { createOrganization, getOrganization, joinOrganization, organizationsForEmailDomain, updateOrganization } from './model.js'
import { insertSite } from '../sites/lifecycle.js'
import { ApiError } from '../../core/errors.js'
import { organizationOperations } from './operations.js'
import { changedFields, recordAudit, userTarget, type AuditTarget } from '../audit/model.js'
import { memberId } from '../members/model.js'
import type { OrganizationRow } from './rows.js'
import { CreateOrganizationSchema } from './schemas.js'

const organizationTarget = (org: OrganizationRow): AuditTarget => ({ type: 'organization', id: org.id, label: org.title })
const inviteTarget = (id: string): AuditTarget => ({ type: 'invite', id })

export const organizationHandlers = implement(organizationOperations, {
  listOrganizationsForAuthenticatedUser: (ctx, { query }) => {
    const memberships = ctx.tx.scan('members', 'byUser', ctx.actor.user).filter((e) => !e.row.disabled)
    const page = paginate(memberships, (e) => [e.seq], query)
    return mapPage(page, (e) => encodeOrganization(ctx, getOrganization(ctx, e.row.organization)))
  },
  getOrganizationById: (ctx, { params }) => encodeOrganization(ctx, getOrganization(ctx, params.organizationId)),
  updateOrganizationById: (ctx, { params, body }) => {
    const before = getOrganization(ctx, params.organizationId)
    const org = updateOrganization(ctx, params.organizationId, body)
    // The names of the settings that changed (their values stay out of the trail).
    const fields = changedFields(body, before, org)
    if (fields.length > 0) recordAudit(ctx, { organization: org.id, action: 'organization.updated', target: organizationTarget(org), payload: { fields } })
    return encodeOrganization(ctx, org)
  },
  inviteUsersToOrganization: (ctx, { params, body }) => {
    const fallback = body.role !== undefined ? body.role : getOrganization(ctx, params.organizationId).defaultRole
    const invites = body.emails.map((e) => (typeof e === 'string' ? { email: e, role: fallback } : e))
    const result = inviteUsers(ctx, params.organizationId, invites, body.sso ?? false)
    result.users.forEach((user, i) => {
      recordAudit(ctx, {
        organization: params.organizationId,
        action: 'invite.created',
        target: userTarget(ctx, user),
        payload: { role: invites[i]!.role, sso: body.sso ?? false },
      })
    })
    return result
  },
  joinOrganizationWithInvite: (ctx, { params }) => {
    const before = ctx.tx.get('members', memberId(params.organizationId, ctx.actor.user))?.role
    joinWithInviteLink(ctx, params.organizationId, params.inviteId)
    const after = ctx.tx.get('members', memberId(params.organizationId, ctx.actor.user))?.role
    if (after !== before) {
      recordAudit(ctx, {
        organization: params.organizationId,
        action: 'invite.joined',
        target: userTarget(ctx, ctx.actor.user),
        payload: { inviteId: params.inviteId, ...(before !== undefined && { roleBefore: before }), roleAfter: after ?? null },
      })
    }
    return {}
  },
  listOrganizationInviteLinks: (ctx, { params, query }) =>
    mapPage(paginateScan(indexSource(ctx.tx, 'inviteLinks', 'byOrganization', params.organizationId), query), (e) => encodeInviteLink(ctx, e.row)),
  createOrganizationInvite: (ctx, { params, body }) => {
    const invite = createInviteLink(ctx, params.organizationId, body.role)
    recordAudit(ctx, { organization: params.organizationId, action: 'invite_link.created', target: inviteTarget(invite.id), payload: { role: invite.role } })
    return encodeInviteLink(ctx, invite)
  },
  getOrganizationInviteLink: (ctx, { params }) => encodeInviteLink(ctx, getInviteLink(ctx, params.organizationId, params.inviteId)),
  updateOrganizationInviteById: (ctx, { params, body }) => {
    const before = getInviteLink(ctx, params.organizationId, params.inviteId).role
    const invite = updateInviteLink(ctx, params.organizationId, params.inviteId, body.role)
    if (invite.role !== before) {
      recordAudit(ctx, {
        organization: params.organizationId,
        action: 'invite_link.updated',
        target: inviteTarget(invite.id),
        payload: { roleBefore: before, roleAfter: invite.role },
      })
    }
    return encodeInviteLink(ctx, invite)
  },
  deleteOrganizationInviteById: (ctx, { params }) => {
    const invite = ctx.tx.get('inviteLinks', params.inviteId)
    if (invite && invite.organization === params.organizationId) {
      ctx.tx.delete('inviteLinks', invite.id)
      recordAudit(ctx, { organization: params.organizationId, action: 'invite_link.deleted', target: inviteTarget(invite.id), payload: { role: invite.role } })
    }
  },
  joinOrganization: (ctx, { params }) => {
    const before = ctx.tx.get('members', memberId(params.organizationId, ctx.actor.user))
    joinOrganization(ctx, params.organizationId)
    const member = ctx.tx.get('members', memberId(params.organizationId, ctx.actor.user))
    if (!before && member) {
      recordAudit(ctx, {
        organization: params.organizationId,
        action: 'member.added',
        target: userTarget(ctx, ctx.actor.user),
        payload: { role: member.role, via: 'email-domain' },
      })
    }
  },
  createOrganization: (ctx, { query, body }) => {
    if (query.openapiUrl !== undefined) {
      throw new ApiError(
        'BAD_REQUEST',
        'Invalid request: query parameter `openapiUrl`: importing an OpenAPI specification at creation is not supported; create the organization, then the spec (createOpenAPISpec)',
      )
    }
    const org = createOrganization(ctx, CreateOrganizationSchema.parse({ title: body.title, emailDomains: body.emailDomains ?? [] }), [
      { user: ctx.actor.user, role: 'admin' },
    ])
    recordAudit(ctx, {
      organization: org.id,
      action: 'organization.created',
      target: organizationTarget(org),
      payload: { withDefaultSite: query.withDefaultSite ?? false },
    })
    if (!query.withDefaultSite) return encodeOrganization(ctx, org, 'admin')
    const site = insertSite(ctx, org.id, { title: org.title.slice(0, 128) })
    return encodeOrganization(ctx, ctx.tx.update('organizations', { ...org, defaultContent: { type: 'site', site: site.id } }), 'admin')
  },
  getOrganizationsForEmailDomain: (ctx, { params }) => ({
    organizations: organizationsForEmailDomain(ctx, params.emailDomain).map((org) => encodeOrganization(ctx, org)),
  }),
})
