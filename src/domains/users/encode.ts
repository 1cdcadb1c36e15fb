import type { ReadContext } from '../context.js'
import type { UserRow } from './rows.js'

export function encodeUser(ctx: ReadContext, row: UserRow) {
  return {
    object: 'user' as const,
    id: row.id,
    displayName: row.displayName,
    ...(row.email !== undefined && { email: row.email }),
    ...(row.photoURL !== undefined && { photoURL: row.photoURL }),
    urls: { location: ctx.urls.api(`/users/${row.id}`) },
  }
}
