import { describe, expect, it } from 'vitest'
import { createWorld } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

describe('conformance: organizations through @gitbook/api', () => {
  it('listOrganizationsForAuthenticatedUser, getOrganizationById, updateOrganizationById', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada)
    const list = await gb.orgs.listOrganizationsForAuthenticatedUser()
    expect(list.status).toBe(200)
    expectOfficialResponse('listOrganizationsForAuthenticatedUser', 200, list.data)
    const got = await gb.orgs.getOrganizationById(w.org.id)
    expectOfficialResponse('getOrganizationById', 200, got.data)
    const patched = await gb.orgs.updateOrganizationById(w.org.id, { title: 'Acme Inc', defaultRole: null })
    expect(patched.data.title).toBe('Acme Inc')
    expectOfficialResponse('updateOrganizationById', 200, patched.data)
  })

  it('getAuthenticatedUser', async () => {
    const w = await createWorld()
    const me = await w.client(w.tokens.ada).user.getAuthenticatedUser()
    expect(me.data.id).toBe(w.users.ada.id)
    expectOfficialResponse('getAuthenticatedUser', 200, me.data)
  })
})
