import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../../helpers.js'

describe('users', () => {
  it('GET /v1/user returns the user behind the token', async () => {
    const w = await createWorld()
    const res = await call(w.api, w.tokens.rita, 'GET', '/v1/user')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      object: 'user',
      id: w.users.rita.id,
      displayName: 'Rita Reader',
      email: 'rita@acme.test',
      urls: { location: `http://localhost:4000/v1/users/${w.users.rita.id}` },
    })
    expect((await call(w.api, undefined, 'GET', '/v1/user')).status).toBe(401)
  })

  it('GET /v1/users/{userId} shows oneself and the people one shares an organization with', async () => {
    const w = await createWorld()
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/users/${w.users.rita.id}`)).body.displayName).toBe('Rita Reader')
    expect((await call(w.api, w.tokens.gina, 'GET', `/v1/users/${w.users.ada.id}`)).status).toBe(200)
    expect((await call(w.api, w.tokens.olga, 'GET', `/v1/users/${w.users.olga.id}`)).status).toBe(200)
    const hidden = await call(w.api, w.tokens.olga, 'GET', `/v1/users/${w.users.ada.id}`)
    expect(hidden.status).toBe(404)
    expect(hidden.body.error.message).toBe('User not found')
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/users/nobody')).status).toBe(404)
    expect((await call(w.api, undefined, 'GET', `/v1/users/${w.users.ada.id}`)).status).toBe(401)
  })
})
