import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { implement } from '../context.js'
import { encodeUser } from './encode.js'
import { userOperations } from './operations.js'

/** Whether two users share an organization (users are visible to the people they work with). */
function sharesOrganization(ctx: ReadContext, a: string, b: string): boolean {
  for (const { row } of ctx.tx.scan('members', 'byUser', a)) {
    if (ctx.tx.get('members', `${row.organization}/${b}`)) return true
  }
  return false
}

export const userHandlers = implement(userOperations, {
  getAuthenticatedUser: (ctx) => {
    const user = ctx.tx.get('users', ctx.actor.user)
    if (!user) throw new ApiError('NOT_FOUND', 'User not found')
    return encodeUser(ctx, user)
  },
  getUserById: (ctx, { params }) => {
    const user = ctx.tx.get('users', params.userId)
    if (!user || (user.id !== ctx.actor.user && !sharesOrganization(ctx, ctx.actor.user, user.id))) {
      throw new ApiError('NOT_FOUND', 'User not found')
    }
    return encodeUser(ctx, user)
  },
})
