import { describe, expect, it } from 'vitest'
import { createWorld } from '../helpers.js'
import { CERTIFICATE } from '../fixtures/pem.js'
import { expectOfficialResponse } from './official.js'

/** Every SSO operation through the official client (`@gitbook/api` over `api.fetch`), each answer checked against the official schema. */
describe('conformance: SAML providers and sign-in list through @gitbook/api', () => {
  it('create (pending and active), get, list, update, sign-in list, delete', async () => {
    const w = await createWorld()
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Engineering' })
    const gb = w.client(w.tokens.ada)

    const pending = await gb.orgs.createOrganizationSamlProvider(w.org.id, { label: 'Later' })
    expect(pending.status).toBe(201)
    expectOfficialResponse('createOrganizationSAMLProvider', 201, pending.data)
    expect(pending.data.status).toBe('pending')

    const active = await gb.orgs.createOrganizationSamlProvider(w.org.id, {
      label: 'Okta',
      entityID: 'https://idp.acme.test/metadata',
      ssoURL: 'https://idp.acme.test/sso',
      certificate: CERTIFICATE,
      defaultTeam: team.id,
      defaultRole: 'edit' as never,
    })
    expectOfficialResponse('createOrganizationSAMLProvider', 201, active.data)
    expect(active.data).toMatchObject({ status: 'active', defaultTeam: { id: team.id } })

    const got = await gb.orgs.getOrganizationSamlProviderById(w.org.id, active.data.id)
    expectOfficialResponse('getOrganizationSAMLProviderById', 200, got.data)

    const list = await gb.orgs.listSamlProvidersInOrganizationById(w.org.id, { limit: 10 })
    expectOfficialResponse('listSAMLProvidersInOrganizationById', 200, list.data)
    expect(list.data.items.map((p) => p.id)).toEqual([pending.data.id, active.data.id])

    const updated = await gb.orgs.updateOrganizationSamlProvider(w.org.id, pending.data.id, {
      entityID: 'urn:idp',
      ssoURL: 'https://idp.acme.test/2',
      certificate: CERTIFICATE,
    })
    expectOfficialResponse('updateOrganizationSAMLProvider', 200, updated.data)
    expect(updated.data.status).toBe('active')

    // The sign-in list answers any authenticated caller (an outsider here); without a token, 401.
    const logins = await w.client(w.tokens.olga).orgs.listSsoProviderLoginsInOrganization(w.org.id)
    expectOfficialResponse('listSSOProviderLoginsInOrganization', 200, logins.data)
    await expect(w.client('').orgs.listSsoProviderLoginsInOrganization(w.org.id)).rejects.toMatchObject({ code: 401 })
    expect(logins.data.items.map((i) => i.label)).toEqual(['Later', 'Okta'])

    const deleted = await gb.orgs.deleteOrganizationSamlProvider(w.org.id, active.data.id)
    // The official document answers 205 for an actual removal; the reference answers 204.
    expect(deleted.status).toBe(204)
    expectOfficialResponse('deleteOrganizationSAMLProvider', 204, undefined)
    const again = await gb.orgs.deleteOrganizationSamlProvider(w.org.id, active.data.id)
    expect(again.status).toBe(204)
    expectOfficialResponse('deleteOrganizationSAMLProvider', 204, undefined)
  })
})
