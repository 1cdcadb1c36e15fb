import { implement } from '../context.js'
import { indexSource, mapPage, paginate, paginateScan } from '../../core/paging.js'
import { encodeEvent, encodeInstallation, encodeIntegration, encodeSiteInstallation, encodeSpaceInstallation } from './encode.js'
import { getEvent } from './events.js'
import { getInstallation, installIntegration, installOnSite, installOnSpace, liveSiteInstallation, liveSpaceInstallation } from './installation-model.js'
import { getIntegration, listedIntegrations, publishIntegration, unpublishIntegration } from './model.js'
import { integrationOperations } from './operations.js'

const withExternalId = (externalId: string | undefined) => (row: { externalIds: readonly string[] }) =>
  externalId === undefined || row.externalIds.includes(externalId)

/** The integration operations bound to their handlers. */
export const integrationHandlers = implement(integrationOperations, {
  listIntegrations: (ctx, { query }) =>
    mapPage(
      paginate(listedIntegrations(ctx, query), (row) => [row.id], query),
      (row) => encodeIntegration(ctx, row),
    ),
  getIntegrationByName: (ctx, { params }) => encodeIntegration(ctx, getIntegration(ctx, params.integrationName)),
  publishIntegration: (ctx, { params, body }) => encodeIntegration(ctx, publishIntegration(ctx, params.integrationName, body)),
  // A missing integration, or one the caller does not see, answers 204 before this runs (`missingIsSuccess`).
  unpublishIntegration: (ctx, { params }) => unpublishIntegration(ctx, params.integrationName),
  listIntegrationInstallations: (ctx, { params, query }) => {
    const source = indexSource(ctx.tx, 'integrationInstallations', 'byIntegration', params.integrationName)
    const external = withExternalId(query.externalId)
    return mapPage(paginateScan(source, query, query.externalId === undefined ? undefined : (row) => external(row)), (e) => encodeInstallation(ctx, e.row))
  },
  installIntegration: (ctx, { params, body }) => encodeInstallation(ctx, installIntegration(ctx, params.integrationName, body.organization)),
  getIntegrationInstallationById: (ctx, { params }) => encodeInstallation(ctx, getInstallation(ctx, params.integrationName, params.installationId)),
  installIntegrationOnSpace: (ctx, { params, query, body }) =>
    encodeSpaceInstallation(ctx, installOnSpace(ctx, params.integrationName, params.installationId, body.space), query.extended),
  installIntegrationOnSite: (ctx, { params, query, body }) =>
    encodeSiteInstallation(ctx, installOnSite(ctx, params.integrationName, params.installationId, body.siteId), query.extended),
  listIntegrationSpaceInstallations: (ctx, { params, query }) => {
    const source = indexSource(ctx.tx, 'integrationSpaceInstallations', 'byIntegration', params.integrationName)
    const external = withExternalId(query.externalId)
    const page = paginateScan(source, query, (row) => external(row) && liveSpaceInstallation(ctx, row))
    return mapPage(page, (e) => encodeSpaceInstallation(ctx, e.row, query.extended))
  },
  listIntegrationSiteInstallations: (ctx, { params, query }) => {
    const source = indexSource(ctx.tx, 'integrationSiteInstallations', 'byIntegration', params.integrationName)
    const external = withExternalId(query.externalId)
    const page = paginateScan(source, query, (row) => external(row) && liveSiteInstallation(ctx, row))
    return mapPage(page, (e) => encodeSiteInstallation(ctx, e.row, query.extended))
  },
  listIntegrationEvents: (ctx, { params, query }) =>
    mapPage(paginateScan(indexSource(ctx.tx, 'integrationEvents', 'byIntegration', params.integrationName), query), (e) => encodeEvent(e.row)),
  getIntegrationEvent: (ctx, { params }) => {
    const row = getEvent(ctx, params.integrationName, params.eventId)
    return { event: encodeEvent(row), trace: { logs: row.logs } }
  },
})
