import { produce } from '../common/produce.js'
import type { z } from 'zod'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { compareKeys } from '../../core/paging.js'
import type { Role } from '../../core/roles.js'
import type { OrganizationRow } from './rows.js'
import { addMember } from '../members/model.js'
import type { CreateOrganizationSchema, UpdateOrganizationSchema } from './schemas.js'

export function getOrganization(ctx: ReadContext, id: string): OrganizationRow {
  const org = ctx.tx.get('organizations', id)
  if (!org) throw new ApiError('NOT_FOUND', 'Organization not found')
  return org
}

/** Organization hostnames are unique: a published URL names its organization by it (published/resolve.ts). */
function requireFreeHostname(ctx: Context, hostname: string, self: string | undefined): void {
  const other = ctx.tx.scan('organizations', 'byHostname', hostname, { limit: 1 })[0]?.row
  if (other && other.id !== self) throw new ApiError('CONFLICT', `The hostname \`${hostname}\` is already used by another organization`)
}

export function createOrganization(
  ctx: Context,
  input: z.output<typeof CreateOrganizationSchema>,
  members: ReadonlyArray<{ user: string; role: Role | null }>,
): OrganizationRow {
  if (input.hostname !== undefined) requireFreeHostname(ctx, input.hostname, undefined)
  const org = ctx.tx.insert('organizations', {
    id: ctx.newId(),
    title: input.title,
    createdAt: ctx.nowIso(),
    emailDomains: [...new Set(input.emailDomains.map((d) => d.toLowerCase()))],
    ...(input.hostname !== undefined && { hostname: input.hostname }),
    type: input.type,
    ...(input.useCase !== undefined && { useCase: input.useCase }),
    defaultRole: input.defaultRole,
    sso: input.sso,
    ai: input.ai,
    inviteLinks: input.inviteLinks,
    plan: input.plan,
    mergeRules: { type: 'none' },
  })
  for (const m of members) addMember(ctx, org.id, m.user, m.role)
  return org
}

export function updateOrganization(ctx: Context, id: string, patch: z.output<typeof UpdateOrganizationSchema>): OrganizationRow {
  const org = getOrganization(ctx, id)
  if (patch.hostname !== undefined) requireFreeHostname(ctx, patch.hostname, org.id)
  if (patch.defaultContent) {
    const site = ctx.tx.get('sites', patch.defaultContent.site)
    if (!site || site.organization !== org.id) {
      throw new ApiError('BAD_REQUEST', `Invalid request: body field \`defaultContent.site\`: no site ${patch.defaultContent.site} in this organization`)
    }
  }
  const next = produce(org, (draft) => {
    if (patch.title !== undefined) draft.title = patch.title
    if (patch.emailDomains !== undefined) draft.emailDomains = [...new Set(patch.emailDomains.map((d) => d.toLowerCase()))]
    if (patch.hostname !== undefined) draft.hostname = patch.hostname
    if (patch.defaultRole !== undefined) draft.defaultRole = patch.defaultRole
    if (patch.defaultContent === null) delete draft.defaultContent
    else if (patch.defaultContent !== undefined) draft.defaultContent = patch.defaultContent
    if (patch.logo === null) delete draft.logo
    else if (patch.logo !== undefined) draft.logo = patch.logo
    if (patch.sso !== undefined) draft.sso = patch.sso
    if (patch.ai !== undefined) draft.ai = patch.ai
    if (patch.inviteLinks !== undefined) draft.inviteLinks = patch.inviteLinks
    if (patch.mergeRules !== undefined) draft.mergeRules = patch.mergeRules
  })
  return next === org ? org : ctx.tx.update('organizations', next)
}

/** Join by verified email domain; the new member gets the organization's default role. */
export function joinOrganization(ctx: Context, id: string): void {
  const org = getOrganization(ctx, id)
  if (ctx.tx.get('members', `${id}/${ctx.actor.user}`)) return
  const user = ctx.tx.get('users', ctx.actor.user)
  if (!user?.email || !user.emailVerified) {
    throw new ApiError('BAD_REQUEST', 'Cannot join: your email address is not verified')
  }
  const domain = user.email.slice(user.email.lastIndexOf('@') + 1).toLowerCase()
  if (!org.emailDomains.includes(domain)) {
    throw new ApiError('BAD_REQUEST', `Cannot join: the email domain ${domain} is not one of the organization's allowed domains`)
  }
  addMember(ctx, id, user.id, org.defaultRole)
}

/** Whether `user` owns a team of the organization (the organization's `ownTeam` permission). */
export function ownsAnyTeam(ctx: ReadContext, organization: string, user: string): boolean {
  for (const { row } of ctx.tx.scan('teamMembers', 'byUser', user)) {
    if (row.organization === organization && row.role === 'owner') return true
  }
  return false
}

/** The domain of a user's verified email address (lower-cased), if any. */
export function verifiedEmailDomain(ctx: ReadContext, user: string): string | undefined {
  const row = ctx.tx.get('users', user)
  if (!row?.email || !row.emailVerified) return undefined
  return row.email.slice(row.email.lastIndexOf('@') + 1).toLowerCase()
}

/**
 * The organizations a verified email domain lets join (their `emailDomains` include it), by title
 * then id. Only for the caller's own verified domain: another one is a 403 (who else uses a domain is not public).
 */
export function organizationsForEmailDomain(ctx: ReadContext, domain: string): OrganizationRow[] {
  const own = verifiedEmailDomain(ctx, ctx.actor.user)
  const wanted = domain.toLowerCase()
  if (own !== wanted) {
    throw new ApiError('FORBIDDEN', own ? `You may only look up the domain of your verified email address (${own})` : 'Your email address is not verified')
  }
  const found = ctx.tx.scan('organizations', 'byEmailDomain', wanted).map((e) => e.row)
  return found.sort((a, b) => compareKeys([a.title.toLowerCase(), a.id], [b.title.toLowerCase(), b.id]))
}
