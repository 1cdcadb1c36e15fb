import { describe, expect, it } from 'vitest'
import { call, createWorld, type World } from '../../helpers.js'

/** A world with a private space at the organization's root (ada admin, rita reader, gina guest). */
async function setup() {
  const w = await createWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Private' })
  const base = `/v1/spaces/${space.id}/permissions`
  return { ...w, space, base }
}

/** A team of `organization` with the given members (through the teams fixture). */
async function createTeam(w: World, organization: string, title: string, members: string[]): Promise<{ id: string }> {
  return w.api.fixtures.createTeam(organization, { title, members })
}

const grantsOf = (w: World, space: string) =>
  w.api.store.read((tx) => tx.scan('spaceGrants', 'bySpace', space).map(({ row }) => ({ principal: row.principal, role: row.role })))

describe('space permissions', () => {
  describe('POST /v1/spaces/{spaceId}/permissions', () => {
    it('grants a role to members and guests, who then see the space with that role', async () => {
      const w = await setup()
      expect((await call(w.api, w.tokens.gina, 'GET', `${w.base}/users`)).status).toBe(404)
      const res = await call(w.api, w.tokens.ada, 'POST', w.base, { role: 'edit', users: [w.users.gina.id, w.users.rita.id] })
      expect(res.status).toBe(204)
      expect(res.body).toBeUndefined()
      expect(grantsOf(w, w.space.id)).toEqual([
        { principal: { type: 'user', user: w.users.gina.id }, role: 'edit' },
        { principal: { type: 'user', user: w.users.rita.id }, role: 'edit' },
      ])
      const list = await call(w.api, w.tokens.gina, 'GET', `${w.base}/users`)
      expect(list.status).toBe(200)
      expect(list.body.count).toBe(2)
      expect(list.body.items.map((i: any) => [i.permission, i.user.id, i.user.object])).toEqual([
        ['edit', w.users.gina.id, 'user'],
        ['edit', w.users.rita.id, 'user'],
      ])
      // edit is not admin: the guest sees the space but cannot share it further
      const again = await call(w.api, w.tokens.gina, 'POST', w.base, { role: 'admin', users: [w.users.gina.id] })
      expect(again.status).toBe(403)
      expect(again.body.error).toEqual({ code: 403, message: expect.stringContaining('admin') })
      expect(grantsOf(w, w.space.id)[0]!.role).toBe('edit')
    })

    it('adds a user who is not in the organization as a guest, as the product does', async () => {
      const w = await setup()
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.olga.id}`))).toBeUndefined()
      const res = await call(w.api, w.tokens.ada, 'POST', w.base, { role: 'read', users: [w.users.olga.id] })
      expect(res.status).toBe(204)
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.olga.id}`))).toMatchObject({ role: null, disabled: false })
      expect((await call(w.api, w.tokens.olga, 'GET', `${w.base}/users`)).status).toBe(200)
      // a guest sees the organization but not its member list
      const org = await call(w.api, w.tokens.olga, 'GET', `/v1/orgs/${w.org.id}`)
      expect(org.body.permissions).toMatchObject({ view: true, listMembers: false })
    })

    it('re-inviting updates the role and keeps the grant in place; duplicates count once', async () => {
      const w = await setup()
      await call(w.api, w.tokens.ada, 'POST', w.base, { role: 'read', users: [w.users.gina.id, w.users.rita.id] })
      const res = await call(w.api, w.tokens.ada, 'POST', w.base, { role: 'review', users: [w.users.gina.id, w.users.gina.id] })
      expect(res.status).toBe(204)
      expect(grantsOf(w, w.space.id).map((g) => g.role)).toEqual(['review', 'read'])
      expect(w.api.store.read((tx) => tx.count('members', 'byOrganization', w.org.id))).toBe(3)
    })

    it('invites teams of the organization', async () => {
      const w = await setup()
      const team = await createTeam(w, w.org.id, 'Writers', [w.users.gina.id])
      const res = await call(w.api, w.tokens.ada, 'POST', w.base, { role: 'comment', teams: [team.id], users: [w.users.rita.id] })
      expect(res.status).toBe(204)
      expect(grantsOf(w, w.space.id)).toEqual([
        { principal: { type: 'user', user: w.users.rita.id }, role: 'comment' },
        { principal: { type: 'team', team: team.id }, role: 'comment' },
      ])
      const teams = await call(w.api, w.tokens.ada, 'GET', `${w.base}/teams`)
      expect(teams.body).toMatchObject({
        count: 1,
        items: [{ permission: 'comment', team: { object: 'team', id: team.id, title: 'Writers', members: 1, spaces: 1 } }],
      })
    })

    it('role null removes the listed grants and adds nobody to the organization', async () => {
      const w = await setup()
      await w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'edit')
      const res = await call(w.api, w.tokens.ada, 'POST', w.base, { role: null, users: [w.users.gina.id, w.users.olga.id] })
      expect(res.status).toBe(404) // olga is not a member: nothing to remove, and the whole request fails
      expect(grantsOf(w, w.space.id)).toHaveLength(1)
      expect((await call(w.api, w.tokens.ada, 'POST', w.base, { role: null, users: [w.users.gina.id] })).status).toBe(204)
      expect(grantsOf(w, w.space.id)).toEqual([])
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.olga.id}`))).toBeUndefined()
    })

    it('fails whole on an unknown user or a team of another organization (nothing written)', async () => {
      const w = await setup()
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.olga.id, role: 'admin' }] })
      const foreign = await createTeam(w, other.id, 'Foreign', [])
      const unknownUser = await call(w.api, w.tokens.ada, 'POST', w.base, { role: 'edit', users: [w.users.olga.id, 'nobody'] })
      expect(unknownUser.status).toBe(404)
      expect(unknownUser.body.error).toEqual({ code: 404, message: 'User nobody not found' })
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.olga.id}`))).toBeUndefined()
      const foreignTeam = await call(w.api, w.tokens.ada, 'POST', w.base, { role: 'edit', users: [w.users.gina.id], teams: [foreign.id] })
      expect(foreignTeam.status).toBe(404)
      expect(foreignTeam.body.error.message).toBe(`Team ${foreign.id} not found`)
      expect(grantsOf(w, w.space.id)).toEqual([])
    })

    it.each([
      [{ users: ['x'] }, 'body field `role`: is required'],
      [{ role: 'owner', users: ['x'] }, 'body field `role`'],
      [{ role: 'edit' }, 'body: must have `users` or `teams` (or both)'],
      [{ role: 'edit', users: [] }, 'body field `users`: must have at least 1 item'],
      [{ role: 'edit', teams: [] }, 'body field `teams`: must have at least 1 item'],
      [{ role: 'edit', users: 'abc' }, 'body field `users`: must be an array of ids'],
      [{ role: 'edit', users: [''] }, 'body field `users[0]`: must not be empty'],
      [{ role: 'edit', teams: [42] }, 'body field `teams[0]`'],
    ])('rejects %j', async (body, message) => {
      const w = await setup()
      const res = await call(w.api, w.tokens.ada, 'POST', w.base, body)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toContain(message)
      expect(grantsOf(w, w.space.id)).toEqual([])
    })

    it('needs a body', async () => {
      const w = await setup()
      const res = await call(w.api, w.tokens.ada, 'POST', w.base)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toContain('body is required')
    })

    it('401 without a token, 403 for a reader, 404 for an outsider, a missing or a deleted space', async () => {
      const w = await setup()
      const body = { role: 'admin', users: [w.users.rita.id] }
      expect((await call(w.api, undefined, 'POST', w.base, body)).status).toBe(401)
      const reader = await call(w.api, w.tokens.rita, 'POST', w.base, body)
      expect(reader.status).toBe(403)
      const outsider = await call(w.api, w.tokens.olga, 'POST', w.base, body)
      expect(outsider.status).toBe(404)
      expect(outsider.body.error.message).toBe('Space not found')
      expect((await call(w.api, w.tokens.ada, 'POST', '/v1/spaces/missing/permissions', body)).status).toBe(404)
      w.api.system((ctx) => ctx.tx.update('spaces', { ...ctx.tx.get('spaces', w.space.id)!, deletedAt: ctx.nowIso() }))
      expect((await call(w.api, w.tokens.ada, 'POST', w.base, body)).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/users`)).status).toBe(404)
      expect(grantsOf(w, w.space.id)).toEqual([])
    })
  })

  describe('GET /v1/spaces/{spaceId}/permissions/users', () => {
    it('pages in grant order with a cursor that survives inserts and deletes', async () => {
      const w = await setup()
      const users = []
      for (let i = 0; i < 5; i++) users.push(await w.api.fixtures.createUser({ displayName: `User ${i}` }))
      for (const u of users) await w.api.fixtures.grantSpace(w.space.id, { user: u.id }, 'read')
      const first = await call(w.api, w.tokens.rita, 'GET', `${w.base}/users?limit=2`)
      expect(first.body.count).toBe(5)
      expect(first.body.items.map((i: any) => i.user.displayName)).toEqual(['User 0', 'User 1'])
      // remove the last user served and one not yet served, add a new one: the next page follows on
      await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/users/${users[1]!.id}`)
      await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/users/${users[2]!.id}`)
      await call(w.api, w.tokens.ada, 'POST', w.base, { role: 'admin', users: [w.users.gina.id] })
      const second = await call(w.api, w.tokens.rita, 'GET', `${w.base}/users?limit=2&page=${first.body.next.page}`)
      expect(second.body.count).toBe(4)
      expect(second.body.items.map((i: any) => i.user.displayName)).toEqual(['User 3', 'User 4'])
      const third = await call(w.api, w.tokens.rita, 'GET', `${w.base}/users?limit=2&page=${second.body.next.page}`)
      expect(third.body.items.map((i: any) => [i.user.id, i.permission])).toEqual([[w.users.gina.id, 'admin']])
      expect(third.body.next).toBeUndefined()
    })

    it('lists only users (teams have their own list), empty for a space without grants', async () => {
      const w = await setup()
      const empty = await call(w.api, w.tokens.ada, 'GET', `${w.base}/users`)
      expect(empty.body).toEqual({ items: [], count: 0 })
      const team = await createTeam(w, w.org.id, 'T', [])
      await w.api.fixtures.grantSpace(w.space.id, { team: team.id }, 'edit')
      expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/users`)).body.count).toBe(0)
      expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/teams`)).body.count).toBe(1)
    })

    it('validates paging and needs access to the space', async () => {
      const w = await setup()
      const bad = await call(w.api, w.tokens.ada, 'GET', `${w.base}/users?limit=1001`)
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toContain('query parameter `limit`: must be at most 1000')
      expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/users?page=garbage`)).status).toBe(400)
      expect((await call(w.api, undefined, 'GET', `${w.base}/users`)).status).toBe(401)
      expect((await call(w.api, w.tokens.gina, 'GET', `${w.base}/users`)).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'GET', `${w.base}/teams`)).status).toBe(404)
    })

    it('a public or unlisted space does not reveal its grants to callers who read it only through its visibility', async () => {
      const w = await setup()
      await w.api.fixtures.grantSpace(w.space.id, { user: w.users.rita.id }, 'edit')
      const team = await createTeam(w, w.org.id, 'Writers', [w.users.rita.id])
      await w.api.fixtures.grantSpace(w.space.id, { team: team.id }, 'comment')
      for (const visibility of ['public', 'unlisted'] as const) {
        await w.api.system((ctx) => ctx.tx.update('spaces', { ...ctx.tx.get('spaces', w.space.id)!, visibility }))
        for (const token of [w.tokens.olga, w.tokens.gina]) {
          // They read the space itself...
          const space = await call(w.api, token, 'GET', `/v1/spaces/${w.space.id}`)
          expect(space.status, visibility).toBe(200)
          expect(space.body.permissions).toMatchObject({ view: true, admin: false })
          // ...but who it is shared with needs a role in the organization or a grant on the space.
          for (const list of ['users', 'teams']) {
            const res = await call(w.api, token, 'GET', `${w.base}/${list}`)
            expect(res.status, `${visibility} ${list}`).toBe(403)
            expect(res.body.error.message).toBe('You need the read role on this space to do this')
            expect(JSON.stringify(res.body)).not.toContain('rita@acme.test')
          }
        }
        // A member with a role, and a guest with a grant on the space, list them.
        expect((await call(w.api, w.tokens.rita, 'GET', `${w.base}/users`)).body.count).toBe(1)
        await w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'read')
        expect((await call(w.api, w.tokens.gina, 'GET', `${w.base}/teams`)).body.count).toBe(1)
        await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/users/${w.users.gina.id}`)
      }
    })
  })

  describe('PATCH /v1/spaces/{spaceId}/permissions/users/{userId}', () => {
    it("sets a member's role, and null removes it", async () => {
      const w = await setup()
      const path = `${w.base}/users/${w.users.gina.id}`
      expect((await call(w.api, w.tokens.ada, 'PATCH', path, { role: 'comment' })).status).toBe(204)
      expect(grantsOf(w, w.space.id)).toEqual([{ principal: { type: 'user', user: w.users.gina.id }, role: 'comment' }])
      expect((await call(w.api, w.tokens.ada, 'PATCH', path, { role: 'admin' })).status).toBe(204)
      expect(grantsOf(w, w.space.id)[0]!.role).toBe('admin')
      // gina is now admin of the space and can manage it herself
      expect((await call(w.api, w.tokens.gina, 'PATCH', `${w.base}/users/${w.users.rita.id}`, { role: 'edit' })).status).toBe(204)
      expect((await call(w.api, w.tokens.ada, 'PATCH', path, { role: null })).status).toBe(204)
      expect(grantsOf(w, w.space.id)).toEqual([{ principal: { type: 'user', user: w.users.rita.id }, role: 'edit' }])
      expect((await call(w.api, w.tokens.gina, 'GET', `${w.base}/users`)).status).toBe(404)
    })

    it('404 for a user outside the organization or unknown; 400 on a bad role; 403 and 404 by access', async () => {
      const w = await setup()
      const outsider = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/users/${w.users.olga.id}`, { role: 'read' })
      expect(outsider.status).toBe(404)
      expect(outsider.body.error.message).toContain('not a member')
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/users/nobody`, { role: 'read' })).status).toBe(404)
      const missing = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/users/${w.users.gina.id}`, {})
      expect(missing.status).toBe(400)
      expect(missing.body.error.message).toContain('body field `role`: is required')
      const bad = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/users/${w.users.gina.id}`, { role: 'guest' })
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toContain('body field `role`')
      expect((await call(w.api, w.tokens.rita, 'PATCH', `${w.base}/users/${w.users.gina.id}`, { role: 'read' })).status).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'PATCH', `${w.base}/users/${w.users.gina.id}`, { role: 'admin' })).status).toBe(404)
      expect((await call(w.api, undefined, 'PATCH', `${w.base}/users/${w.users.gina.id}`, { role: 'read' })).status).toBe(401)
      expect(grantsOf(w, w.space.id)).toEqual([])
    })
  })

  describe('DELETE /v1/spaces/{spaceId}/permissions/users/{userId}', () => {
    it('removes the grant, and answers 204 also when there was none', async () => {
      const w = await setup()
      await w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'read')
      const path = `${w.base}/users/${w.users.gina.id}`
      const res = await call(w.api, w.tokens.ada, 'DELETE', path)
      expect(res.status).toBe(204)
      expect(res.body).toBeUndefined()
      expect(grantsOf(w, w.space.id)).toEqual([])
      expect((await call(w.api, w.tokens.ada, 'DELETE', path)).status).toBe(204)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/users/nobody`)).status).toBe(204)
      // the guest is still a guest of the organization: removing a space grant is not removing a member
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.gina.id}`))).toBeDefined()
    })

    it('answers 404 on a trashed space and keeps the grant', async () => {
      const w = await setup()
      const team = await createTeam(w, w.org.id, 'Writers', [w.users.rita.id])
      await w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'edit')
      await w.api.fixtures.grantSpace(w.space.id, { team: team.id }, 'read')
      await w.api.fixtures.deleteSpace(w.space.id)
      const before = grantsOf(w, w.space.id)
      expect(before).toHaveLength(2)
      const res = await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/users/${w.users.gina.id}`)
      expect(res.status).toBe(404)
      expect(res.body.error).toEqual({ code: 404, message: 'Space not found' })
      expect(w.api.store.read((tx) => tx.get('spaceGrants', `${w.space.id}/user:${w.users.gina.id}`))).toMatchObject({ role: 'edit' })
      const teamRes = await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/teams/${team.id}`)
      expect(teamRes.status).toBe(404)
      expect(grantsOf(w, w.space.id)).toEqual(before)
      // Restored, the space comes back with the grant: gina edits it again.
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/restore`)).status).toBe(200)
      expect((await call(w.api, w.tokens.gina, 'GET', `/v1/spaces/${w.space.id}`)).body.permissions.edit).toBe(true)
    })

    it('needs the admin role on the space', async () => {
      const w = await setup()
      await w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'edit')
      const path = `${w.base}/users/${w.users.gina.id}`
      expect((await call(w.api, w.tokens.gina, 'DELETE', path)).status).toBe(403)
      expect((await call(w.api, w.tokens.rita, 'DELETE', path)).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'DELETE', path)).status).toBe(404)
      expect((await call(w.api, undefined, 'DELETE', path)).status).toBe(401)
      expect(grantsOf(w, w.space.id)).toHaveLength(1)
    })
  })

  describe('team permissions', () => {
    it('lists, updates and removes team grants', async () => {
      const w = await setup()
      const a = await createTeam(w, w.org.id, 'Alpha', [])
      const b = await createTeam(w, w.org.id, 'Beta', [w.users.rita.id])
      await w.api.fixtures.grantSpace(w.space.id, { team: a.id }, 'read')
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/teams/${b.id}`, { role: 'edit' })).status).toBe(204)
      const page1 = await call(w.api, w.tokens.rita, 'GET', `${w.base}/teams?limit=1`)
      expect(page1.body).toMatchObject({ count: 2, items: [{ permission: 'read', team: { id: a.id, members: 0 } }] })
      const page2 = await call(w.api, w.tokens.rita, 'GET', `${w.base}/teams?limit=1&page=${page1.body.next.page}`)
      expect(page2.body.items).toMatchObject([{ permission: 'edit', team: { id: b.id, title: 'Beta', members: 1, spaces: 1 } }])
      expect(page2.body.next).toBeUndefined()
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/teams/${a.id}`, { role: null })).status).toBe(204)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/teams/${b.id}`)).status).toBe(204)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/teams/${b.id}`)).status).toBe(204)
      expect(grantsOf(w, w.space.id)).toEqual([])
    })

    it('404 for a team of another organization; 400 on a bad role; 403 and 401 by access', async () => {
      const w = await setup()
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.olga.id, role: 'admin' }] })
      const foreign = await createTeam(w, other.id, 'Foreign', [])
      const team = await createTeam(w, w.org.id, 'Own', [])
      const res = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/teams/${foreign.id}`, { role: 'read' })
      expect(res.status).toBe(404)
      expect(res.body.error.message).toBe(`Team ${foreign.id} not found`)
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/teams/${team.id}`, { role: 'boss' })).status).toBe(400)
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/teams/${team.id}`, 'not json')).status).toBe(400)
      expect((await call(w.api, w.tokens.rita, 'PATCH', `${w.base}/teams/${team.id}`, { role: 'read' })).status).toBe(403)
      expect((await call(w.api, w.tokens.rita, 'DELETE', `${w.base}/teams/${team.id}`)).status).toBe(403)
      expect((await call(w.api, undefined, 'DELETE', `${w.base}/teams/${team.id}`)).status).toBe(401)
      expect(grantsOf(w, w.space.id)).toEqual([])
    })
  })

  describe('grants change effective access end to end', () => {
    it('a guest: 404, then edit (not admin) after the invite, then 404 again after removal', async () => {
      const w = await setup()
      const space = `/v1/spaces/${w.space.id}`
      expect((await call(w.api, w.tokens.gina, 'GET', space)).status).toBe(404)
      await call(w.api, w.tokens.ada, 'POST', w.base, { role: 'edit', users: [w.users.gina.id] })
      const got = await call(w.api, w.tokens.gina, 'GET', space)
      expect(got.status).toBe(200)
      expect(got.body.permissions).toMatchObject({ view: true, comment: true, edit: true, review: false, admin: false })
      await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/users/${w.users.gina.id}`)
      expect((await call(w.api, w.tokens.gina, 'GET', space)).status).toBe(404)
    })

    it('a team grant gives its members access, and removing it takes the access away', async () => {
      const w = await setup()
      const space = `/v1/spaces/${w.space.id}`
      const team = await createTeam(w, w.org.id, 'Writers', [w.users.gina.id])
      await call(w.api, w.tokens.ada, 'POST', w.base, { role: 'review', teams: [team.id] })
      const got = await call(w.api, w.tokens.gina, 'GET', space)
      expect(got.status).toBe(200)
      expect(got.body.permissions).toMatchObject({ edit: true, review: true, merge: true, admin: false })
      // a direct grant and a team grant: the stronger wins
      await w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'read')
      expect((await call(w.api, w.tokens.gina, 'GET', space)).body.permissions.review).toBe(true)
      await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/teams/${team.id}`)
      expect((await call(w.api, w.tokens.gina, 'GET', space)).body.permissions).toMatchObject({ view: true, edit: false })
      await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/users/${w.users.gina.id}`)
      expect((await call(w.api, w.tokens.gina, 'GET', space)).status).toBe(404)
    })

    it('an admin grant lets a reader manage the space', async () => {
      const w = await setup()
      expect((await call(w.api, w.tokens.rita, 'POST', w.base, { role: 'read', users: [w.users.gina.id] })).status).toBe(403)
      await w.api.fixtures.grantSpace(w.space.id, { user: w.users.rita.id }, 'admin')
      expect((await call(w.api, w.tokens.rita, 'POST', w.base, { role: 'read', users: [w.users.gina.id] })).status).toBe(204)
      expect(w.api.store.read((tx) => tx.get('spaceGrants', `${w.space.id}/user:${w.users.gina.id}`)?.role)).toBe('read')
      expect((await call(w.api, w.tokens.gina, 'GET', `${w.base}/users`)).status).toBe(200)
    })
  })

  describe('fixture grantSpace', () => {
    it('refuses a guest role and a team of another organization', async () => {
      const w = await setup()
      await expect(w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'guest' as never)).rejects.toThrow('role')
      const other = await w.api.fixtures.createOrganization({ title: 'Other' })
      const foreign = await createTeam(w, other.id, 'Foreign', [])
      await expect(w.api.fixtures.grantSpace(w.space.id, { team: foreign.id }, 'read')).rejects.toThrow('not found')
      expect(grantsOf(w, w.space.id)).toEqual([])
    })
  })
})
