import { describe, expect, it } from 'vitest'
import type { Role } from '../../../src/index.js'
import { call, createWorld, type World } from '../../helpers.js'

const MINUTE = 60_000

/** Add `n` members named `${prefix} 000`..., one minute apart, with the given role. */
async function addMembers(w: World, n: number, prefix = 'Member', role: Role | null = 'read') {
  const users = []
  for (let i = 0; i < n; i++) {
    w.clock.advance(MINUTE)
    const name = `${prefix} ${String(i).padStart(3, '0')}`
    const user = await w.api.fixtures.createUser({ displayName: name, email: `${name.replace(/\W/g, '').toLowerCase()}@acme.test` })
    await w.api.fixtures.addMember(w.org.id, user.id, role)
    users.push(user)
  }
  return users
}

/** Walk every page of a list; `between` runs after each page. */
async function walk(w: World, path: string, between?: (pageIndex: number) => Promise<void>, start?: string) {
  const ids: string[] = []
  const counts: number[] = []
  let page: string | undefined = start
  let i = 0
  do {
    const sep = path.includes('?') ? '&' : '?'
    const res = await call(w.api, w.tokens.ada, 'GET', page ? `${path}${sep}page=${page}` : path)
    expect(res.status).toBe(200)
    ids.push(...res.body.items.map((m: any) => m.id))
    counts.push(res.body.count)
    page = res.body.next?.page
    if (between) await between(i++)
  } while (page)
  return { ids, counts }
}

const members = (w: World) => `/v1/orgs/${w.org.id}/members`

describe('organization members', () => {
  describe('GET /v1/orgs/{organizationId}/members', () => {
    it('lists members newest first by default, each with user, role and counters', async () => {
      const w = await createWorld()
      const [m0, m1] = await addMembers(w, 2)
      const res = await call(w.api, w.tokens.rita, 'GET', members(w))
      expect(res.status).toBe(200)
      expect(res.body.count).toBe(5)
      expect(res.body.next).toBeUndefined()
      // joinedAt desc; the three world members joined at the same instant: user id desc breaks the tie.
      const world = [w.users.ada.id, w.users.rita.id, w.users.gina.id].sort().reverse()
      expect(res.body.items.map((m: any) => m.id)).toEqual([m1!.id, m0!.id, ...world])
      expect(res.body.items.find((m: any) => m.id === w.users.gina.id)).toEqual({
        object: 'member',
        id: w.users.gina.id,
        role: null,
        user: {
          object: 'user',
          id: w.users.gina.id,
          displayName: 'Gina Guest',
          email: 'gina@elsewhere.test',
          urls: { location: `http://localhost:4000/v1/users/${w.users.gina.id}` },
        },
        disabled: false,
        joinedAt: '2026-03-01T10:00:00.000Z',
        sso: false,
        spaces: 0,
        teams: 0,
        sites: 0,
      })
      const asc = await call(w.api, w.tokens.rita, 'GET', `${members(w)}?order=asc`)
      expect(asc.body.items.map((m: any) => m.id)).toEqual([...world].reverse().concat([m0!.id, m1!.id]))
    })

    it('filters by role (guest: no role) and by text in display name or email, case-insensitively', async () => {
      const w = await createWorld()
      await addMembers(w, 2, 'Editor', 'edit')
      const ids = async (q: string) => (await call(w.api, w.tokens.ada, 'GET', `${members(w)}?${q}`)).body
      expect((await ids('role=admin')).items.map((m: any) => m.id)).toEqual([w.users.ada.id])
      expect((await ids('role=guest')).items.map((m: any) => m.id)).toEqual([w.users.gina.id])
      expect((await ids('role=edit')).count).toBe(2)
      expect(await ids('role=review')).toEqual({ items: [], count: 0 })
      expect((await ids('search=GINA')).items.map((m: any) => m.id)).toEqual([w.users.gina.id])
      expect((await ids('search=elsewhere.TEST')).items.map((m: any) => m.id)).toEqual([w.users.gina.id])
      expect((await ids('search=acme.test')).count).toBe(4)
      expect((await ids('search=editor&role=edit')).count).toBe(2)
      expect((await ids('search=editor&role=read')).count).toBe(0)
    })

    it('sorts by name both ways, and by last activity listing only members seen at least once', async () => {
      const w = await createWorld()
      const byName = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?sort=name&order=asc`)
      expect(byName.body.items.map((m: any) => m.user.displayName)).toEqual(['Ada Lovelace', 'Gina Guest', 'Rita Reader'])
      const desc = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?sort=name`)
      expect(desc.body.items.map((m: any) => m.user.displayName)).toEqual(['Rita Reader', 'Gina Guest', 'Ada Lovelace'])
      expect((await call(w.api, w.tokens.ada, 'GET', `${members(w)}?sort=lastSeenAt`)).body).toEqual({ items: [], count: 0 })
      await call(w.api, w.tokens.gina, 'POST', `/v1/orgs/${w.org.id}/ping`)
      w.clock.advance(MINUTE)
      await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/ping`)
      const seen = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?sort=lastSeenAt`)
      expect(seen.body.count).toBe(2)
      expect(seen.body.items.map((m: any) => [m.id, m.lastSeenAt])).toEqual([
        [w.users.ada.id, '2026-03-01T10:01:00.000Z'],
        [w.users.gina.id, '2026-03-01T10:00:00.000Z'],
      ])
      const seenAsc = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?sort=lastSeenAt&order=asc`)
      expect(seenAsc.body.items.map((m: any) => m.id)).toEqual([w.users.gina.id, w.users.ada.id])
    })

    it('sorts by name case-insensitively, both ways', async () => {
      const w = await createWorld()
      const bob = await w.api.fixtures.createUser({ displayName: 'bob', email: 'bob@acme.test' })
      const carl = await w.api.fixtures.createUser({ displayName: 'Carl', email: 'carl@acme.test' })
      await w.api.fixtures.addMember(w.org.id, bob.id, 'read')
      await w.api.fixtures.addMember(w.org.id, carl.id, 'read')
      const asc = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?sort=name&order=asc`)
      expect(asc.status).toBe(200)
      expect(asc.body.items.map((m: any) => m.user.displayName)).toEqual(['Ada Lovelace', 'bob', 'Carl', 'Gina Guest', 'Rita Reader'])
      const desc = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?sort=name&order=desc`)
      expect(desc.body.items.map((m: any) => m.user.displayName)).toEqual(['Rita Reader', 'Gina Guest', 'Carl', 'bob', 'Ada Lovelace'])
      // Page by page, the cursor follows the same order.
      const first = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?sort=name&order=asc&limit=2`)
      expect(first.body.items.map((m: any) => m.user.displayName)).toEqual(['Ada Lovelace', 'bob'])
      const second = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?sort=name&order=asc&limit=2&page=${first.body.next.page}`)
      expect(second.body.items.map((m: any) => m.user.displayName)).toEqual(['Carl', 'Gina Guest'])
    })

    it('pages 120+ members by join time with a cursor that survives joins and removals between pages', async () => {
      const w = await createWorld()
      const added = await addMembers(w, 120)
      const before = (await walk(w, `${members(w)}?limit=1000`)).ids
      expect(before).toHaveLength(123)
      const removedUnseen = [added[10]!.id, added[50]!.id, added[51]!.id]
      const removedSeen = [added[119]!.id, added[100]!.id]
      const { ids, counts } = await walk(w, `${members(w)}?limit=25`, async (i) => {
        if (i !== 0) return
        // Newer members sort before the cursor (desc): they must not show up, nor shift the pages.
        await addMembers(w, 5, 'Late')
        for (const id of [...removedUnseen, ...removedSeen]) {
          expect((await call(w.api, w.tokens.ada, 'DELETE', `${members(w)}/${id}`)).status).toBe(204)
        }
      })
      expect(ids).toEqual(before.filter((id) => !removedUnseen.includes(id)))
      expect(new Set(ids).size).toBe(ids.length)
      expect(counts[0]).toBe(123)
      expect(counts[1]).toBe(123 + 5 - 5)
    })

    it('pages by name ascending: names inserted after the cursor show up, those before it do not', async () => {
      const w = await createWorld()
      await addMembers(w, 120)
      const first = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?sort=name&order=asc&limit=40`)
      expect(first.body.items.map((m: any) => m.user.displayName).slice(0, 4)).toEqual(['Ada Lovelace', 'Gina Guest', 'Member 000', 'Member 001'])
      const last = first.body.items.at(-1).user.displayName
      expect(last).toBe('Member 037')
      const [early] = await addMembers(w, 1, 'Aaron')
      const [late] = await addMembers(w, 1, 'Zed')
      const removed = (await call(w.api, w.tokens.ada, 'GET', `${members(w)}?search=member%20090`)).body.items[0].id
      await call(w.api, w.tokens.ada, 'DELETE', `${members(w)}/${removed}`)
      const rest = await walk(w, `${members(w)}?sort=name&order=asc&limit=40`, undefined, first.body.next.page)
      const names = rest.ids
      expect(names).toContain(late!.id)
      expect(names).not.toContain(early!.id)
      expect(names).not.toContain(removed)
      // The 83 not yet served (Member 038..119 and Rita), plus Zed, less Member 090.
      expect(names).toHaveLength(83 + 1 - 1)
      expect(new Set([...first.body.items.map((m: any) => m.id), ...names]).size).toBe(40 + names.length)
    })

    it('pages by name descending and by last activity', async () => {
      const w = await createWorld()
      const added = await addMembers(w, 30)
      for (const user of added.slice(0, 12)) {
        w.clock.advance(MINUTE)
        await call(w.api, await w.api.fixtures.createToken(user.id), 'POST', `/v1/orgs/${w.org.id}/ping`)
      }
      const seen = await walk(w, `${members(w)}?sort=lastSeenAt&limit=5`)
      expect(seen.ids).toEqual(
        added
          .slice(0, 12)
          .map((u) => u.id)
          .reverse(),
      )
      expect(seen.counts).toEqual([12, 12, 12])
      const names = await walk(w, `${members(w)}?sort=name&limit=7`)
      expect(names.ids).toEqual((await walk(w, `${members(w)}?sort=name&limit=1000`)).ids)
      expect(names.ids.slice(0, 2)).toEqual([w.users.rita.id, added[29]!.id])
    })

    it.each([
      ['limit=abc', 'query parameter `limit`: must be a whole number written in decimal digits'],
      ['limit=1001', 'query parameter `limit`: must be at most 1000'],
      ['limit=-1', 'query parameter `limit`: must be at least 0'],
      ['order=up', 'query parameter `order`'],
      ['role=owner', 'query parameter `role`: must be one of read, comment, edit, review, create, admin, guest'],
      ['sort=email', 'query parameter `sort`: must be one of joinedAt, lastSeenAt, name'],
      ['page=nonsense!', 'query parameter `page`'],
    ])('rejects %s with a 400 naming the parameter', async (q, message) => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?${q}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(message) } })
    })

    it('rejects a cursor made for another sort', async () => {
      const w = await createWorld()
      const first = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?limit=1`)
      const res = await call(w.api, w.tokens.ada, 'GET', `${members(w)}?sort=name&page=${first.body.next.page}`)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toContain('`page`')
    })

    it('needs the read role: 403 for a guest, 404 for an outsider or a missing organization, 401 without a token', async () => {
      const w = await createWorld()
      const guest = await call(w.api, w.tokens.gina, 'GET', members(w))
      expect(guest.status).toBe(403)
      expect(guest.body.error.code).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'GET', members(w))).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'GET', '/v1/orgs/missing/members')).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', members(w))).status).toBe(401)
    })
  })

  describe('GET /v1/orgs/{organizationId}/members/{userId}', () => {
    it('gets a member; a guest may get only their own membership', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.rita, 'GET', `${members(w)}/${w.users.ada.id}`)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ object: 'member', id: w.users.ada.id, role: 'admin', user: { displayName: 'Ada Lovelace' } })
      expect((await call(w.api, w.tokens.gina, 'GET', `${members(w)}/${w.users.gina.id}`)).body.role).toBeNull()
      expect((await call(w.api, w.tokens.gina, 'GET', `${members(w)}/${w.users.ada.id}`)).status).toBe(403)
      const missing = await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.olga.id}`)
      expect(missing.status).toBe(404)
      expect(missing.body.error.message).toBe('Member not found')
      expect((await call(w.api, w.tokens.olga, 'GET', `${members(w)}/${w.users.ada.id}`)).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', `${members(w)}/${w.users.ada.id}`)).status).toBe(401)
    })
  })

  describe('PATCH /v1/orgs/{organizationId}/members/{userId}', () => {
    it('changes the role; null makes a guest; no role leaves it unchanged', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.rita.id}`, { role: 'edit' })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: w.users.rita.id, role: 'edit' })
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.rita.id}`))?.role).toBe('edit')
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.rita.id}`, { role: null })).body.role).toBeNull()
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.rita.id}`, {})).body.role).toBeNull()
      // A guest now: listing members is no longer allowed.
      expect((await call(w.api, w.tokens.rita, 'GET', members(w))).status).toBe(403)
      expect((await call(w.api, w.tokens.ada, 'GET', `${members(w)}?role=guest`)).body.count).toBe(2)
    })

    it('refuses to demote the last admin, but lets an admin step down when another remains', async () => {
      const w = await createWorld()
      const last = await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.ada.id}`, { role: 'read' })
      expect(last.status).toBe(400)
      expect(last.body.error.message).toBe('Cannot demote the last admin of the organization: make another member admin first')
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.ada.id}`, { role: 'admin' })).status).toBe(200)
      await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.rita.id}`, { role: 'admin' })
      const down = await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.ada.id}`, { role: 'create' })
      expect(down.body.role).toBe('create')
      expect((await call(w.api, w.tokens.rita, 'PATCH', `${members(w)}/${w.users.rita.id}`, { role: null })).status).toBe(400)
    })

    it('counts only enabled admins: with the other admin disabled, the last enabled one can be neither demoted nor removed', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.rita.id}`, { role: 'admin' })).status).toBe(200)
      w.api.system((ctx) => {
        const member = ctx.tx.get('members', `${w.org.id}/${w.users.rita.id}`)!
        ctx.tx.update('members', { ...member, disabled: true })
      })
      const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Core', owners: [w.users.ada.id] })
      const snapshot = () => w.api.store.read((tx) => ({ members: tx.all('members'), teamMembers: tx.all('teamMembers') }))
      const before = snapshot()
      const demote = await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.ada.id}`, { role: 'read' })
      expect(demote.status).toBe(400)
      expect(demote.body.error.message).toBe('Cannot demote the last admin of the organization: make another member admin first')
      expect(snapshot()).toEqual(before)
      const remove = await call(w.api, w.tokens.ada, 'DELETE', `${members(w)}/${w.users.ada.id}`)
      expect(remove.status).toBe(400)
      expect(remove.body.error.message).toBe('Cannot remove the last admin of the organization: make another member admin first')
      expect(snapshot()).toEqual(before)
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.ada.id}`))).toMatchObject({ role: 'admin', disabled: false })
      expect(w.api.store.read((tx) => tx.get('teamMembers', `${team.id}/${w.users.ada.id}`))).toBeDefined()
    })

    it.each([
      [{ role: 'owner' }, 'body field `role`'],
      [{ role: 3 }, 'body field `role`'],
      [undefined, 'body is required'],
    ])('rejects %j', async (body, message) => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.rita.id}`, body)
      expect(res.status).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining(message) })
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.rita.id}`))?.role).toBe('read')
    })

    it('needs the admin role: 403 for a reader (even on themselves), 404 for outsiders and non-members', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.rita, 'PATCH', `${members(w)}/${w.users.rita.id}`, { role: 'admin' })).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'PATCH', `${members(w)}/${w.users.rita.id}`, { role: 'admin' })).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.olga.id}`, { role: 'admin' })).status).toBe(404)
      expect((await call(w.api, undefined, 'PATCH', `${members(w)}/${w.users.rita.id}`, { role: 'admin' })).status).toBe(401)
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.rita.id}`))?.role).toBe('read')
    })
  })

  describe('DELETE /v1/orgs/{organizationId}/members/{userId}', () => {
    it('removes the member with their team memberships and direct space grants in the organization', async () => {
      const w = await createWorld()
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.rita.id, role: 'admin' }] })
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
      const otherSpace = await w.api.fixtures.createSpace(other.id, { title: 'Elsewhere' })
      const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', members: [w.users.rita.id, w.users.ada.id] })
      const otherTeam = await w.api.fixtures.createTeam(other.id, { title: 'Theirs', members: [w.users.rita.id] })
      await w.api.fixtures.grantSpace(space.id, { user: w.users.rita.id }, 'edit')
      await w.api.fixtures.grantSpace(otherSpace.id, { user: w.users.rita.id }, 'edit')
      const before = await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.rita.id}`)
      expect(before.body).toMatchObject({ spaces: 1, teams: 1 })

      const res = await call(w.api, w.tokens.ada, 'DELETE', `${members(w)}/${w.users.rita.id}`)
      expect(res.status).toBe(204)
      expect(res.body).toBeUndefined()
      expect((await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.rita.id}`)).status).toBe(404)
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}`)).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/teams/${team.id}`)).body.members).toBe(1)
      w.api.store.read((tx) => {
        expect(tx.get('spaceGrants', `${space.id}/user:${w.users.rita.id}`)).toBeUndefined()
        expect(tx.get('teamMembers', `${team.id}/${w.users.rita.id}`)).toBeUndefined()
        // Nothing changes in the other organization.
        expect(tx.get('spaceGrants', `${otherSpace.id}/user:${w.users.rita.id}`)).toBeDefined()
        expect(tx.get('teamMembers', `${otherTeam.id}/${w.users.rita.id}`)).toBeDefined()
      })
      expect((await call(w.api, w.tokens.ada, 'GET', members(w))).body.count).toBe(2)
      // 204 again: not a member any more.
      expect((await call(w.api, w.tokens.ada, 'DELETE', `${members(w)}/${w.users.rita.id}`)).status).toBe(204)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `${members(w)}/nobody`)).status).toBe(204)
    })

    it('lets a member leave, but not remove someone else without the admin role', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.rita, 'DELETE', `${members(w)}/${w.users.gina.id}`)).status).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'DELETE', `${members(w)}/${w.users.rita.id}`)).status).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'DELETE', `${members(w)}/${w.users.gina.id}`)).status).toBe(204)
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.gina.id}`))).toBeUndefined()
      expect((await call(w.api, w.tokens.olga, 'DELETE', `${members(w)}/${w.users.rita.id}`)).status).toBe(404)
      expect((await call(w.api, undefined, 'DELETE', `${members(w)}/${w.users.rita.id}`)).status).toBe(401)
      expect(w.api.store.read((tx) => tx.count('members', 'byOrganization', w.org.id))).toBe(2)
    })

    it('refuses to remove the last admin, and changes nothing then', async () => {
      const w = await createWorld()
      const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Core', owners: [w.users.ada.id] })
      const res = await call(w.api, w.tokens.ada, 'DELETE', `${members(w)}/${w.users.ada.id}`)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toBe('Cannot remove the last admin of the organization: make another member admin first')
      expect(w.api.store.read((tx) => tx.get('teamMembers', `${team.id}/${w.users.ada.id}`))).toBeDefined()
      await call(w.api, w.tokens.ada, 'PATCH', `${members(w)}/${w.users.rita.id}`, { role: 'admin' })
      expect((await call(w.api, w.tokens.ada, 'DELETE', `${members(w)}/${w.users.ada.id}`)).status).toBe(204)
      expect((await call(w.api, w.tokens.rita, 'GET', `${members(w)}?role=admin`)).body.items.map((m: any) => m.id)).toEqual([w.users.rita.id])
    })
  })

  describe('POST /v1/orgs/{organizationId}/ping', () => {
    it("sets the caller's lastSeenAt to now and answers {}", async () => {
      const w = await createWorld()
      w.clock.set('2026-04-02T08:30:00.000Z')
      const res = await call(w.api, w.tokens.gina, 'POST', `/v1/orgs/${w.org.id}/ping`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({})
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.gina.id}`))?.lastSeenAt).toBe('2026-04-02T08:30:00.000Z')
      expect((await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.gina.id}`)).body.lastSeenAt).toBe('2026-04-02T08:30:00.000Z')
      expect((await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.ada.id}`)).body.lastSeenAt).toBeUndefined()
      expect((await call(w.api, w.tokens.olga, 'POST', `/v1/orgs/${w.org.id}/ping`)).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', `/v1/orgs/${w.org.id}/ping`)).status).toBe(401)
    })
  })

  describe('POST /v1/orgs/{organizationId}/members/{userId}/sso', () => {
    it('marks a member as an SSO member (admin only)', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.rita, 'POST', `${members(w)}/${w.users.rita.id}/sso`)).status).toBe(403)
      const res = await call(w.api, w.tokens.ada, 'POST', `${members(w)}/${w.users.rita.id}/sso`)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: w.users.rita.id, sso: true, role: 'read' })
      expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.rita.id}`))?.sso).toBe(true)
      expect((await call(w.api, w.tokens.ada, 'POST', `${members(w)}/${w.users.rita.id}/sso`)).body.sso).toBe(true)
      expect((await call(w.api, w.tokens.ada, 'POST', `${members(w)}/${w.users.olga.id}/sso`)).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'POST', `${members(w)}/${w.users.rita.id}/sso`)).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', `${members(w)}/${w.users.rita.id}/sso`)).status).toBe(401)
    })
  })

  describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces', () => {
    it('lists the live spaces the member holds a direct grant on, newest grant first, with the granted role', async () => {
      const w = await createWorld()
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.gina.id, role: 'admin' }] })
      const [a, b, c, gone] = [
        await w.api.fixtures.createSpace(w.org.id, { title: 'A' }),
        await w.api.fixtures.createSpace(w.org.id, { title: 'B' }),
        await w.api.fixtures.createSpace(w.org.id, { title: 'C' }),
        await w.api.fixtures.createSpace(w.org.id, { title: 'Gone' }),
      ]
      const elsewhere = await w.api.fixtures.createSpace(other.id, { title: 'Elsewhere' })
      await w.api.fixtures.grantSpace(b!.id, { user: w.users.gina.id }, 'edit')
      await w.api.fixtures.grantSpace(a!.id, { user: w.users.gina.id }, 'read')
      await w.api.fixtures.grantSpace(c!.id, { user: w.users.gina.id }, 'admin')
      await w.api.fixtures.grantSpace(gone!.id, { user: w.users.gina.id }, 'read')
      await w.api.fixtures.grantSpace(elsewhere.id, { user: w.users.gina.id }, 'admin')
      w.api.system((ctx) => ctx.tx.update('spaces', { ...ctx.tx.get('spaces', gone!.id)!, deletedAt: ctx.nowIso() }))
      const path = `${members(w)}/${w.users.gina.id}/spaces`
      const res = await call(w.api, w.tokens.ada, 'GET', path)
      expect(res.status).toBe(200)
      expect(res.body.count).toBe(3)
      expect(res.body.items.map((i: any) => [i.space.title, i.permission])).toEqual([
        ['C', 'admin'],
        ['A', 'read'],
        ['B', 'edit'],
      ])
      expect(res.body.items[0].space).toMatchObject({ object: 'space', id: c!.id, permissions: { admin: true } })
      const asc = await call(w.api, w.tokens.ada, 'GET', `${path}?order=asc&limit=2`)
      expect(asc.body.items.map((i: any) => i.space.title)).toEqual(['B', 'A'])
      // A grant removed between pages does not shift the next page.
      w.api.system((ctx) => ctx.tx.delete('spaceGrants', `${a!.id}/user:${w.users.gina.id}`))
      const next = await call(w.api, w.tokens.ada, 'GET', `${path}?order=asc&limit=2&page=${asc.body.next.page}`)
      expect(next.body.items.map((i: any) => i.space.title)).toEqual(['C'])
      expect(next.body.next).toBeUndefined()
      // The counter on the member agrees with the list.
      expect((await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.gina.id}`)).body.spaces).toBe(2)
      // A guest lists their own spaces, not other members'.
      expect((await call(w.api, w.tokens.gina, 'GET', path)).body.count).toBe(2)
      expect((await call(w.api, w.tokens.gina, 'GET', `${members(w)}/${w.users.ada.id}/spaces`)).status).toBe(403)
    })

    it('answers 404 for a non-member target or an outsider, 400 for a bad query, 401 without a token', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.olga.id}/spaces`)).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'GET', `${members(w)}/${w.users.ada.id}/spaces`)).status).toBe(404)
      const bad = await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.ada.id}/spaces?order=sideways`)
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toContain('query parameter `order`')
      expect((await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.ada.id}/spaces?limit=5000`)).body.error.message).toContain('`limit`')
      expect((await call(w.api, undefined, 'GET', `${members(w)}/${w.users.ada.id}/spaces`)).status).toBe(401)
    })
  })

  describe('GET /v1/orgs/{organizationId}/members/{userId}/teams', () => {
    it("lists the member's teams by title with their role, filtered by title", async () => {
      const w = await createWorld()
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.rita.id, role: 'admin' }] })
      const writers = await w.api.fixtures.createTeam(w.org.id, { title: 'writers', members: [w.users.rita.id] })
      const api = await w.api.fixtures.createTeam(w.org.id, { title: 'API Guild', owners: [w.users.rita.id] })
      await w.api.fixtures.createTeam(w.org.id, { title: 'Without Rita', members: [w.users.ada.id] })
      await w.api.fixtures.createTeam(other.id, { title: 'Elsewhere', members: [w.users.rita.id] })
      const path = `${members(w)}/${w.users.rita.id}/teams`
      const res = await call(w.api, w.tokens.ada, 'GET', path)
      expect(res.status).toBe(200)
      expect(res.body.count).toBe(2)
      expect(res.body.items.map((i: any) => [i.team.id, i.member.role])).toEqual([
        [api.id, 'owner'],
        [writers.id, 'member'],
      ])
      expect(res.body.items[0].team).toMatchObject({ object: 'team', title: 'API Guild', members: 1, spaces: 0 })
      expect((await call(w.api, w.tokens.ada, 'GET', `${path}?title=WRIT`)).body.items.map((i: any) => i.team.id)).toEqual([writers.id])
      const paged = await call(w.api, w.tokens.ada, 'GET', `${path}?limit=1`)
      const second = await call(w.api, w.tokens.ada, 'GET', `${path}?limit=1&page=${paged.body.next.page}`)
      expect(second.body.items.map((i: any) => i.team.id)).toEqual([writers.id])
      expect((await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.rita.id}`)).body.teams).toBe(2)
    })

    it('answers 403 to a guest asking about someone else, 404 for non-members, 400 for a bad limit', async () => {
      const w = await createWorld()
      await w.api.fixtures.createTeam(w.org.id, { title: 'Guests', members: [w.users.gina.id] })
      expect((await call(w.api, w.tokens.gina, 'GET', `${members(w)}/${w.users.gina.id}/teams`)).body.count).toBe(1)
      expect((await call(w.api, w.tokens.gina, 'GET', `${members(w)}/${w.users.ada.id}/teams`)).status).toBe(403)
      expect((await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.olga.id}/teams`)).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'GET', `${members(w)}/${w.users.olga.id}/teams`)).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'GET', `${members(w)}/${w.users.ada.id}/teams?limit=x`)).status).toBe(400)
      expect((await call(w.api, undefined, 'GET', `${members(w)}/${w.users.ada.id}/teams`)).status).toBe(401)
    })
  })
})
