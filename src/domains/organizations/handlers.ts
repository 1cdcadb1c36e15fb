import { implement } from '../context.js'
import { indexSource, mapPage, paginate, paginateScan } from '../../core/paging.js'
import { encodeOrganization } from './encode.js'
import { createInviteLink, encodeInviteLink, getInviteLink, inviteUsers, joinWithInviteLink, updateInviteLink } from './invites.js'
import { createOrganization, getOrganization, joinOrganization, organizationsForEmailDomain, updateOrganization } from './model.js'
import { insertSite } from '../sites/lifecycle.js'
import { ApiError } from '../../core/errors.js'
import { organizationOperations } from './operations.js'
import { CreateOrganizationSchema } from './schemas.js'

export const organizationHandlers = implement(organizationOperations, {
  listOrganizationsForAuthenticatedUser: (ctx, { query }) => {
    const memberships = ctx.tx.scan('members', 'byUser', ctx.actor.user).filter((e) => !e.row.disabled)
    const page = paginate(memberships, (e) => [e.seq], query)
    return mapPage(page, (e) => encodeOrganization(ctx, getOrganization(ctx, e.row.organization)))
  },
  getOrganizationById: (ctx, { params }) => encodeOrganization(ctx, getOrganization(ctx, params.organizationId)),
  updateOrganizationById: (ctx, { params, body }) => encodeOrganization(ctx, updateOrganization(ctx, params.organizationId, body)),
  inviteUsersToOrganization: (ctx, { params, body }) => {
    const fallback = body.role !== undefined ? body.role : getOrganization(ctx, params.organizationId).defaultRole
    const invites = body.emails.map((e) => (typeof e === 'string' ? { email: e, role: fallback } : e))
    return inviteUsers(ctx, params.organizationId, invites, body.sso ?? false)
  },
  joinOrganizationWithInvite: (ctx, { params }) => {
    joinWithInviteLink(ctx, params.organizationId, params.inviteId)
    return {}
  },
  listOrganizationInviteLinks: (ctx, { params, query }) =>
    mapPage(paginateScan(indexSource(ctx.tx, 'inviteLinks', 'byOrganization', params.organizationId), query), (e) => encodeInviteLink(ctx, e.row)),
  createOrganizationInvite: (ctx, { params, body }) => encodeInviteLink(ctx, createInviteLink(ctx, params.organizationId, body.role)),
  getOrganizationInviteLink: (ctx, { params }) => encodeInviteLink(ctx, getInviteLink(ctx, params.organizationId, params.inviteId)),
  updateOrganizationInviteById: (ctx, { params, body }) => encodeInviteLink(ctx, updateInviteLink(ctx, params.organizationId, params.inviteId, body.role)),
  deleteOrganizationInviteById: (ctx, { params }) => {
    const invite = ctx.tx.get('inviteLinks', params.inviteId)
    if (invite && invite.organization === params.organizationId) ctx.tx.delete('inviteLinks', invite.id)
  },
  joinOrganization: (ctx, { params }) => joinOrganization(ctx, params.organizationId),
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
    if (!query.withDefaultSite) return encodeOrganization(ctx, org, 'admin')
    const site = insertSite(ctx, org.id, { title: org.title.slice(0, 128) })
    return encodeOrganization(ctx, ctx.tx.update('organizations', { ...org, defaultContent: { type: 'site', site: site.id } }), 'admin')
  },
  getOrganizationsForEmailDomain: (ctx, { params }) => ({
    organizations: organizationsForEmailDomain(ctx, params.emailDomain).map((org) => encodeOrganization(ctx, org)),
  }),
})
