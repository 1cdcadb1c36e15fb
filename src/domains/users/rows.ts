import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'

/**
 * The rows the users area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

export const UserRowSchema = z.strictObject({
  id: SeedIdSchema,
  displayName: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  email: z.email({ error: 'must be an email address' }).optional(),
  /** Whether the email address has been verified (joining by email domain needs it). */
  emailVerified: z.boolean(),
  photoURL: z.url({ error: 'must be a URL' }).optional(),
})
export type UserRow = z.output<typeof UserRowSchema>

export const TokenRowSchema = z.strictObject({
  /** The token string itself, as sent in `Authorization: Bearer <token>`. */
  id: z.string().regex(/^[\x21-\x7e]{8,512}$/, 'must be a token of 8..512 printable ASCII characters without spaces'),
  user: SeedIdSchema,
  createdAt: SeedTimestampSchema,
})
export type TokenRow = z.output<typeof TokenRowSchema>

/** A token for the in-app notifications service (createUserNotificationsToken): bound to its user, valid until `expiresAt`. */
export const NotificationTokenRowSchema = z.strictObject({
  /** The token string itself. */
  id: z.string().regex(/^[\x21-\x7e]{8,512}$/, 'must be a token of 8..512 printable ASCII characters without spaces'),
  user: SeedIdSchema,
  createdAt: SeedTimestampSchema,
  expiresAt: SeedTimestampSchema,
})
export type NotificationTokenRow = z.output<typeof NotificationTokenRowSchema>

/** The collections the users area stores, with their indexes. */
export const usersCollections = {
  /** `byEmail`: the lower-cased address (inviting by email finds the user by it). */
  users: collection<UserRow>({ byEmail: { key: (u) => u.email?.toLowerCase() } }),
  tokens: collection<TokenRow>({ byUser: { key: (t) => t.user } }),
  notificationTokens: collection<NotificationTokenRow>({ byUser: { key: (t) => t.user } }),
}
