import { describe, expect, it } from 'vitest'
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
})
