import { ApiError } from '../../core/errors.js'
import { implement } from '../context.js'
import { encodeUser, seesEmailOf } from './encode.js'
import { createNotificationsToken, getVisibleUser, updateUser } from './model.js'
import { userOperations } from './operations.js'

export const userHandlers = implement(userOperations, {
  getAuthenticatedUser: (ctx) => {
    const user = ctx.tx.get('users', ctx.actor.user)
    if (!user) throw new ApiError('NOT_FOUND', 'User not found')
    return encodeUser(ctx, user)
  },
  getUserById: (ctx, { params }) => {
    const user = getVisibleUser(ctx, params.userId)
    return encodeUser(ctx, user, seesEmailOf(ctx, user.id))
  },
  updateUserById: (ctx, { params, body }) => encodeUser(ctx, updateUser(ctx, params.userId, body)),
  createUserNotificationsToken: (ctx) => ({ token: createNotificationsToken(ctx).id }),
  getApiInformation: (ctx) => ({ ...ctx.services.apiInformation }),
})
