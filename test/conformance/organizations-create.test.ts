import { describe, expect, it } from 'vitest'
import { call, createWorld, expectError } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

describe('conformance: creating organizations and finding them by email domain through @gitbook/api', () => {
  it('createOrganization: the caller becomes its admin; withDefaultSite adds its default site', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.olga).orgs
    const res = await gb.createOrganization({ title: 'Olga Co', emailDomains: ['Olga.test'] })
    expect(res.status).toBe(201)
    expect(res.data).toMatchObject({ title: 'Olga Co', emailDomains: ['olga.test'], permissions: { admin: true } })
    expectOfficialResponse('createOrganization', 201, res.data)
    const member = await gb.getMemberInOrganizationById(res.data.id, w.users.olga.id)
    expect(member.data.role).toBe('admin')
    const withSite = await gb.createOrganization({ title: 'Docs Co' }, { withDefaultSite: true })
    expectOfficialResponse('createOrganization', 201, withSite.data)
    const sites = await gb.listSites(withSite.data.id)
    expect(sites.data.items.map((s) => s.id)).toEqual([withSite.data.defaultContent!.site])
    expect((await gb.listOrganizationsForAuthenticatedUser()).data.items.map((o) => o.title)).toEqual(['Olga Co', 'Docs Co'])
  })

  it('createOrganization: bad input names the field, nothing is written; no token is a 401', async () => {
    const w = await createWorld()
    const count = () => w.api.store.read((tx) => tx.count('members', 'byUser', w.users.olga.id))
    expectError(await call(w.api, w.tokens.olga, 'POST', '/v1/orgs', { title: 'x' }), 400, '`title`')
    expectError(await call(w.api, w.tokens.olga, 'POST', '/v1/orgs', { title: 'Olga Co', emailDomains: ['not a domain'] }), 400, '`emailDomains[0]`')
    expectError(await call(w.api, w.tokens.olga, 'POST', '/v1/orgs?withDefaultSite=maybe', { title: 'Olga Co' }), 400, '`withDefaultSite`')
    expectError(
      await call(w.api, w.tokens.olga, 'POST', '/v1/orgs?withDefaultSite=true&openapiUrl=https://x.test/a.json', { title: 'Olga Co' }),
      400,
      '`openapiUrl`',
    )
    expect(count()).toBe(0)
    expect((await call(w.api, undefined, 'POST', '/v1/orgs', { title: 'Olga Co' })).status).toBe(401)
  })

  it("getOrganizationsForEmailDomain: the organizations the caller's verified domain may join", async () => {
    const w = await createWorld()
    await w.api.fixtures.createOrganization({ title: 'Another Acme', emailDomains: ['ACME.test', 'other.test'] })
    await w.api.fixtures.createOrganization({ title: 'Unrelated', emailDomains: ['other.test'] })
    const res = await w.client(w.tokens.olga).emailDomains.getOrganizationsForEmailDomain('acme.test')
    expect(res.status).toBe(200)
    expect(res.data.organizations.map((o) => [o.title, o.permissions.view])).toEqual([
      ['Acme', false],
      ['Another Acme', false],
    ])
    expectOfficialResponse('getOrganizationsForEmailDomain', 200, res.data)
    // The domain match is case-insensitive; joining by it works.
    const upper = await w.client(w.tokens.olga).emailDomains.getOrganizationsForEmailDomain('ACME.TEST')
    expect(upper.data.organizations).toHaveLength(2)
    expect((await call(w.api, w.tokens.olga, 'POST', `/v1/orgs/${w.org.id}/join`)).status).toBe(204)
  })

  it('getOrganizationsForEmailDomain: a bad domain names the parameter; another domain is a 403', async () => {
    const w = await createWorld()
    expectError(await call(w.api, w.tokens.olga, 'GET', '/v1/email-domains/not_a_domain/orgs'), 400, '`emailDomain`')
    expectError(await call(w.api, w.tokens.olga, 'GET', '/v1/email-domains/other.test/orgs'), 403, 'verified email address (acme.test)')
  })
})
