import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { call, createWorld } from '../helpers.js'

describe('201 answers', () => {
  it('carry a Location header pointing at what was created', async () => {
    const w = await createWorld()
    const space = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 'New' })
    expect(space.status).toBe(201)
    expect(space.headers.get('location')).toBe(`http://localhost:4000/v1/spaces/${space.body.id}`)
    expect(space.headers.get('location')).toBe(space.body.urls.location)
    const collection = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/collections`, { title: 'Docs' })
    expect(collection.headers.get('location')).toBe(`http://localhost:4000/v1/collections/${collection.body.id}`)
    const copy = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.body.id}/duplicate`)
    expect(copy.status).toBe(201)
    expect(copy.headers.get('location')).toBe(`http://localhost:4000/v1/spaces/${copy.body.id}`)
    // a 200 has none
    const got = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.body.id}`)
    expect(got.headers.get('location')).toBeNull()
  })

  it('are built without a double slash when baseUrl ends with one', async () => {
    const api = createDocsApi({ baseUrl: 'http://x.test/' })
    const user = await api.fixtures.createUser({ displayName: 'Ada' })
    const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: user.id, role: 'admin' }] })
    const token = await api.fixtures.createToken(user.id)
    const res = await api.fetch(`http://x.test/v1/orgs/${org.id}/spaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'New' }),
    })
    expect(res.status).toBe(201)
    const body = await res.json()
    expect(body.urls.location).toBe(`http://x.test/v1/spaces/${body.id}`)
    expect(body.urls.location).not.toContain('//v1')
    expect(res.headers.get('location')).toBe(`http://x.test/v1/spaces/${body.id}`)
    expect(org.urls.location).toBe(`http://x.test/v1/orgs/${org.id}`)
  })
})
