import { defineOperation } from '../../core/operation.js'
import { pathParams, UserSchema } from '../common/schemas.js'

export const userOperations = {
  getAuthenticatedUser: defineOperation({
    id: 'getAuthenticatedUser',
    method: 'GET',
    path: '/v1/user',
    tag: 'users',
    summary: 'Get the user behind the access token',
    response: UserSchema,
    status: 200,
    errors: [],
  }),
  getUserById: defineOperation({
    id: 'getUserById',
    method: 'GET',
    path: '/v1/users/{userId}',
    tag: 'users',
    summary: 'Get a user who shares an organization with the caller',
    params: pathParams('userId'),
    response: UserSchema,
    status: 200,
    errors: ['NOT_FOUND'],
  }),
}
