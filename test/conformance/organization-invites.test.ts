import { GitBookAPIError, MemberRole } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

/** The status and message of a rejected official client call. */
async function failure(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(GitBookAPIError)
  return { status: (error as GitBookAPIError).code, message: (error as GitBookAPIError).message }
}

describe('conformance: organization invites through @gitbook/api', () => {
  it('createOrganizationInvite, listOrganizationInviteLinks, getOrganizationInviteLink, updateOrganizationInviteById', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada).orgs
    const created = await gb.createOrganizationInvite(w.org.id, { role: MemberRole.Edit })
    expect(created.status).toBe(201)
    expectOfficialResponse('createOrganizationInvite', 201, created.data)
    // Ada (admin) already has more than `edit`: the invite is redundant for her.
    expect(created.data).toEqual({ object: 'invite', id: expect.any(String), role: 'edit', redundant: true })
    const guest = await gb.createOrganizationInvite(w.org.id, { role: null })
    expect(guest.data).toMatchObject({ role: null })

    const list = await gb.listOrganizationInviteLinks(w.org.id, { limit: 1 })
    expect(list.status).toBe(200)
    expectOfficialResponse('listOrganizationInviteLinks', 200, list.data)
    expect(list.data.items.map((i) => i.id)).toEqual([created.data.id])
    expect(list.data.count).toBe(2)
    const next = await gb.listOrganizationInviteLinks(w.org.id, { limit: 1, page: list.data.next!.page })
    expect(next.data.items.map((i) => i.id)).toEqual([guest.data.id])

    const got = await gb.getOrganizationInviteLink(w.org.id, created.data.id)
    expectOfficialResponse('getOrganizationInviteLink', 200, got.data)
    expect(got.data).toEqual(created.data)

    const updated = await gb.updateOrganizationInviteById(w.org.id, created.data.id, { role: MemberRole.Admin })
    expect(updated.status).toBe(200)
    expectOfficialResponse('updateOrganizationInviteById', 200, updated.data)
    expect((await gb.getOrganizationInviteLink(w.org.id, created.data.id)).data).toMatchObject({ role: 'admin' })

    // An invite of another organization, or none, is a 404 under this one.
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
    const foreign = await w.api.fixtures.createInviteLink(other.id)
    expect((await failure(gb.getOrganizationInviteLink(w.org.id, foreign.id))).status).toBe(404)
    expect((await failure(gb.updateOrganizationInviteById(w.org.id, 'nope', { role: null }))).status).toBe(404)
  })

  it('bad input is a 400 naming the field: a role outside the enum, a missing role', async () => {
    const w = await createWorld()
    const bad = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/link-invites`, { role: 'owner' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('role')
    const missing = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/link-invites`, {})
    expect(missing.status).toBe(400)
    expect(missing.body.error.message).toContain('role')
    // Links to a space or a collection are not supported: their body lacks `role`.
    const space = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/link-invites`, { level: 'read', space: 's1' })
    expect(space.status).toBe(400)
    expect(space.body.error.message).toContain('role')
    const invite = await w.api.fixtures.createInviteLink(w.org.id)
    const patch = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}/link-invites/${invite.id}`, { role: 'superuser' })
    expect(patch.status).toBe(400)
    expect(patch.body.error.message).toContain('role')
  })

  it('only admins create, list, read and update invite links or invite by email (403 for a reader, 404 for an outsider)', async () => {
    const w = await createWorld()
    const invite = await w.api.fixtures.createInviteLink(w.org.id)
    const reader = w.client(w.tokens.rita).orgs
    // One at a time: a request made before the previous one is awaited would reject with no handler yet.
    for (const attempt of [
      () => reader.createOrganizationInvite(w.org.id, { role: MemberRole.Read }),
      () => reader.listOrganizationInviteLinks(w.org.id),
      () => reader.getOrganizationInviteLink(w.org.id, invite.id),
      () => reader.updateOrganizationInviteById(w.org.id, invite.id, { role: MemberRole.Admin }),
      () => reader.inviteUsersToOrganization(w.org.id, { emails: ['new@acme.test'] }),
    ]) {
      expect((await failure(attempt())).status).toBe(403)
    }
    expect((await failure(w.client(w.tokens.olga).orgs.listOrganizationInviteLinks(w.org.id))).status).toBe(404)
    // Nothing changed.
    expect(w.api.store.read((tx) => tx.get('inviteLinks', invite.id))?.role).toBe('read')
    expect(w.api.store.read((tx) => tx.count('inviteLinks', 'byOrganization', w.org.id))).toBe(1)
  })

  it('join flow: an admin creates a link, another user joins with it and is a member with its role', async () => {
    const w = await createWorld()
    const created = await w.client(w.tokens.ada).orgs.createOrganizationInvite(w.org.id, { role: MemberRole.Review })
    const olga = w.client(w.tokens.olga).orgs
    // Before joining, Olga does not see the organization.
    expect((await failure(olga.getOrganizationById(w.org.id))).status).toBe(404)
    const joined = await olga.joinOrganizationWithInvite(w.org.id, created.data.id)
    expect(joined.status).toBe(200)
    expectOfficialResponse('joinOrganizationWithInvite', 200, joined.data)
    expect(joined.data).toEqual({})
    const member = await w.client(w.tokens.ada).orgs.getMemberInOrganizationById(w.org.id, w.users.olga.id)
    expect(member.data).toMatchObject({ role: 'review' })
    expect((await olga.getOrganizationById(w.org.id)).data.id).toBe(w.org.id)
    // Joining again changes nothing; a reader joining with a higher link is raised to its role.
    await olga.joinOrganizationWithInvite(w.org.id, created.data.id)
    await w.client(w.tokens.rita).orgs.joinOrganizationWithInvite(w.org.id, created.data.id)
    expect((await w.client(w.tokens.ada).orgs.getMemberInOrganizationById(w.org.id, w.users.rita.id)).data.role).toBe('review')
    // A lower link does not lower anyone.
    const low = await w.api.fixtures.createInviteLink(w.org.id, 'read')
    await olga.joinOrganizationWithInvite(w.org.id, low.id)
    expect((await w.client(w.tokens.ada).orgs.getMemberInOrganizationById(w.org.id, w.users.olga.id)).data.role).toBe('review')
  })

  it('join is refused with a clear message when invite links are disabled, and 404 for an unknown or deleted link', async () => {
    const w = await createWorld()
    const invite = await w.api.fixtures.createInviteLink(w.org.id, 'edit')
    const admin = w.client(w.tokens.ada).orgs
    await admin.updateOrganizationById(w.org.id, { inviteLinks: false })
    const refused = await failure(w.client(w.tokens.olga).orgs.joinOrganizationWithInvite(w.org.id, invite.id))
    expect(refused.status).toBe(400)
    expect(refused.message).toContain('invite links are disabled')
    expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.olga.id}`))).toBeUndefined()
    await admin.updateOrganizationById(w.org.id, { inviteLinks: true })
    await admin.deleteOrganizationInviteById(w.org.id, invite.id)
    expect((await failure(w.client(w.tokens.olga).orgs.joinOrganizationWithInvite(w.org.id, invite.id))).status).toBe(404)
    expect((await failure(w.client(w.tokens.olga).orgs.joinOrganizationWithInvite(w.org.id, 'nope'))).status).toBe(404)
    expect((await call(w.api, undefined, 'POST', `/v1/orgs/${w.org.id}/invites/${invite.id}`)).status).toBe(401)
    // A disabled member is not re-enabled by a link.
    const again = await w.api.fixtures.createInviteLink(w.org.id, 'admin')
    const id = `${w.org.id}/${w.users.rita.id}`
    w.api.store.transaction((tx) => tx.update('members', { ...tx.get('members', id)!, disabled: true }))
    const disabled = await failure(w.client(w.tokens.rita).orgs.joinOrganizationWithInvite(w.org.id, again.id))
    expect(disabled).toMatchObject({ status: 400, message: expect.stringContaining('disabled') })
    expect(w.api.store.read((tx) => tx.get('members', id))).toMatchObject({ role: 'read', disabled: true })
  })

  it('inviteUsersToOrganization: finds or creates each user and adds them with their role', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada).orgs
    const res = await gb.inviteUsersToOrganization(w.org.id, {
      emails: ['OLGA@acme.test', { email: 'new.person@example.test', role: MemberRole.Admin }],
      role: MemberRole.Comment,
    })
    expect(res.status).toBe(200)
    expectOfficialResponse('inviteUsersToOrganization', 200, res.data)
    expect(res.data.invited).toBe(2)
    expect(res.data.users[0]).toBe(w.users.olga.id)
    const created = w.api.store.read((tx) => tx.get('users', res.data.users[1]!))
    expect(created).toMatchObject({ email: 'new.person@example.test', displayName: 'new.person', emailVerified: false })
    const members = w.api.store.read((tx) => res.data.users.map((u) => tx.get('members', `${w.org.id}/${u}`)?.role))
    expect(members).toEqual(['comment', 'admin'])
    // Without `role`, bare addresses get the organization's default role.
    const def = await gb.inviteUsersToOrganization(w.org.id, { emails: ['someone@example.test'] })
    expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${def.data.users[0]}`)?.role)).toBe('read')
    // With `sso`, the members may sign in with SSO and the answer lists who could not be.
    const sso = await gb.inviteUsersToOrganization(w.org.id, { emails: ['sso@example.test'], sso: true })
    expectOfficialResponse('inviteUsersToOrganization', 200, sso.data)
    expect(sso.data.failedSSOEmails).toEqual([])
    expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${sso.data.users[0]}`)?.sso)).toBe(true)
  })

  it('inviteUsersToOrganization bad input: not an email, a role outside the enum, a member or an address twice (400 naming the entry; nothing added)', async () => {
    const w = await createWorld()
    const path = `/v1/orgs/${w.org.id}/invites`
    const cases: Array<[unknown, string]> = [
      [{ emails: ['not-an-email'] }, 'emails'],
      [{ emails: [{ email: 'a@example.test', role: 'owner' }] }, 'emails[0]`: must be an email address, or { email, role }'],
      [{ emails: ['a@example.test'], role: 'owner' }, 'role'],
      [{}, 'emails'],
      [{ emails: ['a@example.test', 'rita@acme.test'] }, 'emails[1]'],
      [{ emails: ['a@example.test', 'A@example.test'] }, 'emails[1]'],
    ]
    for (const [body, field] of cases) {
      const res = await call(w.api, w.tokens.ada, 'POST', path, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message, JSON.stringify(body)).toContain(field)
    }
    const twice = await call(w.api, w.tokens.ada, 'POST', path, { emails: ['rita@acme.test'] })
    expect(twice.body.error.message).toContain('already a member')
    // Nothing was created by the refused requests.
    expect(w.api.store.read((tx) => tx.scan('users', 'byEmail', 'a@example.test'))).toHaveLength(0)
    // Inviting the same user a second time is refused too.
    await w.client(w.tokens.ada).orgs.inviteUsersToOrganization(w.org.id, { emails: ['b@example.test'] })
    const again = await failure(w.client(w.tokens.ada).orgs.inviteUsersToOrganization(w.org.id, { emails: ['b@example.test'] }))
    expect(again).toMatchObject({ status: 400, message: expect.stringContaining('emails[0]') })
  })
})
