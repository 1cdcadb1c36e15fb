import { z } from 'zod'
import { defineOperation } from '../../core/operation.js'
import { listQuery } from '../../core/paging.js'
import { listOf, pathParams } from '../common/schemas.js'
import { EmailDomainSchema } from './schemas.js'
import {
  CreateOrganizationBodySchema,
  CreateOrganizationQuerySchema,
  OrganizationSchema,
  OrganizationsForEmailDomainSchema,
  UpdateOrganizationSchema,
} from './schemas.js'

const tag = 'organizations'

export const organizationOperations = {
  listOrganizationsForAuthenticatedUser: defineOperation({
    id: 'listOrganizationsForAuthenticatedUser',
    method: 'GET',
    path: '/v1/orgs',
    tag,
    summary: 'List the organizations the caller is a member of',
    query: listQuery,
    response: listOf(OrganizationSchema),
    status: 200,
    errors: [],
  }),
  getOrganizationById: defineOperation({
    id: 'getOrganizationById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}',
    tag,
    summary: 'Get an organization',
    params: pathParams('organizationId'),
    response: OrganizationSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'organization', action: 'view' },
  }),
  updateOrganizationById: defineOperation({
    id: 'updateOrganizationById',
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}',
    tag,
    summary: 'Update an organization',
    params: pathParams('organizationId'),
    body: UpdateOrganizationSchema,
    response: OrganizationSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
    permission: { resource: 'organization', action: 'admin' },
  }),
  deleteOrganizationInviteById: defineOperation({
    id: 'deleteOrganizationInviteById',
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/link-invites/{inviteId}',
    tag,
    summary: 'Delete an invite link (204 also when it did not exist)',
    params: pathParams('organizationId', 'inviteId'),
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'manageMembers' },
  }),
  joinOrganization: defineOperation({
    id: 'joinOrganization',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/join',
    tag,
    summary: "Join an organization whose email domains include the caller's verified email domain",
    params: pathParams('organizationId'),
    body: z.object({}).optional(),
    status: 204,
    errors: ['NOT_FOUND'],
  }),
  createOrganization: defineOperation({
    id: 'createOrganization',
    method: 'POST',
    path: '/v1/orgs',
    tag,
    summary: 'Create an organization; the caller becomes its admin (`withDefaultSite`: with a site as its default content)',
    query: CreateOrganizationQuerySchema,
    body: CreateOrganizationBodySchema,
    bodyRequired: true,
    response: OrganizationSchema,
    status: 201,
    errors: [],
  }),
  getOrganizationsForEmailDomain: defineOperation({
    id: 'getOrganizationsForEmailDomain',
    method: 'GET',
    path: '/v1/email-domains/{emailDomain}/orgs',
    tag,
    summary: "The organizations whose email domains include the caller's verified email domain (the ones they may join)",
    params: z.object({ emailDomain: EmailDomainSchema }),
    response: OrganizationsForEmailDomainSchema,
    status: 200,
    errors: ['FORBIDDEN'],
  }),
}
