import { NO_CONTENT } from '../../core/operation.js'
import { indexSource, mapPage, paginateScan } from '../../core/paging.js'
import { implement } from '../context.js'
import { encodeInstallation, encodeSiteInstallation, encodeSpaceInstallation } from './encode.js'
import {
  getContentInstallation,
  uninstallContentInstallation,
  uninstallInstallation,
  updateContentInstallation,
  updateInstallation,
} from './installation-changes.js'
import { getInstallation, liveSiteInstallation, liveSpaceInstallation } from './installation-model.js'
import { installationOperations } from './installations-operations.js'

/** The operations completing installations, bound to their handlers. */
export const installationHandlers = implement(installationOperations, {
  updateIntegrationInstallation: (ctx, { params, body }) =>
    encodeInstallation(ctx, updateInstallation(ctx, params.integrationName, params.installationId, body)),
  uninstallIntegration: (ctx, { params }) => {
    if (!uninstallInstallation(ctx, params.integrationName, params.installationId)) return NO_CONTENT
  },
  listIntegrationInstallationSpaces: (ctx, { params, query }) => {
    const installation = getInstallation(ctx, params.integrationName, params.installationId)
    const source = indexSource(ctx.tx, 'integrationSpaceInstallations', 'byInstallation', installation.id)
    return mapPage(
      paginateScan(source, query, (row) => liveSpaceInstallation(ctx, row)),
      (e) => encodeSpaceInstallation(ctx, e.row, query.extended),
    )
  },
  getIntegrationSpaceInstallation: (ctx, { params, query }) =>
    encodeSpaceInstallation(ctx, getContentInstallation(ctx, 'space', params.integrationName, params.installationId, params.spaceId), query.extended),
  updateIntegrationSpaceInstallation: (ctx, { params, query, body }) =>
    encodeSpaceInstallation(ctx, updateContentInstallation(ctx, 'space', params.integrationName, params.installationId, params.spaceId, body), query.extended),
  uninstallIntegrationFromSpace: (ctx, { params }) => {
    if (!uninstallContentInstallation(ctx, 'space', params.integrationName, params.installationId, params.spaceId)) return NO_CONTENT
  },
  listIntegrationInstallationSites: (ctx, { params, query }) => {
    const installation = getInstallation(ctx, params.integrationName, params.installationId)
    const source = indexSource(ctx.tx, 'integrationSiteInstallations', 'byInstallation', installation.id)
    return mapPage(
      paginateScan(source, query, (row) => liveSiteInstallation(ctx, row)),
      (e) => encodeSiteInstallation(ctx, e.row, query.extended),
    )
  },
  getIntegrationSiteInstallation: (ctx, { params, query }) =>
    encodeSiteInstallation(ctx, getContentInstallation(ctx, 'site', params.integrationName, params.installationId, params.siteId), query.extended),
  updateIntegrationSiteInstallation: (ctx, { params, query, body }) =>
    encodeSiteInstallation(ctx, updateContentInstallation(ctx, 'site', params.integrationName, params.installationId, params.siteId, body), query.extended),
  uninstallIntegrationFromSite: (ctx, { params }) => {
    if (!uninstallContentInstallation(ctx, 'site', params.integrationName, params.installationId, params.siteId)) return NO_CONTENT
  },
})
