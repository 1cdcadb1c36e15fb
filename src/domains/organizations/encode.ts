import { permissionsFor } from '../../core/policy.js'
import type { ReadContext } from '../context.js'
import type { Level } from '../../core/roles.js'
import type { OrganizationRow } from './rows.js'
import { ownsAnyTeam } from './model.js'
import { ORGANIZATION_PERMISSION_KEYS } from './schemas.js'

export function encodeOrganization(ctx: ReadContext, row: OrganizationRow, level?: Level | null) {
  const l = level === undefined ? ctx.access.level('organization', row.id) : level
  return {
    object: 'organization' as const,
    id: row.id,
    title: row.title,
    createdAt: row.createdAt,
    emailDomains: row.emailDomains,
    ...(row.hostname !== undefined && { hostname: row.hostname }),
    type: row.type,
    ...(row.useCase !== undefined && { useCase: row.useCase }),
    ...(row.communityType !== undefined && { communityType: row.communityType }),
    defaultRole: row.defaultRole,
    ...(row.defaultContent !== undefined && { defaultContent: row.defaultContent }),
    sso: row.sso,
    ai: row.ai,
    inviteLinks: row.inviteLinks,
    plan: row.plan,
    mergeRules: row.mergeRules,
    urls: {
      location: ctx.urls.api(`/orgs/${row.id}`),
      app: ctx.urls.app(`/o/${row.id}`),
      ...(row.logo !== undefined && { logo: row.logo }),
    },
    trial: { status: 'notapplicable', count: 0 },
    permissions: { ...permissionsFor('organization', l, ORGANIZATION_PERMISSION_KEYS), ownTeam: ownsAnyTeam(ctx, row.id, ctx.actor.user) },
  }
}
