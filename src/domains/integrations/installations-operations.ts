import { z } from 'zod'
import { defineOperation } from '../../core/operation.js'
import { listOf, pathParams } from '../common/schemas.js'
import {
  ExtendedQuerySchema,
  IntegrationInstallationSchema,
  IntegrationSiteInstallationSchema,
  IntegrationSpaceInstallationSchema,
  ListContentInstallationsQuerySchema,
} from './installation-schemas.js'

const tag = 'integrations'
const installation = '/v1/integrations/{integrationName}/installations/{installationId}'
/** Anyone who sees the integration (POLICY.integration.view); the handlers check the installation's own rules. */
const view = { resource: 'integration', action: 'view', param: 'integrationName' } as const
const installationParams = pathParams('integrationName', 'installationId')
const spaceParams = pathParams('integrationName', 'installationId', 'spaceId')
const siteParams = pathParams('integrationName', 'installationId', 'siteId')

const ConfigurationSchema = z.record(z.string(), z.unknown()).meta({ id: 'IntegrationInstallationConfiguration' })
const ExternalIdsSchema = z.array(z.string()).max(5, 'must hold at most 5 ids')
const SelectionSchema = z.enum(['all', 'selected'])

/** Official `UpdateIntegrationInstallation`. */
export const UpdateInstallationSchema = z
  .object({
    externalIds: ExternalIdsSchema.optional(),
    configuration: ConfigurationSchema.optional(),
    space_selection: SelectionSchema.optional(),
    site_selection: SelectionSchema.optional(),
  })
  .meta({ id: 'UpdateIntegrationInstallation' })
/** Official `UpdateIntegrationSpaceInstallation` and `UpdateIntegrationSiteInstallation`. */
export const UpdateContentInstallationSchema = z.object({ externalIds: ExternalIdsSchema.optional(), configuration: ConfigurationSchema.optional() })
const ListOfInstallationQuerySchema = ListContentInstallationsQuerySchema.omit({ externalId: true })

/** Completing installations: configure, read and uninstall them on organizations, spaces and sites (official operationIds). */
export const installationOperations = {
  updateIntegrationInstallation: defineOperation({
    id: 'updateIntegrationInstallation',
    method: 'PATCH',
    path: installation,
    tag,
    summary:
      "Configure an installation (`configuration` checked against the integration's `configurations.account`; `externalIds`): the installing organization's admins; records `installation_setup` with `previous`",
    params: installationParams,
    body: UpdateInstallationSchema,
    bodyRequired: true,
    response: IntegrationInstallationSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: view,
  }),
  uninstallIntegration: defineOperation({
    id: 'uninstallIntegration',
    method: 'DELETE',
    path: installation,
    tag,
    summary:
      "Uninstall from the organization with the space and site installations (the installing organization's admins): 205, records `installation_deleted`; 204 when there was none",
    params: installationParams,
    status: 205,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: view,
  }),
  listIntegrationInstallationSpaces: defineOperation({
    id: 'listIntegrationInstallationSpaces',
    method: 'GET',
    path: `${installation}/spaces`,
    tag,
    summary:
      "The spaces an installation is enabled on, oldest first (`extended` for space objects): its readers (the installing organization's and the owner's admins)",
    params: installationParams,
    query: ListOfInstallationQuerySchema,
    response: listOf(IntegrationSpaceInstallationSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: view,
  }),
  getIntegrationSpaceInstallation: defineOperation({
    id: 'getIntegrationSpaceInstallation',
    method: 'GET',
    path: `${installation}/spaces/{spaceId}`,
    tag,
    summary: "An installation on a space: its installation's readers and the space's admins",
    params: spaceParams,
    query: ExtendedQuerySchema,
    response: IntegrationSpaceInstallationSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: view,
  }),
  updateIntegrationSpaceInstallation: defineOperation({
    id: 'updateIntegrationSpaceInstallation',
    method: 'PATCH',
    path: `${installation}/spaces/{spaceId}`,
    tag,
    summary:
      "Configure an installation on a space (`configuration` checked against `configurations.space`; `externalIds`): the space's admins; records `space_installation_setup` with `previous`",
    params: spaceParams,
    query: ExtendedQuerySchema,
    body: UpdateContentInstallationSchema.meta({ id: 'UpdateIntegrationSpaceInstallation' }),
    bodyRequired: true,
    response: IntegrationSpaceInstallationSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: view,
  }),
  uninstallIntegrationFromSpace: defineOperation({
    id: 'uninstallIntegrationFromSpace',
    method: 'DELETE',
    path: `${installation}/spaces/{spaceId}`,
    tag,
    summary: "Uninstall from a space (the space's admins): 205, records `space_installation_deleted`; 204 when there was none",
    params: spaceParams,
    status: 205,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: view,
  }),
  listIntegrationInstallationSites: defineOperation({
    id: 'listIntegrationInstallationSites',
    method: 'GET',
    path: `${installation}/sites`,
    tag,
    summary:
      "The sites an installation is enabled on, oldest first (`extended` for site objects): its readers (the installing organization's and the owner's admins)",
    params: installationParams,
    query: ListOfInstallationQuerySchema,
    response: listOf(IntegrationSiteInstallationSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: view,
  }),
  getIntegrationSiteInstallation: defineOperation({
    id: 'getIntegrationSiteInstallation',
    method: 'GET',
    path: `${installation}/sites/{siteId}`,
    tag,
    summary: "An installation on a site: its installation's readers and the site's admins",
    params: siteParams,
    query: ExtendedQuerySchema,
    response: IntegrationSiteInstallationSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: view,
  }),
  updateIntegrationSiteInstallation: defineOperation({
    id: 'updateIntegrationSiteInstallation',
    method: 'PATCH',
    path: `${installation}/sites/{siteId}`,
    tag,
    summary:
      "Configure an installation on a site (`configuration` checked against `configurations.site`; `externalIds`): the site's admins; records `site_installation_setup` with `previous`",
    params: siteParams,
    query: ExtendedQuerySchema,
    body: UpdateContentInstallationSchema.meta({ id: 'UpdateIntegrationSiteInstallation' }),
    bodyRequired: true,
    response: IntegrationSiteInstallationSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: view,
  }),
  uninstallIntegrationFromSite: defineOperation({
    id: 'uninstallIntegrationFromSite',
    method: 'DELETE',
    path: `${installation}/sites/{siteId}`,
    tag,
    summary: "Uninstall from a site (the site's admins): 205, records `site_installation_deleted`; 204 when there was none",
    params: siteParams,
    status: 205,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: view,
  }),
}
