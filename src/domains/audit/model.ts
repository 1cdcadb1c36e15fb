import { z } from 'zod'
import { ApiError } from '../../core/errors.js'
import { decodeCursor, encodeCursor, type SortKey } from '../../core/paging.js'
import { textHash } from '../../core/text-hash.js'
import type { Entry, IndexPosition } from '../../storage/port.js'
import type { Context, ReadContext } from '../context.js'
import type { AuditEventRow } from './rows.js'

/** The events an organization keeps at most, by default (the `auditEventsPerOrganization` option): the oldest recorded is dropped first. */
export const AUDIT_EVENTS_PER_ORGANIZATION = 10_000

declare module '../../core/services.js' {
  interface Services {
    /** The audit trail's bounds (domains/audit/model.ts). */
    audit: { perOrganization: number }
  }
}

export function auditServices(perOrganization = AUDIT_EVENTS_PER_ORGANIZATION): { audit: { perOrganization: number } } {
  if (!Number.isSafeInteger(perOrganization) || perOrganization < 1) {
    throw new TypeError(`auditEventsPerOrganization must be a whole number, 1 or more (got ${perOrganization})`)
  }
  return { audit: { perOrganization } }
}

/**
 * The catalogue of actions the API records, with their labels: what
 * `listOrganizationAuditEventActions` answers, and the only names `recordAudit` takes.
 */
export const AUDIT_ACTIONS = {
  'organization.created': 'Organization created',
  'organization.updated': 'Organization settings updated',
  'member.added': 'Member joined the organization',
  'member.role_updated': 'Member role updated',
  'member.removed': 'Member removed from the organization',
  'member.sso_updated': 'Member set as an SSO member',
  'invite.created': 'Users invited by email',
  'invite.joined': 'User joined with an invite link',
  'invite_link.created': 'Invite link created',
  'invite_link.updated': 'Invite link updated',
  'invite_link.deleted': 'Invite link deleted',
  'team.created': 'Team created',
  'team.updated': 'Team renamed',
  'team.deleted': 'Team deleted',
  'team.member_added': 'Member added to a team',
  'team.member_updated': 'Team member role updated',
  'team.member_removed': 'Member removed from a team',
  'space.permission_updated': 'Space permission granted or changed',
  'space.permission_removed': 'Space permission removed',
  'collection.permission_updated': 'Collection permission granted or changed',
  'collection.permission_removed': 'Collection permission removed',
  'site.permission_updated': 'Site permission granted or changed',
  'site.permission_removed': 'Site permission removed',
  'space.deleted': 'Space deleted',
  'space.restored': 'Space restored',
  'share_link.created': 'Site share link created',
  'share_link.updated': 'Site share link updated',
  'share_link.deleted': 'Site share link deleted',
  'sso.provider_created': 'SAML provider created',
  'sso.provider_updated': 'SAML provider updated',
  'sso.provider_deleted': 'SAML provider deleted',
} as const satisfies Record<string, string>

export type AuditAction = keyof typeof AUDIT_ACTIONS

/** What a change names: the resource it changed, its kind and a display label captured now. */
export interface AuditTarget {
  type: string
  id: string
  label?: string | undefined
}

export interface AuditRecord {
  organization: string
  action: AuditAction
  target: AuditTarget
  /** Allowlisted small details of the change (ids, roles before and after): never secrets. */
  payload?: Record<string, unknown>
}

/** The first event each request recorded: later events of the same request share its id as `correlationId`. */
const firstOfRequest = new WeakMap<object, string>()

/**
 * A UUID (version 8: custom, RFC 9562) made from the API's ids (`ctx.newId`, which a test makes
 * deterministic with the `ids` option): 122 bits of two hashes of a fresh id. Drawn again in the
 * (unlikely) case it is taken.
 */
function newAuditId(ctx: Context): string {
  for (;;) {
    const seed = ctx.newId()
    const hex = textHash(`audit:${seed}`) + textHash(`event:${seed}`)
    const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
    const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
    if (!ctx.tx.get('auditEvents', id)) return id
  }
}

/**
 * Record a change of an organization in the caller's transaction: it commits with the change, or
 * is undone with it. The actor is the caller (a user), the time the API's clock; an organization
 * keeping more than its bound drops its oldest recorded event in the same transaction.
 */
export function recordAudit(ctx: Context, record: AuditRecord): AuditEventRow {
  if (!(record.action in AUDIT_ACTIONS)) throw new Error(`Unknown audit action "${record.action}"`)
  const occurredAt = ctx.nowIso()
  const organization = record.organization
  // The tie: events already recorded in this millisecond (the newest of them comes first in the index).
  const ms = Date.parse(occurredAt)
  const [latest] = ctx.tx.scan('auditEvents', 'byOrganization', organization, {
    after: { order: -(ms * 4096 + 4095) - 1, seq: Number.MAX_SAFE_INTEGER },
    limit: 1,
  })
  const tie = latest && latest.row.occurredAt === occurredAt ? Math.min(latest.row.tie + 1, 4095) : 0
  const user = ctx.actor.user ? ctx.tx.get('users', ctx.actor.user) : undefined
  const actor: AuditEventRow['actor'] = ctx.actor.user
    ? { type: 'user', id: ctx.actor.user, ...(user ? { label: user.displayName } : {}) }
    : { type: 'system', id: 'system' }
  const id = newAuditId(ctx)
  const first = firstOfRequest.get(ctx)
  if (!first) firstOfRequest.set(ctx, id)
  const row: AuditEventRow = {
    id,
    organization,
    occurredAt,
    tie,
    action: record.action,
    actor,
    source: 'api',
    target: { type: record.target.type, id: record.target.id, ...(record.target.label !== undefined ? { label: record.target.label } : {}) },
    schemaVersion: 1,
    payload: record.payload ?? {},
    correlationId: first ?? id,
  }
  ctx.tx.insert('auditEvents', row)
  // Bounded: past the bound, the oldest recorded event goes (the first in insertion order).
  const bound = ctx.services.audit.perOrganization
  while (ctx.tx.count('auditEvents', 'byOrganizationInserted', organization) > bound) {
    const [oldest] = ctx.tx.scan('auditEvents', 'byOrganizationInserted', organization, { limit: 1 })
    if (!oldest) break
    ctx.tx.delete('auditEvents', oldest.row.id)
  }
  return row
}

/** The names of the fields of `patch` given and changed between `before` and `after` (values stay out of the trail). */
export function changedFields(patch: object, before: object, after: object): string[] {
  const b = before as Record<string, unknown>
  const a = after as Record<string, unknown>
  return Object.entries(patch)
    .filter(([k, v]) => v !== undefined && JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map(([k]) => k)
}

/** A user as an audit target: its id and display name. */
export function userTarget(ctx: ReadContext, user: string): AuditTarget {
  const row = ctx.tx.get('users', user)
  return { type: 'user', id: user, ...(row ? { label: row.displayName } : {}) }
}

/** A team as an audit target. */
export function teamTarget(ctx: ReadContext, team: string): AuditTarget {
  const row = ctx.tx.get('teams', team)
  return { type: 'team', id: team, ...(row ? { label: row.title } : {}) }
}

/** An event of an organization, or a 404. */
export function getAuditEvent(ctx: ReadContext, organization: string, id: string): AuditEventRow {
  const row = ctx.tx.get('auditEvents', id)
  if (!row || row.organization !== organization) throw new ApiError('NOT_FOUND', `Audit event "${id}" not found`)
  return row
}

export interface AuditQuery {
  page?: string | undefined
  limit: number
  from?: string | undefined
  to?: string | undefined
  action?: string | undefined
  actor?: string | undefined
  target?: string | undefined
}

export interface AuditPage {
  items: AuditEventRow[]
  count?: number
  next?: { page: string }
}

type AuditIndex = 'byOrganization' | 'byOrganizationAction' | 'byOrganizationActor' | 'byOrganizationTarget'

/** The index order value of a time, as events of that millisecond have it: the first (newest) tie. */
const orderAt = (ms: number, tie: number) => -(ms * 4096 + tie)

/**
 * One page of an organization's events, newest first, filtered. The filter with the fewest events
 * picks the index read (organization, action, actor or target); `to` seeks into it, `from` ends
 * the read, and a cursor (the index position of the last event served) seeks past what was
 * served: a page reads its own events and those the other filters skip, never the whole trail.
 * `count` is given when it is exact at no cost: with at most one of `action`, `actor`, `target`
 * and no time bound.
 */
export function listAuditEvents(ctx: ReadContext, organization: string, query: AuditQuery): AuditPage {
  const candidates: Array<[AuditIndex, string]> = [['byOrganization', organization]]
  if (query.action !== undefined) candidates.push(['byOrganizationAction', `${organization}/${query.action}`])
  if (query.actor !== undefined) candidates.push(['byOrganizationActor', `${organization}/${query.actor}`])
  if (query.target !== undefined) candidates.push(['byOrganizationTarget', `${organization}/${query.target}`])
  const counted = candidates.map(([index, key]) => ({ index, key, count: ctx.tx.count('auditEvents', index, key) }))
  const source = counted.reduce((a, b) => (b.count < a.count ? b : a))
  const matches = (row: AuditEventRow) =>
    (query.action === undefined || row.action === query.action) &&
    (query.actor === undefined || row.actor.id === query.actor) &&
    (query.target === undefined || row.target.id === query.target)

  let after: IndexPosition | undefined
  if (query.to !== undefined) after = { order: orderAt(Date.parse(query.to), 4095) - 1, seq: Number.MAX_SAFE_INTEGER }
  if (query.page) {
    const cursor = decodeAuditCursor(query.page)
    if (!after || cursor.order > after.order || (cursor.order === after.order && cursor.seq > after.seq)) after = cursor
  }
  // Events at or after `from`: an order at most that of `from`'s millisecond with the lowest tie.
  const last = query.from !== undefined ? orderAt(Date.parse(query.from), 0) : Infinity

  const items: AuditEventRow[] = []
  let position: IndexPosition | undefined
  let more = false
  const chunk = query.limit + 1
  read: for (;;) {
    const entries: Entry<AuditEventRow>[] = ctx.tx.scan('auditEvents', source.index, source.key, { after, limit: chunk })
    for (const entry of entries) {
      if (entry.order > last) break read
      if (!matches(entry.row)) continue
      if (items.length === query.limit) {
        more = true
        break read
      }
      items.push(entry.row)
      position = { order: entry.order, seq: entry.seq }
    }
    if (entries.length < chunk) break
    const end = entries[entries.length - 1]!
    after = { order: end.order, seq: end.seq }
  }
  const page: AuditPage = { items }
  const exact = query.from === undefined && query.to === undefined && counted.length <= 2
  if (exact) page.count = source.count
  if (more && position) page.next = { page: encodeCursor([position.order, position.seq] satisfies SortKey) }
  return page
}

function decodeAuditCursor(page: string): IndexPosition {
  const key = decodeCursor(page)
  if (key.length !== 2 || typeof key[0] !== 'number' || typeof key[1] !== 'number' || !Number.isFinite(key[0]) || !Number.isSafeInteger(key[1])) {
    throw new ApiError('BAD_REQUEST', 'Invalid query parameter `page`: not a cursor of this list')
  }
  return { order: key[0], seq: key[1] }
}

/** The official `limit` of the audit list: a whole number from 1 to 100, 20 when absent. */
export const AuditLimitSchema = z.preprocess(
  (value) => (typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : value),
  z
    .number({ error: 'must be a whole number written in decimal digits' })
    .int('must be a whole number written in decimal digits')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(20),
)

/** A user or a team a grant names (as the permission areas spell it). */
export type AuditPrincipal = { user: string } | { team: string }

/** What a grant is on: a space, a collection or a site of an organization. */
export interface GrantResource {
  kind: 'space' | 'collection' | 'site'
  id: string
  organization: string
  title: string
}

/**
 * Run `change` (grants of `principals` on `resource`) and record what it changed: a grant given or
 * changed (`<kind>.permission_updated`, roles before and after), a grant removed
 * (`<kind>.permission_removed`), and a user who joined the organization as a guest by it
 * (`member.added`). `role` reads a principal's direct grant (undefined: none; null: a guest's).
 */
export function auditGrants<T>(
  ctx: Context,
  resource: GrantResource,
  principals: readonly AuditPrincipal[],
  role: (principal: AuditPrincipal) => string | null | undefined,
  change: () => T,
): T {
  const unique = [...new Map(principals.map((p) => ['user' in p ? `user:${p.user}` : `team:${p.team}`, p])).values()]
  const members = (p: AuditPrincipal) => ('user' in p ? ctx.tx.get('members', `${resource.organization}/${p.user}`) !== undefined : true)
  const before = unique.map((p) => ({ p, role: role(p), member: members(p) }))
  const result = change()
  const target: AuditTarget = { type: resource.kind, id: resource.id, label: resource.title }
  for (const b of before) {
    const after = role(b.p)
    const principal = 'user' in b.p ? { type: 'user', id: b.p.user } : { type: 'team', id: b.p.team }
    if (!b.member && members(b.p)) {
      recordAudit(ctx, {
        organization: resource.organization,
        action: 'member.added',
        target: userTarget(ctx, principal.id),
        payload: { role: null, via: `${resource.kind}-invite` },
      })
    }
    if (after === b.role) continue
    const payload = { principal, ...(b.role !== undefined && { roleBefore: b.role }), ...(after !== undefined && { roleAfter: after }) }
    const action = after === undefined ? (`${resource.kind}.permission_removed` as const) : (`${resource.kind}.permission_updated` as const)
    recordAudit(ctx, { organization: resource.organization, action, target, payload })
  }
  return result
}
