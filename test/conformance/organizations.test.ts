import { describe, expect, it } from 'vitest'
import { createWorld } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

describe('conformance: organizations and users through @gitbook/api', () => {
  it('the validator rejects a body that does not match (self-check)', async () => {
    expect(() => expectOfficialResponse('getOrganizationById', 200, { object: 'organization' })).toThrow()
  })

  it('listOrganizationsForAuthenticatedUser, getOrganizationById, updateOrganizationById', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada)
    const list = await gb.orgs.listOrganizationsForAuthenticatedUser()
    expect(list.status).toBe(200)
    expect(list.data.items).toHaveLength(1)
    expectOfficialResponse('listOrganizationsForAuthenticatedUser', 200, list.data)
    const got = await gb.orgs.getOrganizationById(w.org.id)
    expect(got.data.id).toBe(w.org.id)
    expectOfficialResponse('getOrganizationById', 200, got.data)
    const patched = await gb.orgs.updateOrganizationById(w.org.id, {
      title: 'Acme Inc',
      defaultRole: null,
      logo: 'https://acme.test/logo.png',
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [w.users.ada.id] }] },
    })
    expect(patched.data.title).toBe('Acme Inc')
    expectOfficialResponse('updateOrganizationById', 200, patched.data)
  })

  it('deleteOrganizationInviteById and joinOrganization answer 204 without a body', async () => {
    const w = await createWorld()
    const invite = await w.api.fixtures.createInviteLink(w.org.id)
    const del = await w.client(w.tokens.ada).orgs.deleteOrganizationInviteById(w.org.id, invite.id)
    expect(del.status).toBe(204)
    expectOfficialResponse('deleteOrganizationInviteById', 204, undefined)
    const join = await w.client(w.tokens.olga).orgs.joinOrganization(w.org.id)
    expect(join.status).toBe(204)
    expectOfficialResponse('joinOrganization', 204, undefined)
  })

  it('the client surfaces the error message of a 404', async () => {
    const w = await createWorld()
    await expect(w.client(w.tokens.olga).orgs.getOrganizationById(w.org.id)).rejects.toThrow('Organization not found')
  })

  it('getAuthenticatedUser and getUserById', async () => {
    const w = await createWorld()
    const me = await w.client(w.tokens.ada).user.getAuthenticatedUser()
    expect(me.data.id).toBe(w.users.ada.id)
    expectOfficialResponse('getAuthenticatedUser', 200, me.data)
    const rita = await w.client(w.tokens.ada).users.getUserById(w.users.rita.id)
    expect(rita.data.displayName).toBe('Rita Reader')
    expectOfficialResponse('getUserById', 200, rita.data)
  })
})
