import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../helpers.js'

describe('organizations', () => {
  it('lists the organizations of the caller', async () => {
    const w = await createWorld()
    const res = await call(w.api, w.tokens.ada, 'GET', '/v1/orgs')
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(1)
    expect(res.body.items[0]).toMatchObject({ object: 'organization', id: w.org.id, title: 'Acme' })
    expect(res.body.items[0].permissions.admin).toBe(true)
    const outsider = await call(w.api, w.tokens.olga, 'GET', '/v1/orgs')
    expect(outsider.body).toEqual({ items: [], count: 0 })
  })

  it('answers 401 without a token or with an unknown one', async () => {
    const w = await createWorld()
    expect((await call(w.api, undefined, 'GET', '/v1/orgs')).status).toBe(401)
    const res = await call(w.api, 'nope', 'GET', '/v1/orgs')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } })
  })
})
