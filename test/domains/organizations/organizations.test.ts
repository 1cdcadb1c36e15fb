import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../../helpers.js'

describe('organizations', () => {
  describe('GET /v1/orgs', () => {
    it('lists the organizations the caller belongs to, with permissions for the caller', async () => {
      const w = await createWorld()
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.rita.id, role: 'admin' }] })
      const ada = await call(w.api, w.tokens.ada, 'GET', '/v1/orgs')
      expect(ada.status).toBe(200)
      expect(ada.body.count).toBe(1)
      expect(ada.body.items[0]).toMatchObject({ object: 'organization', id: w.org.id, title: 'Acme' })
      expect(ada.body.items[0].permissions).toMatchObject({ admin: true, view: true, createContent: true, listMembers: true })
      const rita = await call(w.api, w.tokens.rita, 'GET', '/v1/orgs')
      expect(rita.body.items.map((o: any) => o.id)).toEqual([w.org.id, other.id])
      expect(rita.body.items[0].permissions).toMatchObject({ admin: false, view: true, createContent: false, listMembers: true })
      expect(rita.body.items[1].permissions.admin).toBe(true)
      const outsider = await call(w.api, w.tokens.olga, 'GET', '/v1/orgs')
      expect(outsider.body).toEqual({ items: [], count: 0 })
    })

    it('leaves out an organization where the caller is disabled (items and count)', async () => {
      const w = await createWorld()
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.rita.id, role: 'admin' }] })
      const third = await w.api.fixtures.createOrganization({ title: 'Third', members: [{ user: w.users.rita.id, role: 'read' }] })
      expect((await call(w.api, w.tokens.rita, 'GET', '/v1/orgs')).body.count).toBe(3)
      w.api.system((ctx) => {
        const member = ctx.tx.get('members', `${w.org.id}/${w.users.rita.id}`)!
        ctx.tx.update('members', { ...member, disabled: true })
      })
      const res = await call(w.api, w.tokens.rita, 'GET', '/v1/orgs')
      expect(res.status).toBe(200)
      expect(res.body.items.map((o: any) => o.id)).toEqual([other.id, third.id])
      expect(res.body.count).toBe(2)
      const paged = await call(w.api, w.tokens.rita, 'GET', '/v1/orgs?limit=1')
      expect(paged.body.items.map((o: any) => o.id)).toEqual([other.id])
      expect(paged.body.count).toBe(2)
    })

    it('says ownTeam only for the organization where the caller owns a team', async () => {
      const w = await createWorld()
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.rita.id, role: 'admin' }] })
      await w.api.fixtures.createTeam(other.id, { title: 'Theirs', owners: [w.users.rita.id] })
      await w.api.fixtures.createTeam(w.org.id, { title: 'Member only', members: [w.users.rita.id] })
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}`)).body.permissions.ownTeam).toBe(false)
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${other.id}`)).body.permissions.ownTeam).toBe(true)
      const list = await call(w.api, w.tokens.rita, 'GET', '/v1/orgs')
      expect(list.body.items.map((o: any) => [o.id, o.permissions.ownTeam])).toEqual([
        [w.org.id, false],
        [other.id, true],
      ])
      // Owning one in Acme too turns it on there.
      await w.api.fixtures.createTeam(w.org.id, { title: 'Hers', owners: [w.users.rita.id] })
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}`)).body.permissions.ownTeam).toBe(true)
    })

    it('pages with a cursor', async () => {
      const w = await createWorld()
      for (let i = 0; i < 4; i++) await w.api.fixtures.createOrganization({ title: `Org ${i}`, members: [{ user: w.users.ada.id, role: 'read' }] })
      const first = await call(w.api, w.tokens.ada, 'GET', '/v1/orgs?limit=2')
      expect(first.body.count).toBe(5)
      expect(first.body.items.map((o: any) => o.title)).toEqual(['Acme', 'Org 0'])
      const second = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs?limit=2&page=${first.body.next.page}`)
      expect(second.body.items.map((o: any) => o.title)).toEqual(['Org 1', 'Org 2'])
      const third = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs?limit=2&page=${second.body.next.page}`)
      expect(third.body.items.map((o: any) => o.title)).toEqual(['Org 3'])
      expect(third.body.next).toBeUndefined()
    })

    it('answers 401 without a token or with an unknown one', async () => {
      const w = await createWorld()
      expect((await call(w.api, undefined, 'GET', '/v1/orgs')).status).toBe(401)
      const res = await call(w.api, 'nope', 'GET', '/v1/orgs')
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } })
    })
  })

  describe('GET /v1/orgs/{organizationId}', () => {
    it('gets an organization for members, guests included, and hides it from others', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}`)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({
        id: w.org.id,
        emailDomains: ['acme.test'],
        defaultRole: 'read',
        urls: { location: `http://localhost:4000/v1/orgs/${w.org.id}`, app: expect.stringContaining(w.org.id) },
      })
      const guest = await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}`)
      expect(guest.status).toBe(200)
      expect(guest.body.permissions).toMatchObject({ view: true, listMembers: false, admin: false })
      const outsider = await call(w.api, w.tokens.olga, 'GET', `/v1/orgs/${w.org.id}`)
      expect(outsider.status).toBe(404)
      expect(outsider.body.error).toEqual({ code: 404, message: 'Organization not found' })
      expect((await call(w.api, w.tokens.ada, 'GET', '/v1/orgs/missing')).status).toBe(404)
    })
  })

  describe('PATCH /v1/orgs/{organizationId}', () => {
    it('updates fields and removes the nullable ones with null', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, {
        title: 'Acme Inc',
        emailDomains: ['Acme.test', 'acme.example'],
        hostname: 'acme-docs',
        defaultRole: null,
        defaultContent: { type: 'site', site: site.id },
        logo: 'https://acme.test/logo.png',
        sso: true,
        ai: true,
        inviteLinks: false,
        mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({
        title: 'Acme Inc',
        emailDomains: ['acme.test', 'acme.example'],
        hostname: 'acme-docs',
        defaultRole: null,
        defaultContent: { type: 'site', site: site.id },
        sso: true,
        ai: true,
        inviteLinks: false,
        mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
        urls: { logo: 'https://acme.test/logo.png' },
      })
      const cleared = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { logo: null, defaultContent: null })
      expect(cleared.body.urls.logo).toBeUndefined()
      expect(cleared.body.defaultContent).toBeUndefined()
      expect(cleared.body.title).toBe('Acme Inc')
      const again = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)
      expect(again.body.title).toBe('Acme Inc')
    })

    it.each([
      [{ title: 'A' }, '`title`: must be at least 2 characters'],
      [{ title: 'x'.repeat(256) }, '`title`: must be at most 255 characters'],
      [{ title: ' Acme' }, '`title`: must not start or end with white space'],
      [{ hostname: 'ab' }, '`hostname`: must be at least 3 characters'],
      [{ hostname: 'x'.repeat(33) }, '`hostname`: must be at most 32 characters'],
      [{ hostname: 'Bad_Host' }, '`hostname`: must be lower-case letters'],
      [{ emailDomains: ['not a domain'] }, '`emailDomains[0]`: must be a domain name'],
      [{ defaultRole: 'owner' }, '`defaultRole`'],
      [{ logo: 'not a url' }, '`logo`: must be a URL'],
      [{ sso: 'yes' }, '`sso`'],
      [{ defaultContent: { type: 'space', site: 's' } }, '`defaultContent'],
      [{ defaultContent: { type: 'site', site: 'nope' } }, '`defaultContent.site`: no site nope in this organization'],
      [{ mergeRules: { type: 'inherit' } }, '`mergeRules'],
    ])('rejects %j', async (body, message) => {
      const w = await createWorld()
      const before = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, body)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toContain(message)
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)).body).toEqual(before.body)
    })

    it('refuses a defaultContent site of another organization with a 400, and changes nothing', async () => {
      const w = await createWorld()
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const foreign = await w.api.fixtures.createSite(beta.id, { title: 'Theirs' })
      const before = w.api.store.read((tx) => tx.get('organizations', w.org.id))
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'Renamed', defaultContent: { type: 'site', site: foreign.id } })
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toContain(`body field \`defaultContent.site\`: no site ${foreign.id} in this organization`)
      expect(w.api.store.read((tx) => tx.get('organizations', w.org.id))).toEqual(before)
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)).body.defaultContent).toBeUndefined()
    })

    it('stores the email domains of a new organization in lower case', async () => {
      const w = await createWorld()
      const org = await w.api.fixtures.createOrganization({
        title: 'Upper',
        emailDomains: ['ACME.test', 'Example.COM'],
        members: [{ user: w.users.ada.id, role: 'admin' }],
      })
      expect(org.emailDomains).toEqual(['acme.test', 'example.com'])
      expect(w.api.store.read((tx) => tx.get('organizations', org.id))?.emailDomains).toEqual(['acme.test', 'example.com'])
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${org.id}`)).body.emailDomains).toEqual(['acme.test', 'example.com'])
    })

    it('needs the admin role: 403 for a reader, 404 for an outsider', async () => {
      const w = await createWorld()
      const reader = await call(w.api, w.tokens.rita, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'Hacked' })
      expect(reader.status).toBe(403)
      expect(reader.body.error.code).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'Hacked' })).status).toBe(404)
      expect((await call(w.api, undefined, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'Hacked' })).status).toBe(401)
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)).body.title).toBe('Acme')
    })
  })

  describe('DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}', () => {
    it('deletes an invite link, and answers 204 when it does not exist', async () => {
      const w = await createWorld()
      const invite = await w.api.fixtures.createInviteLink(w.org.id)
      expect(w.api.store.read((tx) => tx.get('inviteLinks', invite.id))).toBeDefined()
      const res = await call(w.api, w.tokens.ada, 'DELETE', `/v1/orgs/${w.org.id}/link-invites/${invite.id}`)
      expect(res.status).toBe(204)
      expect(res.body).toBeUndefined()
      expect(w.api.store.read((tx) => tx.get('inviteLinks', invite.id))).toBeUndefined()
      expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/orgs/${w.org.id}/link-invites/${invite.id}`)).status).toBe(204)
    })

    it('leaves invites of another organization alone, and needs the admin role', async () => {
      const w = await createWorld()
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.olga.id, role: 'admin' }] })
      const invite = await w.api.fixtures.createInviteLink(other.id)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/orgs/${w.org.id}/link-invites/${invite.id}`)).status).toBe(204)
      expect(w.api.store.read((tx) => tx.get('inviteLinks', invite.id))).toBeDefined()
      const own = await w.api.fixtures.createInviteLink(w.org.id)
      expect((await call(w.api, w.tokens.rita, 'DELETE', `/v1/orgs/${w.org.id}/link-invites/${own.id}`)).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'DELETE', `/v1/orgs/${w.org.id}/link-invites/${own.id}`)).status).toBe(404)
      expect(w.api.store.read((tx) => tx.get('inviteLinks', own.id))).toBeDefined()
    })
  })

  describe('POST /v1/orgs/{organizationId}/join', () => {
    it('joins with a verified email in an allowed domain, with the default role', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.olga, 'POST', `/v1/orgs/${w.org.id}/join`)
      expect(res.status).toBe(204)
      const member = w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.olga.id}`))
      expect(member).toMatchObject({ role: 'read', joinedAt: '2026-03-01T10:00:00.000Z' })
      expect((await call(w.api, w.tokens.olga, 'GET', `/v1/orgs/${w.org.id}`)).status).toBe(200)
      // joining again changes nothing
      expect((await call(w.api, w.tokens.olga, 'POST', `/v1/orgs/${w.org.id}/join`)).status).toBe(204)
      expect(w.api.store.read((tx) => tx.count('members', 'byOrganization', w.org.id))).toBe(4)
    })

    it("gives the organization's default role: `edit` once set, and guest when null", async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { defaultRole: 'edit' })).status).toBe(200)
      expect((await call(w.api, w.tokens.olga, 'POST', `/v1/orgs/${w.org.id}/join`)).status).toBe(204)
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.olga.id}`))).toMatchObject({ role: 'edit', disabled: false })
      expect((await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { defaultRole: null })).status).toBe(200)
      const nell = await w.api.fixtures.createUser({ displayName: 'Nell', email: 'nell@acme.test' })
      const token = await w.api.fixtures.createToken(nell.id)
      expect((await call(w.api, token, 'POST', `/v1/orgs/${w.org.id}/join`)).status).toBe(204)
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${nell.id}`))).toMatchObject({ role: null, disabled: false })
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/members/${nell.id}`)).body.role).toBeNull()
    })

    it('answers 204 to an existing member whose email would not qualify, and leaves the membership as it was', async () => {
      const w = await createWorld()
      // gina: a guest with an email outside the allowed domains.
      const una = await w.api.fixtures.createUser({ displayName: 'Una', email: 'una@acme.test', emailVerified: false })
      await w.api.fixtures.addMember(w.org.id, una.id, 'comment')
      const unaToken = await w.api.fixtures.createToken(una.id)
      const memberships = () => w.api.store.read((tx) => tx.all('members'))
      const before = memberships()
      w.clock.advance(3600_000)
      for (const token of [w.tokens.gina, unaToken]) {
        const res = await call(w.api, token, 'POST', `/v1/orgs/${w.org.id}/join`)
        expect(res.status).toBe(204)
        expect(res.body).toBeUndefined()
        expect(memberships()).toEqual(before)
      }
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.gina.id}`))?.role).toBeNull()
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${una.id}`))?.role).toBe('comment')
    })

    it('compares the email domain case-insensitively', async () => {
      const w = await createWorld()
      const x = await w.api.fixtures.createUser({ displayName: 'Xavier', email: 'x@ACME.Test' })
      const token = await w.api.fixtures.createToken(x.id)
      const res = await call(w.api, token, 'POST', `/v1/orgs/${w.org.id}/join`)
      expect(res.status).toBe(204)
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${x.id}`))).toMatchObject({ role: 'read', disabled: false })
      expect((await call(w.api, token, 'GET', `/v1/orgs/${w.org.id}`)).status).toBe(200)
    })

    it('refuses an unverified email or a domain that is not allowed', async () => {
      const w = await createWorld()
      const unverified = await w.api.fixtures.createUser({ displayName: 'Una', email: 'una@acme.test', emailVerified: false })
      const token = await w.api.fixtures.createToken(unverified.id)
      const res = await call(w.api, token, 'POST', `/v1/orgs/${w.org.id}/join`)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toMatch(/not verified/)
      const stranger = await w.api.fixtures.createUser({ displayName: 'Sam', email: 'sam@other.test' })
      const res2 = await call(w.api, await w.api.fixtures.createToken(stranger.id), 'POST', `/v1/orgs/${w.org.id}/join`)
      expect(res2.status).toBe(400)
      expect(res2.body.error.message).toMatch(/other\.test/)
      expect(w.api.store.read((tx) => tx.count('members', 'byOrganization', w.org.id))).toBe(3)
      expect((await call(w.api, w.tokens.olga, 'POST', '/v1/orgs/missing/join')).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', `/v1/orgs/${w.org.id}/join`)).status).toBe(401)
    })
  })
})
