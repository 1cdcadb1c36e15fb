import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { recordEvent } from './events.js'
import { getIntegration } from './model.js'
import type { IntegrationInstallationRow, IntegrationRow, IntegrationSiteInstallationRow, IntegrationSpaceInstallationRow } from './rows.js'

/**
 * Installations: an organization installs an integration once (its admins), then enables the
 * installation on its spaces (the spaces' admins) and sites (the organization's admins), one by
 * one. Each installation records its `*_setup` event, delivered in the background (delivery.ts).
 */

/** A space installation counts while its space is live and still in the installation's organization. */
export function liveSpaceInstallation(ctx: ReadContext, row: IntegrationSpaceInstallationRow): boolean {
  const space = ctx.tx.get('spaces', row.space)
  return !!space && !space.deletedAt && space.organization === row.organization
}

/** A site installation counts while its site exists. */
export function liveSiteInstallation(ctx: ReadContext, row: IntegrationSiteInstallationRow): boolean {
  return !!ctx.tx.get('sites', row.site)
}

/** The installation's `spaces`: its live space installations, the ones its space list shows. */
export function spaceInstallationCount(ctx: ReadContext, installation: string): number {
  let n = 0
  for (const { row } of ctx.tx.scan('integrationSpaceInstallations', 'byInstallation', installation)) if (liveSpaceInstallation(ctx, row)) n++
  return n
}

export function installIntegration(ctx: Context, name: string, organization: string): IntegrationInstallationRow {
  const integration = getIntegration(ctx, name)
  ctx.access.require('organization', organization, 'installIntegration')
  if (integration.visibility === 'private' && integration.organization !== organization) {
    throw new ApiError('FORBIDDEN', 'A private integration is installed only by the organization that owns it')
  }
  if (ctx.tx.count('integrationInstallations', 'byIntegrationOrganization', `${name}/${organization}`) > 0) {
    throw new ApiError('CONFLICT', `The integration "${name}" is already installed on this organization`)
  }
  const now = ctx.nowIso()
  const row = ctx.tx.insert('integrationInstallations', {
    id: ctx.newId(),
    integration: name,
    organization,
    status: 'active',
    configuration: {},
    externalIds: [],
    createdAt: now,
    updatedAt: now,
  })
  recordEvent(ctx, integration, row.id, { type: 'installation_setup' })
  return row
}

/**
 * An installation of this integration, for the installing organization's admins and the
 * integration's owner admins; others who can see that organization get a 403, the rest a 404.
 */
export function getInstallation(ctx: ReadContext, name: string, id: string): IntegrationInstallationRow {
  const row = ctx.tx.get('integrationInstallations', id)
  if (!row || row.integration !== name) throw new ApiError('NOT_FOUND', 'Installation not found')
  if (ctx.access.can('integration', name, 'admin')) return row
  ctx.access.require('organization', row.organization, 'listInstallations')
  return row
}

/**
 * The installation a space or site installation hangs off: found when the caller can see its
 * organization (a 404 otherwise), and the integration's target must allow `kind`.
 */
function installationFor(ctx: Context, integration: IntegrationRow, id: string, kind: 'space' | 'site'): IntegrationInstallationRow {
  const row = ctx.tx.get('integrationInstallations', id)
  if (!row || row.integration !== integration.id || !ctx.access.can('organization', row.organization, 'view'))
    throw new ApiError('NOT_FOUND', 'Installation not found')
  if (integration.target !== 'all' && integration.target !== kind) {
    throw new ApiError('BAD_REQUEST', `The integration's target is "${integration.target}": it is not installed on ${kind}s`)
  }
  return row
}

export function installOnSpace(ctx: Context, name: string, installationId: string, spaceId: string): IntegrationSpaceInstallationRow {
  const integration = getIntegration(ctx, name)
  const installation = installationFor(ctx, integration, installationId, 'space')
  ctx.access.require('space', spaceId, 'installIntegration')
  const space = ctx.tx.get('spaces', spaceId)!
  if (space.organization !== installation.organization) {
    throw new ApiError('BAD_REQUEST', "Invalid request: body field `space`: must be a space of the installation's organization")
  }
  const id = `${installation.id}/${space.id}`
  const existing = ctx.tx.get('integrationSpaceInstallations', id)
  if (existing) throw new ApiError('CONFLICT', `The installation is already enabled on space ${space.id}`)
  const now = ctx.nowIso()
  const common = {
    installation: installation.id,
    integration: name,
    organization: installation.organization,
    status: 'active' as const,
    configuration: {},
    externalIds: [],
    createdAt: now,
    updatedAt: now,
  }
  const row = ctx.tx.insert('integrationSpaceInstallations', { id, ...common, space: space.id })
  recordEvent(ctx, integration, installation.id, { type: 'space_installation_setup', spaceId: space.id })
  return row
}

export function installOnSite(ctx: Context, name: string, installationId: string, siteId: string): IntegrationSiteInstallationRow {
  const integration = getIntegration(ctx, name)
  const installation = installationFor(ctx, integration, installationId, 'site')
  const site = ctx.tx.get('sites', siteId)
  if (!site || site.organization !== installation.organization || !ctx.access.can('site', site.id, 'access')) {
    throw new ApiError('NOT_FOUND', "Site not found in the installation's organization")
  }
  ctx.access.require('site', site.id, 'installIntegration')
  const id = `${installation.id}/${site.id}`
  if (ctx.tx.get('integrationSiteInstallations', id)) throw new ApiError('CONFLICT', `The installation is already enabled on site ${site.id}`)
  const now = ctx.nowIso()
  const common = {
    installation: installation.id,
    integration: name,
    organization: installation.organization,
    status: 'active' as const,
    configuration: {},
    externalIds: [],
    createdAt: now,
    updatedAt: now,
  }
  const row = ctx.tx.insert('integrationSiteInstallations', { id, ...common, site: site.id })
  recordEvent(ctx, integration, installation.id, { type: 'site_installation_setup', siteId: site.id })
  return row
}
