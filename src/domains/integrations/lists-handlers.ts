import { ApiError } from '../../core/errors.js'
import { indexSource, mapPage, paginate, paginateScan } from '../../core/paging.js'
import { implement, type ReadContext } from '../context.js'
import { getSite } from '../sites/model.js'
import { encodeInstallation, encodeIntegration, encodeSiteInstallation } from './encode.js'
import { liveSiteInstallation, liveSpaceInstallation } from './installation-model.js'
import { integrationListOperations } from './lists-operations.js'
import { matchesFilters, type IntegrationFilters } from './model.js'
import type { IntegrationRow, IntegrationSiteInstallationRow, IntegrationSpaceInstallationRow } from './rows.js'

/**
 * The integration lists of an organization, a space and a site. Every list leaves out the
 * integrations the caller does not see (POLICY.integration.view: a private one is for the owner
 * organization's members with a role), so no list reveals a private integration's name.
 */

/** The integration named `name` when the caller sees it and it passes the filters. */
function visibleIntegration(ctx: ReadContext, name: string, filters: IntegrationFilters = {}): IntegrationRow | undefined {
  const row = ctx.tx.get('integrations', name)
  return row && ctx.access.can('integration', name, 'view') && matchesFilters(row, filters) ? row : undefined
}

/**
 * The integrations available to an organization: the public ones, the ones it owns (any
 * visibility) and the ones installed on it (an unlisted integration of another organization), by
 * name. Costs one pass over the integrations (over the owner's with `owner`), as `listIntegrations`.
 */
function organizationIntegrations(ctx: ReadContext, organization: string, filters: IntegrationFilters): IntegrationRow[] {
  const rows = filters.owner !== undefined ? ctx.tx.scan('integrations', 'byOrganization', filters.owner).map((e) => e.row) : ctx.tx.all('integrations')
  const installed = (name: string) => ctx.tx.count('integrationInstallations', 'byIntegrationOrganization', `${name}/${organization}`) > 0
  return rows
    .filter((row) => matchesFilters(row, filters))
    .filter((row) => row.visibility === 'public' || row.organization === organization || installed(row.id))
    .filter((row) => ctx.access.can('integration', row.id, 'view'))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** A space installation that counts (its space live in its organization) and whose integration the caller sees and finds by `search`. */
const shownOnSpace = (ctx: ReadContext, search?: string) => (row: IntegrationSpaceInstallationRow) =>
  liveSpaceInstallation(ctx, row) && visibleIntegration(ctx, row.integration, { search }) !== undefined

/** A site installation on a site of its organization whose integration the caller sees and finds by `search`. */
const shownOnSite = (ctx: ReadContext, search?: string) => (row: IntegrationSiteInstallationRow) =>
  liveSiteInstallation(ctx, row) &&
  ctx.tx.get('sites', row.site)!.organization === row.organization &&
  visibleIntegration(ctx, row.integration, { search }) !== undefined

/** The official `contentSecurityPolicy` of a script is a string: a policy published as directives is written out (`directive value; ...`). */
function cspText(csp: IntegrationRow['contentSecurityPolicy']): string | undefined {
  if (csp === undefined || typeof csp === 'string') return csp
  return Object.entries(csp)
    .map(([directive, value]) => `${directive} ${value}`)
    .join('; ')
}

export const integrationListHandlers = implement(integrationListOperations, {
  listOrganizationIntegrations: (ctx, { params, query }) =>
    mapPage(
      paginate(organizationIntegrations(ctx, params.organizationId, query), (row) => [row.id], query),
      (row) => encodeIntegration(ctx, row),
    ),
  listOrganizationInstallations: (ctx, { params, query }) => {
    const source = indexSource(ctx.tx, 'integrationInstallations', 'byOrganization', params.organizationId)
    const page = paginateScan(source, query, (row) => visibleIntegration(ctx, row.integration, { search: query.search }) !== undefined)
    return mapPage(page, (e) => ({
      installation: encodeInstallation(ctx, e.row),
      integration: encodeIntegration(ctx, ctx.tx.get('integrations', e.row.integration)!),
    }))
  },
  getOrganizationIntegrationStatus: (ctx, { params }) => {
    if (!visibleIntegration(ctx, params.integrationName)) throw new ApiError('NOT_FOUND', 'Integration not found')
    const [installation] = ctx.tx.scan('integrationInstallations', 'byIntegrationOrganization', `${params.integrationName}/${params.organizationId}`, {
      limit: 1,
    })
    // The enum has no "not installed": `pending` is what an installation is before it exists (as in the setup events' `previous`).
    return { status: installation?.row.status ?? 'pending' }
  },
  listOrganizationIntegrationsStatus: (ctx, { params, query }) => {
    const org = params.organizationId
    for (const field of ['space', 'site'] as const) {
      if (query[field] !== undefined && query.target !== field) {
        throw new ApiError('BAD_REQUEST', `Invalid request: query parameter \`${field}\`: only with \`target=${field}\` (target is "${query.target}")`)
      }
    }
    const integration = (name: string) => encodeIntegration(ctx, ctx.tx.get('integrations', name)!)
    if (query.target === 'space') {
      if (query.space !== undefined) {
        const space = ctx.tx.get('spaces', query.space)
        if (!space || space.organization !== org || space.deletedAt || !ctx.access.can('space', space.id, 'listIntegrations'))
          throw new ApiError('BAD_REQUEST', 'Invalid request: query parameter `space`: no space of this organization you read has this id')
      }
      const source =
        query.space !== undefined
          ? indexSource(ctx.tx, 'integrationSpaceInstallations', 'bySpace', query.space)
          : indexSource(ctx.tx, 'integrationSpaceInstallations', 'byOrganization', org)
      const shown = shownOnSpace(ctx)
      const page = paginateScan(source, query, (row) => row.organization === org && shown(row) && ctx.access.can('space', row.space, 'listIntegrations'))
      return mapPage(page, ({ row }) => ({
        status: row.status,
        integration: integration(row.integration),
        target: { type: 'space' as const, spaceId: row.space },
      }))
    }
    if (query.target === 'site') {
      if (query.site !== undefined) {
        const site = ctx.tx.get('sites', query.site)
        if (!site || site.organization !== org || !ctx.access.can('site', site.id, 'listIntegrations'))
          throw new ApiError('BAD_REQUEST', 'Invalid request: query parameter `site`: no site of this organization you read has this id')
      }
      const source =
        query.site !== undefined
          ? indexSource(ctx.tx, 'integrationSiteInstallations', 'bySite', query.site)
          : indexSource(ctx.tx, 'integrationSiteInstallations', 'byOrganization', org)
      const shown = shownOnSite(ctx)
      const page = paginateScan(source, query, (row) => row.organization === org && shown(row) && ctx.access.can('site', row.site, 'listIntegrations'))
      return mapPage(page, ({ row }) => ({
        status: row.status,
        integration: integration(row.integration),
        target: { type: 'site' as const, siteId: row.site },
      }))
    }
    const source = indexSource(ctx.tx, 'integrationInstallations', 'byOrganization', org)
    const page = paginateScan(source, query, (row) => visibleIntegration(ctx, row.integration) !== undefined)
    return mapPage(page, ({ row }) => ({
      status: row.status,
      integration: integration(row.integration),
      target: { type: 'organization' as const, organizationId: org },
    }))
  },
  listSpaceIntegrations: (ctx, { params, query }) => {
    const page = paginateScan(indexSource(ctx.tx, 'integrationSpaceInstallations', 'bySpace', params.spaceId), query, shownOnSpace(ctx, query.search))
    return mapPage(page, ({ row }) => encodeIntegration(ctx, ctx.tx.get('integrations', row.integration)!))
  },
  // Not paged (the official answer is an array): one pass over the space's installations, one per integration at most.
  listSpaceIntegrationsBlocks: (ctx, { params }) =>
    ctx.tx
      .scan('integrationSpaceInstallations', 'bySpace', params.spaceId)
      .filter(({ row }) => shownOnSpace(ctx)(row))
      .map(({ row }) => ctx.tx.get('integrations', row.integration)!)
      .filter((integration) => integration.blocks.length > 0)
      .map((integration) => ({ name: integration.id, blocks: integration.blocks })),
  listSiteIntegrations: (ctx, { params, query }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const page = paginateScan(indexSource(ctx.tx, 'integrationSiteInstallations', 'bySite', site.id), query, shownOnSite(ctx, query.search))
    return mapPage(page, ({ row }) => encodeIntegration(ctx, ctx.tx.get('integrations', row.integration)!))
  },
  // Not paged (the official answer is an array): one pass over the site's installations.
  listSiteIntegrationScripts: (ctx, { params }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const shown = shownOnSite(ctx)
    const scripts: Array<{ script: string; contentSecurityPolicy?: string; cookies: boolean }> = []
    for (const { row } of ctx.tx.scan('integrationSiteInstallations', 'bySite', site.id)) {
      if (row.status !== 'active' || !shown(row)) continue
      const integration = ctx.tx.get('integrations', row.integration)!
      if (!integration.scopes.includes('site:script:inject')) continue
      const csp = cspText(integration.contentSecurityPolicy)
      scripts.push({
        // The platform serves what the integration's `fetch_published_script` handler answers there; this API names the URL and does not serve it.
        script: `${encodeSiteInstallation(ctx, row, false).urls.publicEndpoint}/script.js`,
        ...(csp !== undefined && { contentSecurityPolicy: csp }),
        cookies: integration.scopes.includes('site:script:cookies'),
      })
    }
    return scripts
  },
})
