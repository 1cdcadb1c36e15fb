import { permissionsFor } from '../../core/policy.js'
import type { ReadContext } from '../context.js'
import { encodeOrganization } from '../organizations/encode.js'
import { encodeSite } from '../sites/encode.js'
import { encodeSpace } from '../spaces/encode.js'
import { spaceInstallationCount } from './installation-model.js'
import type {
  IntegrationEventRow,
  IntegrationInstallationRow,
  IntegrationRow,
  IntegrationSiteInstallationRow,
  IntegrationSpaceInstallationRow,
} from './rows.js'
import { INTEGRATION_PERMISSION_KEYS } from './schemas.js'

/** Where an integration's own endpoints would be served: named in `urls`, not served by this API. */
const endpoint = (ctx: ReadContext, path: string) => `${ctx.urls.base}/integrations${path}`

/** A `data:` URL for base64 bytes, its media type sniffed from the first bytes (PNG, JPEG, GIF, WebP, SVG). */
export function dataUrl(base64: string): string {
  const type = base64.startsWith('iVBOR')
    ? 'image/png'
    : base64.startsWith('/9j/')
      ? 'image/jpeg'
      : base64.startsWith('R0lG')
        ? 'image/gif'
        : base64.startsWith('UklG')
          ? 'image/webp'
          : base64.startsWith('PHN2') || base64.startsWith('PD94')
            ? 'image/svg+xml'
            : 'application/octet-stream'
  return `data:${type};base64,${base64}`
}

export function encodeIntegration(ctx: ReadContext, row: IntegrationRow) {
  const owner = ctx.tx.get('organizations', row.organization)!
  const name = encodeURIComponent(row.id)
  const publicEndpoint = endpoint(ctx, `/${name}/integration`)
  return {
    object: 'integration' as const,
    name: row.id,
    version: row.version,
    title: row.title,
    description: row.description,
    ...(row.summary !== undefined && { summary: row.summary }),
    previewImages: row.previewImages.map(dataUrl),
    target: row.target,
    // Only the platform's team verifies integrations: none published here is.
    verified: false,
    visibility: row.visibility,
    scopes: row.scopes,
    categories: row.categories,
    blocks: row.blocks,
    contentSources: row.contentSources,
    configurations: row.configurations,
    externalLinks: row.externalLinks,
    owner: encodeOrganization(ctx, owner),
    urls: {
      location: ctx.urls.api(`/integrations/${name}`),
      ...(row.icon !== undefined && { icon: dataUrl(row.icon) }),
      app: ctx.urls.app(`/integrations/${name}`),
      assets: endpoint(ctx, `/${name}/assets`),
      publicEndpoint,
      publicContentEndpoint: publicEndpoint,
    },
    permissions: permissionsFor('integration', ctx.access.level('integration', row.id), INTEGRATION_PERMISSION_KEYS),
    ...(row.contentSecurityPolicy !== undefined && { contentSecurityPolicy: row.contentSecurityPolicy }),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

const installationPath = (row: { integration: string; installation?: string; id: string }) =>
  `/integrations/${encodeURIComponent(row.integration)}/installations/${row.installation ?? row.id}`

export function encodeInstallation(ctx: ReadContext, row: IntegrationInstallationRow) {
  const path = installationPath(row)
  return {
    id: row.id,
    status: row.status,
    // Spaces and sites are enabled one by one (installIntegrationOnSpace / OnSite).
    space_selection: 'selected' as const,
    site_selection: 'selected' as const,
    spaces: spaceInstallationCount(ctx, row.id),
    configuration: row.configuration,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    urls: {
      location: ctx.urls.api(path),
      app: ctx.urls.app(`/o/${row.organization}/integrations/${encodeURIComponent(row.integration)}`),
      publicEndpoint: `${ctx.urls.base}${path}`,
      publicContentEndpoint: `${ctx.urls.base}${path}`,
    },
    externalIds: row.externalIds,
    target: { organization: row.organization },
  }
}

function contentInstallationFields(ctx: ReadContext, row: IntegrationSpaceInstallationRow | IntegrationSiteInstallationRow, path: string) {
  const location = ctx.urls.api(`${installationPath(row)}${path}`)
  return {
    integration: row.integration,
    installation: row.installation,
    status: row.status,
    configuration: row.configuration,
    externalIds: row.externalIds,
    urls: {
      location,
      publicEndpoint: `${ctx.urls.base}${installationPath(row)}${path}`,
      publicContentEndpoint: `${ctx.urls.base}${installationPath(row)}${path}`,
    },
  }
}

/** A space installation; `extended` puts the space object in `space` (a deleted space stays an id). */
export function encodeSpaceInstallation(ctx: ReadContext, row: IntegrationSpaceInstallationRow, extended: boolean) {
  const space = extended ? ctx.tx.get('spaces', row.space) : undefined
  return { ...contentInstallationFields(ctx, row, `/spaces/${row.space}`), space: space ? encodeSpace(ctx, space) : row.space }
}

export function encodeSiteInstallation(ctx: ReadContext, row: IntegrationSiteInstallationRow, extended: boolean) {
  const site = extended ? ctx.tx.get('sites', row.site) : undefined
  return { ...contentInstallationFields(ctx, row, `/sites/${row.site}`), site: site ? encodeSite(ctx, site) : row.site }
}

/** An event: `status` is `success` once delivered (or recorded without a handler), `failed` otherwise. */
export function encodeEvent(row: IntegrationEventRow) {
  const { delivery } = row
  return {
    id: row.id,
    integrationId: row.integrationUid,
    ...(row.installation !== undefined && { installationId: row.installation }),
    createdAt: row.createdAt,
    payload: row.payload,
    status: delivery.state === 'done' || delivery.state === 'skipped' ? ('success' as const) : ('failed' as const),
    delivery: {
      state: delivery.state,
      attempts: delivery.attempts,
      ...(delivery.nextAttemptAt !== undefined && { nextAttemptAt: delivery.nextAttemptAt }),
      ...(delivery.reason !== undefined && { reason: delivery.reason }),
    },
  }
}
