import { describe, expect, it } from 'vitest'
import { call, createWorld, expectError } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

describe('conformance: users and API information through @gitbook/api', () => {
  it('updateUserById: a user updates themself', async () => {
    const w = await createWorld()
    const res = await w.client(w.tokens.rita).users.updateUserById(w.users.rita.id, { displayName: 'Rita R.', photoURL: 'https://example.com/rita.png' })
    expect(res.status).toBe(200)
    expect(res.data).toMatchObject({ id: w.users.rita.id, displayName: 'Rita R.', photoURL: 'https://example.com/rita.png' })
    expectOfficialResponse('updateUserById', 200, res.data)
    const seen = await w.client(w.tokens.ada).users.getUserById(w.users.rita.id)
    expect(seen.data.displayName).toBe('Rita R.')
  })

  it('updateUserById: bad input names the field; another user is a 403 (404 when not visible)', async () => {
    const w = await createWorld()
    const self = `/v1/users/${w.users.rita.id}`
    expectError(await call(w.api, w.tokens.rita, 'PATCH', self, { displayName: '' }), 400, '`displayName`')
    expectError(await call(w.api, w.tokens.rita, 'PATCH', self, { displayName: 'x'.repeat(65) }), 400, '`displayName`')
    expectError(await call(w.api, w.tokens.rita, 'PATCH', self, { photoURL: 'not a url' }), 400, '`photoURL`')
    expectError(await call(w.api, w.tokens.rita, 'PATCH', self, {}), 400, 'must set at least one of displayName, photoURL')
    expectError(await call(w.api, w.tokens.ada, 'PATCH', self, { displayName: 'Hacked' }), 403, 'only update your own user')
    expectError(await call(w.api, w.tokens.olga, 'PATCH', self, { displayName: 'Hacked' }), 404, 'User not found')
    expect(w.api.store.read((tx) => tx.get('users', w.users.rita.id)?.displayName)).toBe('Rita Reader')
  })

  it('createUserNotificationsToken: a random token, stored bound to the caller', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.rita)
    const a = await gb.user.createUserNotificationsToken()
    expect(a.status).toBe(200)
    expectOfficialResponse('createUserNotificationsToken', 200, a.data)
    const b = await gb.user.createUserNotificationsToken()
    expect(a.data.token).toMatch(/^ntf_[\w-]{43}$/)
    expect(b.data.token).not.toBe(a.data.token)
    const rows = w.api.store.read((tx) => tx.scan('notificationTokens', 'byUser', w.users.rita.id).map((e) => e.row))
    expect(rows.map((r) => r.id).sort()).toEqual([a.data.token, b.data.token].sort())
    expect(rows.every((r) => Date.parse(r.expiresAt) - Date.parse(r.createdAt) === 3_600_000)).toBe(true)
    // Expired tokens are dropped when a new one is made.
    w.clock.advance(3_600_001)
    await gb.user.createUserNotificationsToken()
    expect(w.api.store.read((tx) => tx.count('notificationTokens', 'byUser', w.users.rita.id))).toBe(1)
    expect((await call(w.api, undefined, 'POST', '/v1/user/notifications/token')).status).toBe(401)
  })

  it('getApiInformation: the official version followed and when the API was made', async () => {
    const w = await createWorld()
    const res = await w.client(w.tokens.olga).getApiInformation()
    expect(res.status).toBe(200)
    expect(res.data.version).toMatch(/^\d+\.\d+\.\d+$/)
    expect(Number.isNaN(Date.parse(res.data.build))).toBe(false)
    expectOfficialResponse('getApiInformation', 200, res.data)
    expect((await call(w.api, undefined, 'GET', '/v1')).status).toBe(401)
  })
})
