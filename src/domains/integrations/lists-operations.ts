import { z } from 'zod'
import { defineOperation } from '../../core/operation.js'
import { listQuery } from '../../core/paging.js'
import { listOf, pathParams } from '../common/schemas.js'
import { InstallationStatusSchema, IntegrationInstallationSchema } from './installation-schemas.js'
import { IntegrationBlockSchema, IntegrationSchema, ListIntegrationsQuerySchema } from './schemas.js'

/**
 * The read side of the integrations platform seen from an organization, a space or a site: which
 * integrations are available, installed, and what they bring (blocks, site scripts). Official
 * operationIds; the behaviour is in docs/behaviour/integrations.md ("Lists").
 */

const tag = 'integrations'

/** Members of the organization with a role (POLICY.organization.listIntegrations). */
const orgRead = { resource: 'organization', action: 'listIntegrations' } as const
/** Readers of the space (POLICY.space.listIntegrations). */
const spaceRead = { resource: 'space', action: 'listIntegrations' } as const
/** Readers of the site (POLICY.site.listIntegrations). */
const siteRead = { resource: 'site', action: 'listIntegrations', param: 'siteId' } as const

const SearchSchema = z.string().max(512, 'must be at most 512 characters').optional().meta({ description: 'Part of the name or title, any case.' })

export const InstalledIntegrationTargetSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('organization'), organizationId: z.string() }),
    z.object({ type: z.literal('site'), siteId: z.string() }),
    z.object({ type: z.literal('space'), spaceId: z.string() }),
  ])
  .meta({ id: 'InstalledIntegrationTarget' })

export const InstalledIntegrationSchema = z
  .object({ status: InstallationStatusSchema, integration: IntegrationSchema, target: InstalledIntegrationTargetSchema })
  .meta({ id: 'InstalledIntegration' })

export const ListStatusesQuerySchema = listQuery.extend({
  target: z
    .enum(['organization', 'space', 'site'])
    .default('organization')
    .meta({ description: 'Installations on the organization (the default), on its spaces or on its sites.' }),
  site: z
    .string()
    .min(1, 'must not be empty')
    .optional()
    .meta({ description: 'Only the installations on this site of the organization (with `target=site`).' }),
  space: z
    .string()
    .min(1, 'must not be empty')
    .optional()
    .meta({ description: 'Only the installations on this space of the organization (with `target=space`).' }),
})

export const SpaceIntegrationBlocksSchema = z
  .array(z.object({ name: z.string(), blocks: z.array(IntegrationBlockSchema) }))
  .meta({ id: 'SpaceIntegrationBlocks' })

export const SiteIntegrationScriptSchema = z
  .object({
    script: z.string().meta({ description: "Where the platform serves the script the integration's `fetch_published_script` handler answers." }),
    contentSecurityPolicy: z.string().optional(),
    cookies: z.boolean(),
  })
  .meta({ id: 'SiteIntegrationScript' })

export const integrationListOperations = {
  listOrganizationIntegrations: defineOperation({
    id: 'listOrganizationIntegrations',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/integrations',
    tag,
    summary:
      'The integrations available to an organization, by name: the public ones, the ones it owns and the ones installed on it; the filters of `listIntegrations`; members with a role',
    params: pathParams('organizationId'),
    query: ListIntegrationsQuerySchema,
    response: listOf(IntegrationSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: orgRead,
  }),
  listOrganizationInstallations: defineOperation({
    id: 'listOrganizationInstallations',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/installations',
    tag,
    summary: "The organization's installations with their integrations, oldest first (`search`: part of the integration's name or title); its admins",
    params: pathParams('organizationId'),
    query: listQuery.extend({ search: SearchSchema }),
    response: listOf(z.object({ installation: IntegrationInstallationSchema, integration: IntegrationSchema })),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'listInstallations' },
  }),
  getOrganizationIntegrationStatus: defineOperation({
    id: 'getOrganizationIntegrationStatus',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/integrations/{integrationName}/installation_status',
    tag,
    summary: "The status of the integration's installation on the organization (`pending` when it is not installed); members with a role",
    params: pathParams('organizationId', 'integrationName'),
    response: z.object({ status: InstallationStatusSchema }),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: orgRead,
  }),
  listOrganizationIntegrationsStatus: defineOperation({
    id: 'listOrganizationIntegrationsStatus',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/integrations/installations-status',
    tag,
    summary:
      'Installations in the organization with their status and target, oldest first: on the organization (`target`, default), its spaces or its sites (`space` / `site` for one); members with a role, each seeing the spaces and sites he reads',
    params: pathParams('organizationId'),
    query: ListStatusesQuerySchema,
    response: listOf(InstalledIntegrationSchema),
    status: 200,
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'FORBIDDEN'],
    permission: orgRead,
  }),
  listSpaceIntegrations: defineOperation({
    id: 'listSpaceIntegrations',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/integrations',
    tag,
    summary: 'The integrations installed on a space, in installation order (`search`: part of the name or title); readers of the space',
    params: pathParams('spaceId'),
    query: listQuery.extend({ search: SearchSchema }),
    response: listOf(IntegrationSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: spaceRead,
  }),
  listSpaceIntegrationsBlocks: defineOperation({
    id: 'listSpaceIntegrationsBlocks',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/integration-blocks',
    tag,
    summary: 'The blocks of the integrations installed on a space (those that declare some), in installation order; readers of the space',
    params: pathParams('spaceId'),
    response: SpaceIntegrationBlocksSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: spaceRead,
  }),
  listSiteIntegrations: defineOperation({
    id: 'listSiteIntegrations',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/integrations',
    tag,
    summary: 'The integrations installed on a site, in installation order (`search`: part of the name or title); readers of the site',
    params: pathParams('organizationId', 'siteId'),
    query: listQuery.extend({ search: SearchSchema }),
    response: listOf(IntegrationSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: siteRead,
  }),
  listSiteIntegrationScripts: defineOperation({
    id: 'listSiteIntegrationScripts',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/integration-scripts',
    tag,
    summary:
      'The scripts injected in the published site: one per active installation on the site of an integration with the `site:script:inject` scope; readers of the site',
    params: pathParams('organizationId', 'siteId'),
    response: z.array(SiteIntegrationScriptSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: siteRead,
  }),
}
