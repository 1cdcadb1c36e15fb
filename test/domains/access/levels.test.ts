import { describe, expect, it } from 'vitest'
import { addEditor, call, createWorld } from '../../helpers.js'

describe('effective levels', () => {
  it('a disabled member keeps nothing through a grant left behind', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Secret' })
    await w.api.fixtures.grantSpace(space.id, { user: w.users.gina.id }, 'edit')
    const before = await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${space.id}`)
    expect(before.status).toBe(200)
    expect(before.body.permissions).toMatchObject({ view: true, edit: true, admin: false })
    w.api.system((ctx) => {
      const member = ctx.tx.get('members', `${w.org.id}/${w.users.gina.id}`)!
      ctx.tx.update('members', { ...member, disabled: true })
    })
    expect((await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${space.id}`)).status).toBe(404)
    expect((await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}`)).status).toBe(404)
  })

  it('public and unlisted spaces are readable by any authenticated user, private ones are not', async () => {
    const w = await createWorld()
    const priv = await w.api.fixtures.createSpace(w.org.id, { title: 'Private' })
    const pub = await w.api.fixtures.createSpace(w.org.id, { title: 'Public', visibility: 'public' })
    const unl = await w.api.fixtures.createSpace(w.org.id, { title: 'Unlisted', visibility: 'unlisted' })
    expect((await call(w.api, w.tokens.olga, 'GET', `/v1/spaces/${priv.id}`)).status).toBe(404)
    for (const s of [pub, unl]) {
      const res = await call(w.api, w.tokens.olga, 'GET', `/v1/spaces/${s.id}`)
      expect(res.status).toBe(200)
      expect(res.body.permissions).toMatchObject({ view: true, comment: false, edit: false, admin: false })
    }
    // a reader of the organization reads everything, and no more
    const rita = await call(w.api, w.tokens.rita, 'GET', `/v1/spaces/${priv.id}`)
    expect(rita.body.permissions).toMatchObject({ view: true, edit: false })
    expect((await call(w.api, w.tokens.rita, 'PATCH', `/v1/spaces/${priv.id}`, { title: 'x' })).status).toBe(403)
  })

  it("a space's defaultLevel raises members with a role, not guests", async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Shared' })
    const patched = await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${space.id}`, { defaultLevel: 'edit' })
    expect(patched.status).toBe(200)
    expect((await call(w.api, w.tokens.rita, 'GET', `/v1/spaces/${space.id}`)).body.permissions.edit).toBe(true)
    expect((await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${space.id}`)).status).toBe(404)
  })
})

describe('space review and merge flags', () => {
  it('are false for an edit grant and true for a review grant', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Reviewed' })
    // gina is a guest: the grant alone sets her level on the space.
    await w.api.fixtures.grantSpace(space.id, { user: w.users.gina.id }, 'edit')
    const edit = await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${space.id}`)
    expect(edit.status).toBe(200)
    expect(edit.body.permissions).toMatchObject({ view: true, comment: true, edit: true, review: false, merge: false, admin: false })
    await w.api.fixtures.grantSpace(space.id, { user: w.users.gina.id }, 'review')
    const review = await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${space.id}`)
    expect(review.body.permissions).toMatchObject({ view: true, edit: true, review: true, merge: true, admin: false })
    // The same flags through an organization role: an editor neither reviews nor merges.
    const editor = await addEditor(w)
    expect((await call(w.api, editor, 'GET', `/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ edit: true, review: false, merge: false })
  })
})

describe('permissions in the answer to a write', () => {
  it('follow the write itself: a space transferred to an organization where the caller is a creator no longer says admin', async () => {
    const w = await createWorld()
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'create' }] })
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Moving' })
    const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: other.id })
    expect(res.status).toBe(200)
    expect(res.body.organization).toBe(other.id)
    expect(res.body.permissions).toMatchObject({ view: true, edit: true, admin: false })
  })
})
