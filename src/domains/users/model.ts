import type { z } from 'zod'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { OFFICIAL_VERSION } from '../../http/official-routes.js'
import type { NotificationTokenRow, UserRow } from './rows.js'
import type { UpdateUserSchema } from './schemas.js'

/** What getApiInformation answers: fixed when the API instance is made. */
export interface ApiInformation {
  /** The version of the official API this implementation follows (`@gitbook/api`). */
  version: string
  /** When this API instance was made (its `now` option), ISO 8601: an in-process API's release is its start. */
  build: string
}

declare module '../../core/services.js' {
  interface Services {
    apiInformation: ApiInformation
  }
}

export function apiInformation(startedAt: Date): ApiInformation {
  return { version: OFFICIAL_VERSION, build: startedAt.toISOString() }
}

/** Whether two users share an organization (users are visible to the people they work with). */
export function sharesOrganization(ctx: ReadContext, a: string, b: string): boolean {
  for (const { row } of ctx.tx.scan('members', 'byUser', a)) {
    if (ctx.tx.get('members', `${row.organization}/${b}`)) return true
  }
  return false
}

/** A user the caller may see (themselves, or one sharing an organization), or a 404. */
export function getVisibleUser(ctx: ReadContext, id: string): UserRow {
  const user = ctx.tx.get('users', id)
  if (!user || (user.id !== ctx.actor.user && !sharesOrganization(ctx, ctx.actor.user, user.id))) {
    throw new ApiError('NOT_FOUND', 'User not found')
  }
  return user
}

/** A user changes their own profile; another user they can see is a 403, one they cannot a 404. */
export function updateUser(ctx: Context, id: string, patch: z.output<typeof UpdateUserSchema>): UserRow {
  const user = getVisibleUser(ctx, id)
  if (user.id !== ctx.actor.user) throw new ApiError('FORBIDDEN', 'You may only update your own user')
  const next: UserRow = {
    ...user,
    ...(patch.displayName !== undefined && { displayName: patch.displayName }),
    ...(patch.photoURL !== undefined && { photoURL: patch.photoURL }),
  }
  if (next.displayName === user.displayName && next.photoURL === user.photoURL) return user
  return ctx.tx.update('users', next)
}

/** How long a notifications token is valid. */
export const NOTIFICATION_TOKEN_TTL_MS = 60 * 60 * 1000
const TOKEN_BYTES = 32

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TOKEN_BYTES))
  let text = ''
  for (const b of bytes) text += String.fromCharCode(b)
  return `ntf_${btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`
}

/**
 * A new token for the caller's in-app notifications: random, stored bound to the caller, valid for
 * an hour. The caller's expired tokens are dropped as it is made, so they do not pile up.
 */
export function createNotificationsToken(ctx: Context): NotificationTokenRow {
  const user = ctx.tx.get('users', ctx.actor.user)
  if (!user) throw new ApiError('NOT_FOUND', 'User not found')
  const now = ctx.now()
  for (const { row } of ctx.tx.scan('notificationTokens', 'byUser', user.id)) {
    if (Date.parse(row.expiresAt) <= now.getTime()) ctx.tx.delete('notificationTokens', row.id)
  }
  return ctx.tx.insert('notificationTokens', {
    id: randomToken(),
    user: user.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + NOTIFICATION_TOKEN_TTL_MS).toISOString(),
  })
}
