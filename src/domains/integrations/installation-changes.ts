import { removeRow } from '../ownership.js'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { recordPayload } from './events.js'
import { getInstallation, liveSiteInstallation, liveSpaceInstallation } from './installation-model.js'
import { getIntegration } from './model.js'
import type {
  IntegrationConfiguration,
  IntegrationInstallationRow,
  IntegrationRow,
  IntegrationSiteInstallationRow,
  IntegrationSpaceInstallationRow,
} from './rows.js'

/**
 * Completing installations: configuring them (checked against the configuration schema the
 * integration declares for the target), their external ids, reading and uninstalling them. The
 * installing organization's admins manage the organization installation; a space's admins its
 * space installations, a site's admins (the organization's) its site installations; the
 * integration's owner admins read them all. Each change records its official event.
 */

type Configuration = Record<string, unknown>

/**
 * Check a configuration against the schema of `declared` (the integration's
 * `configurations.account`, `.space` or `.site`): each declared property holds a value of its type
 * (a string of its `enum`), a `button` holds none, and every `required` property is there. Other
 * keys are kept unchecked, as a JSON Schema without `additionalProperties: false` allows (integrations
 * keep their own state there). A ContentKit configuration (`componentId`), or none declared,
 * leaves the configuration to the integration: anything is accepted.
 */
export function checkConfiguration(declared: IntegrationConfiguration | undefined, configuration: Configuration, target: string): void {
  if (!declared || !('properties' in declared)) return
  const field = (name: string) => `Invalid request: body field \`configuration.${name}\``
  for (const [name, property] of Object.entries(declared.properties)) {
    if (!(name in configuration)) continue
    const value = configuration[name]
    if (property.type === 'button') throw new ApiError('BAD_REQUEST', `${field(name)}: a button of the ${target} configuration holds no value`)
    if (typeof value !== property.type)
      throw new ApiError('BAD_REQUEST', `${field(name)}: must be a ${property.type} (the integration's ${target} configuration)`)
    if (property.type === 'string' && property.enum && !property.enum.includes(value as string)) {
      throw new ApiError('BAD_REQUEST', `${field(name)}: must be one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`)
    }
  }
  for (const name of declared.required ?? []) {
    if (configuration[name] === undefined || configuration[name] === null)
      throw new ApiError('BAD_REQUEST', `${field(name)}: is required by the integration's ${target} configuration`)
  }
}

export interface InstallationChange {
  configuration?: Configuration | undefined
  externalIds?: string[] | undefined
  space_selection?: 'all' | 'selected' | undefined
  site_selection?: 'all' | 'selected' | undefined
}

/** Whether the caller reads the installation (getInstallation's rule), without throwing. */
function readable(ctx: ReadContext, integration: string, id: string): IntegrationInstallationRow | undefined {
  const row = ctx.tx.get('integrationInstallations', id)
  if (!row || row.integration !== integration) return undefined
  if (ctx.access.can('integration', integration, 'admin') || ctx.access.can('organization', row.organization, 'view')) return row
  return undefined
}

/** An installation the caller manages: the installing organization's admins (others who read it: 403). */
export function managedInstallation(ctx: ReadContext, name: string, id: string): IntegrationInstallationRow {
  const row = readable(ctx, name, id)
  if (!row) throw new ApiError('NOT_FOUND', 'Installation not found')
  if (!ctx.access.can('organization', row.organization, 'installIntegration')) {
    throw new ApiError('FORBIDDEN', "Only the installing organization's admins change or uninstall its installation")
  }
  return row
}

/**
 * Update an installation: its `configuration` (replaced whole, checked against
 * `configurations.account`), its `externalIds`; `space_selection` / `site_selection` take only
 * `selected` (installations are enabled on spaces and sites one by one here). A `pending`
 * installation given a valid configuration becomes `active`. A configuration in the body records
 * an `installation_setup` event with what the installation was before (`previous`).
 */
export function updateInstallation(ctx: Context, name: string, id: string, change: InstallationChange): IntegrationInstallationRow {
  const integration = getIntegration(ctx, name)
  const row = managedInstallation(ctx, name, id)
  for (const key of ['space_selection', 'site_selection'] as const) {
    if (change[key] === 'all') {
      const op = key === 'space_selection' ? 'installIntegrationOnSpace' : 'installIntegrationOnSite'
      throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${key}\`: only "selected" is supported (enable the installation one by one with ${op})`)
    }
  }
  if (change.configuration !== undefined) checkConfiguration(integration.configurations.account, change.configuration, 'account')
  const status = change.configuration !== undefined && row.status === 'pending' ? 'active' : row.status
  const updated = ctx.tx.update('integrationInstallations', {
    ...row,
    status,
    ...(change.configuration !== undefined && { configuration: change.configuration }),
    ...(change.externalIds !== undefined && { externalIds: change.externalIds }),
    updatedAt: ctx.nowIso(),
  })
  if (change.configuration !== undefined) {
    recordPayload(ctx, integration, row.id, {
      type: 'installation_setup',
      status: updated.status,
      previous: { status: row.status, configuration: row.configuration },
    })
  }
  return updated
}

/**
 * Uninstall: the installation goes with its space and site installations, recording
 * `installation_deleted` (its last configuration in `previous`). False when there is none the
 * caller sees (the official 204 "did not exist").
 */
export function uninstallInstallation(ctx: Context, name: string, id: string): boolean {
  const integration = getIntegration(ctx, name)
  if (!readable(ctx, name, id)) return false
  const row = managedInstallation(ctx, name, id)
  // With what it owns (ownership.ts): its space and site installations and its tokens.
  removeRow(ctx, 'integrationInstallations', row.id)
  recordPayload(ctx, integration, row.id, { type: 'installation_deleted', previous: { configuration: row.configuration } })
  return true
}

type Kind = 'space' | 'site'
type ContentRow<K extends Kind> = K extends 'space' ? IntegrationSpaceInstallationRow : IntegrationSiteInstallationRow

/**
 * The installation's live installation on a space or site, for its readers: the installation's
 * (getInstallation: the owner's admins, the installing organization's admins) and the admins of
 * that space or site. A missing one, or one the caller does not see, is a 404.
 */
export function getContentInstallation<K extends Kind>(ctx: ReadContext, kind: K, name: string, installationId: string, target: string): ContentRow<K> {
  const label = kind === 'space' ? 'Space installation not found' : 'Site installation not found'
  const installation = readable(ctx, name, installationId)
  if (!installation) throw new ApiError('NOT_FOUND', 'Installation not found')
  const id = `${installation.id}/${target}`
  const row = (kind === 'space' ? ctx.tx.get('integrationSpaceInstallations', id) : ctx.tx.get('integrationSiteInstallations', id)) as ContentRow<K> | undefined
  const live =
    row &&
    (kind === 'space' ? liveSpaceInstallation(ctx, row as IntegrationSpaceInstallationRow) : liveSiteInstallation(ctx, row as IntegrationSiteInstallationRow))
  if (!row || !live) throw new ApiError('NOT_FOUND', label)
  if (ctx.access.can(kind, target, 'installIntegration')) return row
  getInstallation(ctx, name, installationId)
  return row
}

/** A space or site installation its caller manages: the space's (site's) admins; other readers get a 403. */
function managedContentInstallation<K extends Kind>(ctx: ReadContext, kind: K, name: string, installationId: string, target: string): ContentRow<K> {
  const row = getContentInstallation(ctx, kind, name, installationId, target)
  if (!ctx.access.can(kind, target, 'installIntegration')) {
    throw new ApiError('FORBIDDEN', `Only the ${kind}'s admins change or uninstall the integration's installation on it`)
  }
  return row
}

/**
 * Update an installation on a space or site: `configuration` (replaced whole, checked against
 * `configurations.space` / `.site`), `externalIds`. A configuration records a
 * `space_installation_setup` / `site_installation_setup` event with `previous`.
 */
export function updateContentInstallation<K extends Kind>(
  ctx: Context,
  kind: K,
  name: string,
  installationId: string,
  target: string,
  change: { configuration?: Configuration | undefined; externalIds?: string[] | undefined },
): ContentRow<K> {
  const integration = getIntegration(ctx, name)
  const row = managedContentInstallation(ctx, kind, name, installationId, target)
  if (change.configuration !== undefined) checkConfiguration(integration.configurations[kind], change.configuration, kind)
  const status = change.configuration !== undefined && row.status === 'pending' ? 'active' : row.status
  const next = {
    ...row,
    status,
    ...(change.configuration !== undefined && { configuration: change.configuration }),
    ...(change.externalIds !== undefined && { externalIds: change.externalIds }),
    updatedAt: ctx.nowIso(),
  }
  const updated = (
    kind === 'space'
      ? ctx.tx.update('integrationSpaceInstallations', next as IntegrationSpaceInstallationRow)
      : ctx.tx.update('integrationSiteInstallations', next as IntegrationSiteInstallationRow)
  ) as ContentRow<K>
  if (change.configuration !== undefined) {
    const previous = { status: row.status, configuration: row.configuration }
    recordPayload(
      ctx,
      integration,
      row.installation,
      kind === 'space'
        ? { type: 'space_installation_setup', spaceId: target, status, previous }
        : { type: 'site_installation_setup', siteId: target, status, previous },
    )
  }
  return updated
}

/**
 * Uninstall from a space or site, recording `space_installation_deleted` / `site_installation_deleted`.
 * False when there is none the caller sees (the official 204).
 */
export function uninstallContentInstallation(ctx: Context, kind: Kind, name: string, installationId: string, target: string): boolean {
  const integration: IntegrationRow = getIntegration(ctx, name)
  let row: IntegrationSpaceInstallationRow | IntegrationSiteInstallationRow
  try {
    row = getContentInstallation(ctx, kind, name, installationId, target)
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') return false
    throw error
  }
  managedContentInstallation(ctx, kind, name, installationId, target)
  const previous = { configuration: row.configuration }
  if (kind === 'space') {
    ctx.tx.delete('integrationSpaceInstallations', row.id)
    recordPayload(ctx, integration, row.installation, { type: 'space_installation_deleted', spaceId: target, previous })
  } else {
    ctx.tx.delete('integrationSiteInstallations', row.id)
    recordPayload(ctx, integration, row.installation, { type: 'site_installation_deleted', siteId: target, previous })
  }
  return true
}
