import { collection } from '../../storage/port.js'

/**
 * The rows the users area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

export interface UserRow {
  id: string
  displayName: string
  email?: string
  /** Whether the email address has been verified (joining by email domain needs it). */
  emailVerified: boolean
  photoURL?: string
}

export interface TokenRow {
  /** The token string itself. */
  id: string
  user: string
  createdAt: string
}

/** The collections the users area stores, with their indexes. */
export const usersCollections = {
  users: collection<UserRow>(),
  tokens: collection<TokenRow>({ byUser: { key: (t) => t.user } }),
}
