import type { z } from 'zod'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { OrganizationRow } from '../organizations/rows.js'
import type { IntegrationRow } from './rows.js'
import { IntegrationNameSchema, type PublishIntegrationSchema } from './schemas.js'

export type PublishInput = z.output<typeof PublishIntegrationSchema>

/** An integration the caller sees (POLICY.integration.view was checked by the table). */
export function getIntegration(ctx: ReadContext, name: string): IntegrationRow {
  const row = ctx.tx.get('integrations', name)
  if (!row) throw new ApiError('NOT_FOUND', 'Integration not found')
  return row
}

/**
 * The organization a publish names, by id or by hostname (subdomain), among the caller's own
 * organizations: one the caller is not a member of is not revealed (404, as the official document
 * answers for an unknown hostname).
 */
function publishingOrganization(ctx: Context, idOrHostname: string): OrganizationRow {
  const byId = ctx.tx.get('organizations', idOrHostname)
  if (byId && ctx.access.can('organization', byId.id, 'view')) return byId
  for (const { row } of ctx.tx.scan('members', 'byUser', ctx.actor.user)) {
    const org = ctx.tx.get('organizations', row.organization)
    if (org?.hostname === idOrHostname && ctx.access.can('organization', org.id, 'view')) return org
  }
  throw new ApiError('NOT_FOUND', `Organization not found: body field \`organization\` names no organization of yours by id or hostname ("${idOrHostname}")`)
}

/**
 * Publish an integration, or publish it again. The body is the whole manifest: what it leaves out
 * takes its default (target `all`, visibility `private`, empty lists), as a publish from a
 * manifest file does. The owner is the organization in the body and never changes; its admins
 * publish. `version` is 1, then one more per publish.
 */
export function publishIntegration(ctx: Context, name: string, input: PublishInput): IntegrationRow {
  const valid = IntegrationNameSchema.safeParse(name)
  if (!valid.success) throw new ApiError('BAD_REQUEST', `Invalid request: path parameter \`integrationName\`: ${valid.error.issues[0]!.message}`)
  const org = publishingOrganization(ctx, input.organization)
  ctx.access.require('organization', org.id, 'admin')
  const existing = ctx.tx.get('integrations', name)
  if (existing && existing.organization !== org.id) {
    throw new ApiError('CONFLICT', `The integration name "${name}" is taken by another organization (names are unique; an integration keeps its owner)`)
  }
  const now = ctx.nowIso()
  const row: IntegrationRow = {
    id: name,
    uid: existing?.uid ?? ctx.newId(),
    organization: org.id,
    version: (existing?.version ?? 0) + 1,
    runtime: input.runtime ?? 'v1',
    title: input.title,
    description: input.description,
    ...(input.summary !== undefined && { summary: input.summary }),
    ...(input.icon !== undefined && { icon: input.icon }),
    previewImages: input.previewImages ?? [],
    visibility: input.visibility ?? 'private',
    target: input.target ?? 'all',
    scopes: input.scopes,
    categories: input.categories ?? [],
    blocks: input.blocks ?? [],
    contentSources: input.contentSources ?? [],
    externalLinks: input.externalLinks ?? [],
    configurations: input.configurations ?? {},
    script: input.script,
    secrets: input.secrets ?? {},
    ...(input.contentSecurityPolicy !== undefined && { contentSecurityPolicy: input.contentSecurityPolicy }),
    signingSecret: existing?.signingSecret ?? `gb_signing_${ctx.newId()}`,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  }
  return existing ? ctx.tx.update('integrations', row) : ctx.tx.insert('integrations', row)
}

/** Unpublish: the integration, its installations (on organizations, spaces, sites) and its events go. */
export function unpublishIntegration(ctx: Context, name: string): void {
  getIntegration(ctx, name)
  const ids = (collection: 'integrationSpaceInstallations' | 'integrationSiteInstallations' | 'integrationInstallations' | 'integrationEvents') =>
    (ctx.tx.scan(collection, 'byIntegration', name) as Array<{ row: { id: string } }>).map((e) => e.row.id)
  for (const collection of ['integrationSpaceInstallations', 'integrationSiteInstallations', 'integrationInstallations', 'integrationEvents'] as const) {
    for (const id of ids(collection)) ctx.tx.delete(collection, id)
  }
  ctx.tx.delete('integrations', name)
}

/** Whether a block unfurls URLs of `domain` (the domain itself or a subdomain, any scheme, wildcards allowed). */
function unfurlsDomain(patterns: readonly string[] | undefined, domain: string): boolean {
  const want = domain.toLowerCase()
  return (patterns ?? []).some((pattern) => {
    const host = pattern
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
      .split(/[/?#:]/)[0]!
      .replace(/^\*\./, '')
      .toLowerCase()
    return host === want || host.endsWith(`.${want}`)
  })
}

export interface IntegrationFilters {
  search?: string | undefined
  category?: string | undefined
  blockDomain?: string | undefined
  blocks?: boolean | undefined
  contentSources?: boolean | undefined
  owner?: string | undefined
  scope?: string | undefined
  target?: string | undefined
}

/** Whether an integration passes the list's filters. */
export function matchesFilters(row: IntegrationRow, f: IntegrationFilters): boolean {
  if (f.search !== undefined) {
    const q = f.search.toLowerCase()
    if (!row.id.toLowerCase().includes(q) && !row.title.toLowerCase().includes(q)) return false
  }
  if (f.category !== undefined && !(row.categories as string[]).includes(f.category)) return false
  if (f.blockDomain !== undefined && !row.blocks.some((b) => unfurlsDomain(b.urlUnfurl, f.blockDomain!))) return false
  if (f.blocks !== undefined && row.blocks.length > 0 !== f.blocks) return false
  if (f.contentSources !== undefined && row.contentSources.length > 0 !== f.contentSources) return false
  if (f.owner !== undefined && row.organization !== f.owner) return false
  if (f.scope !== undefined && !(row.scopes as string[]).includes(f.scope)) return false
  if (f.target !== undefined && row.target !== f.target && row.target !== 'all') return false
  return true
}

/**
 * The integrations a caller finds in the list: public ones, and the private and unlisted ones of
 * organizations where the caller has a role (an unlisted one is reached by name by anyone, but
 * not listed for them). By name.
 */
export function listedIntegrations(ctx: ReadContext, filters: IntegrationFilters): IntegrationRow[] {
  const rows = filters.owner !== undefined ? ctx.tx.scan('integrations', 'byOrganization', filters.owner).map((e) => e.row) : ctx.tx.all('integrations')
  return rows
    .filter((row) => matchesFilters(row, filters))
    .filter((row) => row.visibility === 'public' || ctx.access.can('organization', row.organization, 'listIntegrations'))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
