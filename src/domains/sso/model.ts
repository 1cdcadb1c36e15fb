import type { z } from 'zod'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { indexSource, paginateScan, type Page, type PageQuery } from '../../core/paging.js'
import type { Entry } from '../../storage/port.js'
import type { SamlProviderRow } from './rows.js'
import { produce } from '../common/produce.js'
import type { CreateSamlProviderSchema, UpdateSamlProviderSchema } from './schemas.js'

/** A provider is usable once the identity provider's three settings are in. */
export function isComplete(row: SamlProviderRow): boolean {
  return row.entityID !== undefined && row.ssoURL !== undefined && row.certificate !== undefined
}

/** A provider of the organization, or undefined (one of another organization is not found either). */
export function findSamlProvider(ctx: ReadContext, organization: string, id: string): SamlProviderRow | undefined {
  const row = ctx.tx.get('samlProviders', id)
  return row && row.organization === organization ? row : undefined
}

export function getSamlProvider(ctx: ReadContext, organization: string, id: string): SamlProviderRow {
  const row = findSamlProvider(ctx, organization, id)
  if (!row) throw new ApiError('NOT_FOUND', 'SAML provider not found')
  return row
}

/** The organization's providers in creation order. */
export function listSamlProviders(ctx: ReadContext, organization: string, query: PageQuery): Page<Entry<SamlProviderRow>> {
  return paginateScan(indexSource(ctx.tx, 'samlProviders', 'byOrganization', organization), query)
}

/** Every provider of the organization, in creation order. */
export function allSamlProviders(ctx: ReadContext, organization: string): SamlProviderRow[] {
  return ctx.tx.scan('samlProviders', 'byOrganization', organization).map((e) => e.row)
}

/** `defaultTeam` must name a team of the organization (a 400 naming the field). */
function checkTeam(ctx: Context, organization: string, team: string): void {
  const row = ctx.tx.get('teams', team)
  if (!row || row.organization !== organization) {
    throw new ApiError('BAD_REQUEST', `Invalid request: body field \`defaultTeam\`: no team "${team}" in this organization`)
  }
}

export function createSamlProvider(ctx: Context, organization: string, input: z.output<typeof CreateSamlProviderSchema>): SamlProviderRow {
  if (input.defaultTeam !== undefined) checkTeam(ctx, organization, input.defaultTeam)
  return ctx.tx.insert('samlProviders', {
    id: ctx.newId(),
    organization,
    label: input.label,
    ...(input.entityID !== undefined && { entityID: input.entityID }),
    ...(input.ssoURL !== undefined && { ssoURL: input.ssoURL }),
    ...(input.certificate !== undefined && { certificate: input.certificate }),
    ...(input.defaultTeam !== undefined && { defaultTeam: input.defaultTeam }),
    defaultRole: input.defaultRole ?? null,
    createdAt: ctx.nowIso(),
  })
}

/** Change the fields given (no write when nothing changes); `defaultTeam: null` removes the team. */
export function updateSamlProvider(ctx: Context, row: SamlProviderRow, patch: z.output<typeof UpdateSamlProviderSchema>): SamlProviderRow {
  if (typeof patch.defaultTeam === 'string') checkTeam(ctx, row.organization, patch.defaultTeam)
  const next = produce(row, (draft) => {
    if (patch.label !== undefined) draft.label = patch.label
    if (patch.entityID !== undefined) draft.entityID = patch.entityID
    if (patch.ssoURL !== undefined) draft.ssoURL = patch.ssoURL
    if (patch.certificate !== undefined) draft.certificate = patch.certificate
    if (patch.defaultRole !== undefined) draft.defaultRole = patch.defaultRole
    if (patch.defaultTeam === null) delete draft.defaultTeam
    else if (patch.defaultTeam !== undefined) draft.defaultTeam = patch.defaultTeam
  })
  return next === row ? row : ctx.tx.update('samlProviders', next)
}
