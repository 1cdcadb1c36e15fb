import { MemberRole, SpaceEditMode, TranslationLanguage } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

describe('conformance: spaces through @gitbook/api', () => {
  it('createSpace, getSpaceById, updateSpaceById, listSpacesInOrganizationById', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada)
    const created = await gb.orgs.createSpace(w.org.id, { title: 'Handbook', emoji: '📘', language: TranslationLanguage.En, editMode: SpaceEditMode.Live })
    expect(created.status).toBe(201)
    expect(created.data.title).toBe('Handbook')
    expectOfficialResponse('createSpace', 201, created.data)
    const got = await gb.spaces.getSpaceById(created.data.id, { shareKey: 'ignored' })
    expect(got.data.id).toBe(created.data.id)
    expectOfficialResponse('getSpaceById', 200, got.data)
    const patched = await gb.spaces.updateSpaceById(created.data.id, {
      title: 'Guide',
      defaultLevel: MemberRole.Comment,
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [w.users.ada.id] }] },
      icon: 'https://acme.test/icon.png',
    })
    expect(patched.data).toMatchObject({ title: 'Guide', defaultLevel: 'comment', emoji: '' })
    expect(patched.data.urls.icon).toBe('https://acme.test/icon.png')
    expectOfficialResponse('updateSpaceById', 200, patched.data)
    await gb.orgs.createSpace(w.org.id, { title: 'Second' })
    const list = await gb.orgs.listSpacesInOrganizationById(w.org.id, { limit: 1 })
    expect(list.data.items.map((s) => s.title)).toEqual(['Guide'])
    expect(list.data.count).toBe(2)
    expect(list.data.next?.page).toEqual(expect.any(String))
    expectOfficialResponse('listSpacesInOrganizationById', 200, list.data)
  })

  it('deleteSpaceById, restoreSpace, duplicateSpace', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada)
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    const del = await gb.spaces.deleteSpaceById(space.id)
    // The official document answers 205 when a space is deleted and 204 when it did not exist;
    // the reference (which wins) answers 204 in both cases.
    expect(del.status).toBe(204)
    expectOfficialResponse('deleteSpaceById', 204, undefined)
    const restored = await gb.spaces.restoreSpace(space.id)
    expect(restored.status).toBe(200)
    expect(restored.data.deletedAt).toBeUndefined()
    expectOfficialResponse('restoreSpace', 200, restored.data)
    const copy = await gb.spaces.duplicateSpace(space.id)
    expect(copy.status).toBe(201)
    expect(copy.data.title).toBe('Handbook (copy)')
    expectOfficialResponse('duplicateSpace', 201, copy.data)
  })

  it('moveSpace, and the 400/409 error bodies it declares', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada)
    const docs = await w.api.fixtures.createCollection(w.org.id)
    const a = await w.api.fixtures.createSpace(w.org.id, { parent: docs.id, title: 'A' })
    const b = await w.api.fixtures.createSpace(w.org.id, { title: 'B' })
    const moved = await gb.spaces.moveSpace(b.id, { parent: docs.id, position: { before: { type: 'space', space: a.id } } })
    expect(moved.data.parent).toBe(docs.id)
    expectOfficialResponse('moveSpace', 200, moved.data)
    const conflict = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${b.id}/move`, { position: { before: { type: 'space', space: a.id } } })
    expect(conflict.status).toBe(409)
    expectOfficialResponse('moveSpace', 409, conflict.body)
    const bad = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${b.id}/move`, {})
    expect(bad.status).toBe(400)
    expectOfficialResponse('moveSpace', 400, bad.body)
    const missing = await call(w.api, w.tokens.ada, 'POST', '/v1/spaces/missing/move', { parent: null })
    expectOfficialResponse('moveSpace', 404, missing.body)
    await expect(gb.spaces.moveSpace(b.id, { parent: 'nope' })).rejects.toThrow('no collection nope')
  })

  it('transfer (no official operation) answers a Space as the official document describes it', async () => {
    const w = await createWorld()
    const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
    const space = await w.api.fixtures.createSpace(w.org.id)
    const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/transfer`, { organization: beta.id })
    expect(res.body.organization).toBe(beta.id)
    expectOfficialResponse('getSpaceById', 200, res.body)
  })
})
