import { describe, expect, it } from 'vitest'
import { call, createWorld, type World } from '../../helpers.js'

const teams = (w: World) => `/v1/orgs/${w.org.id}/teams`

const teamRows = (w: World) => w.api.store.read((tx) => tx.scan('teams', 'byOrganization', w.org.id).map((e) => e.row))
const teamMemberRows = (w: World) => w.api.store.read((tx) => tx.all('teamMembers'))

describe('teams', () => {
  describe('PUT /v1/orgs/{organizationId}/teams', () => {
    it('creates a team with its members; the creator, when listed, becomes its owner', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'PUT', teams(w), { title: 'Writers', members: [w.users.rita.id, w.users.ada.id, w.users.rita.id] })
      expect(res.status).toBe(201)
      expect(res.body).toEqual({
        object: 'team',
        id: expect.any(String),
        title: 'Writers',
        members: 2,
        spaces: 0,
        createdAt: '2026-03-01T10:00:00.000Z',
        permissions: { admin: true, view: true },
      })
      w.api.store.read((tx) => {
        expect(tx.get('teamMembers', `${res.body.id}/${w.users.ada.id}`)?.role).toBe('owner')
        expect(tx.get('teamMembers', `${res.body.id}/${w.users.rita.id}`)?.role).toBe('member')
      })
      const empty = await call(w.api, w.tokens.ada, 'PUT', teams(w), { title: 'Empty' })
      expect(empty.body.members).toBe(0)
      expect((await call(w.api, w.tokens.ada, 'GET', teams(w))).body.count).toBe(2)
      // A guest may be put in a team.
      const guests = await call(w.api, w.tokens.ada, 'PUT', teams(w), { title: 'Guests', members: [w.users.gina.id] })
      expect(w.api.store.read((tx) => tx.get('teamMembers', `${guests.body.id}/${w.users.gina.id}`)?.role)).toBe('member')
    })

    it('writes nothing when a member half-way through the list is not in the organization', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'PUT', teams(w), { title: 'Half', members: [w.users.rita.id, w.users.olga.id] })
      expect(res.status).toBe(400)
      expect(res.body.error).toEqual({
        code: 400,
        message: `Invalid request: body field \`members[1]\`: ${w.users.olga.id} is not a member of the organization`,
      })
      expect((await call(w.api, w.tokens.ada, 'GET', teams(w))).body).toEqual({ items: [], count: 0 })
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/members/${w.users.rita.id}/teams`)).body.count).toBe(0)
      expect(teamRows(w)).toEqual([])
      expect(teamMemberRows(w)).toEqual([])
      expect(w.api.store.read((tx) => tx.all('teams'))).toEqual([])
    })

    it.each([
      [{}, 'body field `title`: is required'],
      [{ title: '' }, 'body field `title`: must be at least 1 character'],
      [{ title: 'x'.repeat(65) }, 'body field `title`: must be at most 64 characters'],
      [{ title: 5 }, 'body field `title`'],
      [{ title: 'T', members: 'id1' }, 'body field `members`'],
      [{ title: 'T', members: [''] }, 'body field `members[0]`: must not be empty'],
      [{ title: 'T', members: ['missing-user'] }, 'body field `members[0]`: missing-user is not a member of the organization'],
      [undefined, 'body is required'],
    ])('rejects %j', async (body, message) => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'PUT', teams(w), body)
      expect(res.status).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining(message) })
      expect(teamRows(w)).toEqual([])
    })

    it('needs the admin role: 403 for a reader, 404 for an outsider, 401 without a token', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.rita, 'PUT', teams(w), { title: 'Mine' })).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'PUT', teams(w), { title: 'Mine' })).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'PUT', '/v1/orgs/missing/teams', { title: 'Mine' })).status).toBe(404)
      expect((await call(w.api, undefined, 'PUT', teams(w), { title: 'Mine' })).status).toBe(401)
      expect(teamRows(w)).toEqual([])
    })
  })

  describe('GET /v1/orgs/{organizationId}/teams', () => {
    it('lists teams by title, filtered by title text and by who can manage them', async () => {
      const w = await createWorld()
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const docs = await w.api.fixtures.createTeam(w.org.id, { title: 'docs', owners: [w.users.rita.id] })
      const api = await w.api.fixtures.createTeam(w.org.id, { title: 'API', members: [w.users.rita.id] })
      const design = await w.api.fixtures.createTeam(w.org.id, { title: 'Design Docs', owners: [w.users.gina.id] })
      await w.api.fixtures.createTeam(other.id, { title: 'Other docs' })
      const list = async (q = '') => (await call(w.api, w.tokens.rita, 'GET', `${teams(w)}${q}`)).body
      const all = await list()
      expect(all.count).toBe(3)
      expect(all.items.map((t: any) => t.id)).toEqual([api.id, design.id, docs.id])
      expect(all.items[0]).toMatchObject({ title: 'API', members: 1, permissions: { view: true, admin: false } })
      // Rita owns `docs`: she may manage it, and the team says so.
      expect(all.items[2].permissions).toEqual({ view: true, admin: true })
      expect((await list('?title=DOCS')).items.map((t: any) => t.id)).toEqual([design.id, docs.id])
      expect((await list(`?owner=${w.users.rita.id}`)).items.map((t: any) => t.id)).toEqual([docs.id])
      expect((await list(`?owner=${w.users.gina.id}`)).items.map((t: any) => t.id)).toEqual([design.id])
      expect((await list(`?owner=${w.users.ada.id}`)).count).toBe(3)
      expect((await list(`?owner=${w.users.ada.id}&title=api`)).items.map((t: any) => t.id)).toEqual([api.id])
      expect(await list(`?owner=${w.users.olga.id}`)).toEqual({ items: [], count: 0 })
    })

    it('sorts titles case-insensitively', async () => {
      const w = await createWorld()
      const beta = await w.api.fixtures.createTeam(w.org.id, { title: 'Beta' })
      const alpha = await w.api.fixtures.createTeam(w.org.id, { title: 'alpha' })
      const gamma = await w.api.fixtures.createTeam(w.org.id, { title: 'Gamma' })
      const all = await call(w.api, w.tokens.ada, 'GET', teams(w))
      expect(all.body.items.map((t: any) => t.title)).toEqual(['alpha', 'Beta', 'Gamma'])
      const first = await call(w.api, w.tokens.ada, 'GET', `${teams(w)}?limit=1`)
      expect(first.body.items.map((t: any) => t.id)).toEqual([alpha.id])
      const rest = await call(w.api, w.tokens.ada, 'GET', `${teams(w)}?limit=5&page=${first.body.next.page}`)
      expect(rest.body.items.map((t: any) => t.id)).toEqual([beta.id, gamma.id])
    })

    it('lists nothing for ?owner= a disabled member, even one who owns a team', async () => {
      const w = await createWorld()
      const owned = await w.api.fixtures.createTeam(w.org.id, { title: 'Owned', owners: [w.users.rita.id] })
      await w.api.fixtures.createTeam(w.org.id, { title: 'Other' })
      const path = `${teams(w)}?owner=${w.users.rita.id}`
      expect((await call(w.api, w.tokens.ada, 'GET', path)).body.items.map((t: any) => t.id)).toEqual([owned.id])
      w.api.system((ctx) => {
        const member = ctx.tx.get('members', `${w.org.id}/${w.users.rita.id}`)!
        ctx.tx.update('members', { ...member, disabled: true })
      })
      const res = await call(w.api, w.tokens.ada, 'GET', path)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ items: [], count: 0 })
    })

    it('pages with a cursor that survives inserts and deletes between pages', async () => {
      const w = await createWorld()
      for (let i = 0; i < 30; i++) await w.api.fixtures.createTeam(w.org.id, { title: `Team ${String(i).padStart(2, '0')}` })
      const first = await call(w.api, w.tokens.ada, 'GET', `${teams(w)}?limit=10`)
      expect(first.body.items.map((t: any) => t.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Team 0${i}`))
      const byTitle = new Map(teamRows(w).map((t) => [t.title, t.id]))
      await call(w.api, w.tokens.ada, 'PUT', teams(w), { title: 'Team 05b' }) // before the cursor: not served
      await call(w.api, w.tokens.ada, 'PUT', teams(w), { title: 'Team 15b' }) // after: served
      await call(w.api, w.tokens.ada, 'DELETE', `${teams(w)}/${byTitle.get('Team 10')}`)
      await call(w.api, w.tokens.ada, 'DELETE', `${teams(w)}/${byTitle.get('Team 03')}`)
      const titles: string[] = []
      let page = first.body.next.page
      while (page) {
        const res = await call(w.api, w.tokens.ada, 'GET', `${teams(w)}?limit=10&page=${page}`)
        expect(res.body.count).toBe(30)
        titles.push(...res.body.items.map((t: any) => t.title))
        page = res.body.next?.page
      }
      const expected = Array.from({ length: 20 }, (_, i) => `Team ${i + 10}`).filter((t) => t !== 'Team 10')
      expected.splice(expected.indexOf('Team 16'), 0, 'Team 15b')
      expect(titles).toEqual(expected)
    })

    it('needs the read role: 403 for a guest, 404 for an outsider, 400 for a bad limit, 401 without a token', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.gina, 'GET', teams(w))).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'GET', teams(w))).status).toBe(404)
      const bad = await call(w.api, w.tokens.ada, 'GET', `${teams(w)}?limit=2000`)
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toContain('query parameter `limit`: must be at most 1000')
      expect((await call(w.api, undefined, 'GET', teams(w))).status).toBe(401)
    })
  })

  describe('GET /v1/orgs/{organizationId}/teams/{teamId}', () => {
    it('gets a team of the organization, with its member and space counters', async () => {
      const w = await createWorld()
      const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', members: [w.users.rita.id, w.users.gina.id] })
      const live = await w.api.fixtures.createSpace(w.org.id, { title: 'Live' })
      const gone = await w.api.fixtures.createSpace(w.org.id, { title: 'Gone' })
      await w.api.fixtures.grantSpace(live.id, { team: team.id }, 'edit')
      await w.api.fixtures.grantSpace(gone.id, { team: team.id }, 'read')
      w.api.system((ctx) => ctx.tx.update('spaces', { ...ctx.tx.get('spaces', gone.id)!, deletedAt: ctx.nowIso() }))
      const res = await call(w.api, w.tokens.rita, 'GET', `${teams(w)}/${team.id}`)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: team.id, title: 'Writers', members: 2, spaces: 1, permissions: { admin: false, view: true } })
      // A guest may read a team they belong to, not the others.
      expect((await call(w.api, w.tokens.gina, 'GET', `${teams(w)}/${team.id}`)).status).toBe(200)
      const solo = await w.api.fixtures.createTeam(w.org.id, { title: 'Solo' })
      expect((await call(w.api, w.tokens.gina, 'GET', `${teams(w)}/${solo.id}`)).status).toBe(403)
    })

    it('answers 404 for a missing team, a team of another organization and an outsider', async () => {
      const w = await createWorld()
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const theirs = await w.api.fixtures.createTeam(other.id, { title: 'Theirs' })
      const ours = await w.api.fixtures.createTeam(w.org.id, { title: 'Ours' })
      const missing = await call(w.api, w.tokens.ada, 'GET', `${teams(w)}/nope`)
      expect(missing.status).toBe(404)
      expect(missing.body.error.message).toBe('Team not found')
      expect((await call(w.api, w.tokens.ada, 'GET', `${teams(w)}/${theirs.id}`)).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'GET', `${teams(w)}/${ours.id}`)).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', `${teams(w)}/${ours.id}`)).status).toBe(401)
    })
  })

  describe('PATCH /v1/orgs/{organizationId}/teams/{teamId}', () => {
    it('renames a team: organization admins and the team owners may, others may not', async () => {
      const w = await createWorld()
      const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', owners: [w.users.rita.id], members: [w.users.gina.id] })
      const admin = await call(w.api, w.tokens.ada, 'PATCH', `${teams(w)}/${team.id}`, { title: 'Authors' })
      expect(admin.status).toBe(200)
      expect(admin.body).toMatchObject({ id: team.id, title: 'Authors', members: 2 })
      const owner = await call(w.api, w.tokens.rita, 'PATCH', `${teams(w)}/${team.id}`, { title: 'Scribes' })
      expect(owner.status).toBe(200)
      expect(owner.body.permissions).toEqual({ admin: true, view: true })
      const member = await call(w.api, w.tokens.gina, 'PATCH', `${teams(w)}/${team.id}`, { title: 'Mine' })
      expect(member.status).toBe(403)
      expect(w.api.store.read((tx) => tx.get('teams', team.id))?.title).toBe('Scribes')
      const other = await w.api.fixtures.createTeam(w.org.id, { title: 'Other' })
      expect((await call(w.api, w.tokens.rita, 'PATCH', `${teams(w)}/${other.id}`, { title: 'Taken' })).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'PATCH', `${teams(w)}/${team.id}`, { title: 'X' })).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${teams(w)}/missing`, { title: 'X' })).status).toBe(404)
      expect((await call(w.api, undefined, 'PATCH', `${teams(w)}/${team.id}`, { title: 'X' })).status).toBe(401)
    })

    it.each([
      [{}, 'body field `title`: is required'],
      [{ title: '' }, 'body field `title`: must be at least 1 character'],
      [{ title: 'y'.repeat(65) }, 'body field `title`: must be at most 64 characters'],
      [undefined, 'body is required'],
    ])('rejects %j', async (body, message) => {
      const w = await createWorld()
      const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers' })
      const res = await call(w.api, w.tokens.ada, 'PATCH', `${teams(w)}/${team.id}`, body)
      expect(res.status).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining(message) })
      expect(w.api.store.read((tx) => tx.get('teams', team.id))?.title).toBe('Writers')
    })
  })

  describe('DELETE /v1/orgs/{organizationId}/teams/{teamId}', () => {
    it('deletes the team with its memberships and space grants, and answers 204 again', async () => {
      const w = await createWorld()
      const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', members: [w.users.rita.id, w.users.gina.id] })
      const keep = await w.api.fixtures.createTeam(w.org.id, { title: 'Keep', members: [w.users.rita.id] })
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
      await w.api.fixtures.grantSpace(space.id, { team: team.id }, 'edit')
      await w.api.fixtures.grantSpace(space.id, { team: keep.id }, 'read')
      const rita = `/v1/orgs/${w.org.id}/members/${w.users.rita.id}`
      expect((await call(w.api, w.tokens.ada, 'GET', rita)).body.teams).toBe(2)
      const res = await call(w.api, w.tokens.ada, 'DELETE', `${teams(w)}/${team.id}`)
      expect(res.status).toBe(204)
      expect(res.body).toBeUndefined()
      expect((await call(w.api, w.tokens.ada, 'GET', `${teams(w)}/${team.id}`)).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'GET', rita)).body.teams).toBe(1)
      expect((await call(w.api, w.tokens.ada, 'GET', `${teams(w)}/${keep.id}`)).body).toMatchObject({ members: 1, spaces: 1 })
      w.api.store.read((tx) => {
        expect(tx.get('spaceGrants', `${space.id}/team:${team.id}`)).toBeUndefined()
        expect(tx.count('teamMembers', 'byTeam', team.id)).toBe(0)
        expect(tx.get('spaceGrants', `${space.id}/team:${keep.id}`)).toBeDefined()
      })
      expect((await call(w.api, w.tokens.ada, 'DELETE', `${teams(w)}/${team.id}`)).status).toBe(204)
    })

    it('needs the admin role, and leaves teams of another organization alone', async () => {
      const w = await createWorld()
      const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', owners: [w.users.rita.id] })
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const theirs = await w.api.fixtures.createTeam(other.id, { title: 'Theirs' })
      // Owning a team allows renaming it, not deleting it.
      expect((await call(w.api, w.tokens.rita, 'DELETE', `${teams(w)}/${team.id}`)).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'DELETE', `${teams(w)}/${team.id}`)).status).toBe(404)
      expect((await call(w.api, undefined, 'DELETE', `${teams(w)}/${team.id}`)).status).toBe(401)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `${teams(w)}/${theirs.id}`)).status).toBe(204)
      w.api.store.read((tx) => {
        expect(tx.get('teams', team.id)).toBeDefined()
        expect(tx.get('teams', theirs.id)).toBeDefined()
      })
    })
  })

  describe('fixtures.createTeam', () => {
    it('refuses owners or members outside the organization and leaves nothing behind', async () => {
      const w = await createWorld()
      await expect(w.api.fixtures.createTeam(w.org.id, { title: 'Bad', owners: [w.users.olga.id] })).rejects.toThrow('not a member')
      await expect(w.api.fixtures.createTeam(w.org.id, { title: '' })).rejects.toThrow('`title`')
      await expect(w.api.fixtures.createTeam('missing', { title: 'T' })).rejects.toThrow('Organization not found')
      expect(w.api.store.read((tx) => tx.all('teams'))).toEqual([])
    })
  })
})
