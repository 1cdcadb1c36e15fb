import { MemberRole } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld, type World } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

async function setup() {
  const w = await createWorld()
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
  const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', members: [w.users.rita.id] })
  return { ...w, site, team }
}

const grants = (w: World, site: string) => w.api.store.read((tx) => tx.scan('siteGrants', 'bySite', site).map((e) => e.row.role))
const path = (w: { org: { id: string }; site: { id: string } }, rest = '') => `/v1/orgs/${w.org.id}/sites/${w.site.id}/permissions${rest}`

describe('conformance: site permissions through @gitbook/api', () => {
  it('inviteToSite answers 204 (users and teams); a non-member joins as a guest', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.ada).orgs
    const res = await gb.inviteToSite(w.org.id, w.site.id, { role: MemberRole.Edit, users: [w.users.gina.id, w.users.olga.id] })
    expect(res.status).toBe(204)
    expectOfficialResponse('inviteToSite', 204, undefined)
    const teams = await gb.inviteToSite(w.org.id, w.site.id, { role: MemberRole.Read, teams: [w.team.id] })
    expect(teams.status).toBe(204)
    expect(grants(w, w.site.id)).toEqual(['edit', 'edit', 'read'])
    expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.olga.id}`)?.role)).toBeNull()
  })

  it('listUserPermissionsInSite and listTeamPermissionsInSite match the official schemas', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.ada).orgs
    await gb.inviteToSite(w.org.id, w.site.id, { role: MemberRole.Comment, users: [w.users.gina.id] })
    await gb.updateUserPermissionInSite(w.org.id, w.site.id, w.users.rita.id, { role: MemberRole.Admin })
    await gb.updateTeamPermissionInSite(w.org.id, w.site.id, w.team.id, { role: MemberRole.Review })
    const reader = w.client(w.tokens.rita).orgs
    const users = await reader.listUserPermissionsInSite(w.org.id, w.site.id, { limit: 1 })
    expect(users.status).toBe(200)
    expect(users.data.count).toBe(2)
    expect(users.data.items.map((i) => [i.permission, i.user.id])).toEqual([['comment', w.users.gina.id]])
    expectOfficialResponse('listUserPermissionsInSite', 200, users.data)
    const rest = await reader.listUserPermissionsInSite(w.org.id, w.site.id, { page: users.data.next!.page })
    expect(rest.data.items.map((i) => [i.permission, i.user.id])).toEqual([['admin', w.users.rita.id]])
    const teams = await reader.listTeamPermissionsInSite(w.org.id, w.site.id)
    expect(teams.status).toBe(200)
    expect(teams.data.items).toMatchObject([{ permission: 'review', team: { id: w.team.id } }])
    expectOfficialResponse('listTeamPermissionsInSite', 200, teams.data)
  })

  it('update answers 204; remove answers 205, then 204 when there is no grant', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.ada).orgs
    const user = await gb.updateUserPermissionInSite(w.org.id, w.site.id, w.users.rita.id, { role: MemberRole.Edit })
    expect(user.status).toBe(204)
    expectOfficialResponse('updateUserPermissionInSite', 204, undefined)
    const team = await gb.updateTeamPermissionInSite(w.org.id, w.site.id, w.team.id, { role: MemberRole.Read })
    expect(team.status).toBe(204)
    expectOfficialResponse('updateTeamPermissionInSite', 204, undefined)
    expect(grants(w, w.site.id)).toEqual(['edit', 'read'])
    expect((await call(w.api, w.tokens.ada, 'DELETE', path(w, `/users/${w.users.rita.id}`))).status).toBe(205)
    expect((await call(w.api, w.tokens.ada, 'DELETE', path(w, `/users/${w.users.rita.id}`))).status).toBe(204)
    expect((await call(w.api, w.tokens.ada, 'DELETE', path(w, `/teams/${w.team.id}`))).status).toBe(205)
    expect((await call(w.api, w.tokens.ada, 'DELETE', path(w, `/teams/${w.team.id}`))).status).toBe(204)
    expect(grants(w, w.site.id)).toEqual([])
  })

  it('bad input: a role outside the enum, no users nor teams, a user or team outside the organization', async () => {
    const w = await setup()
    const bad = await call(w.api, w.tokens.ada, 'PATCH', path(w, `/users/${w.users.rita.id}`), { role: 'owner' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toMatch(/role/)
    const nul = await call(w.api, w.tokens.ada, 'PATCH', path(w, `/teams/${w.team.id}`), { role: null })
    expect(nul.status).toBe(400)
    expect(nul.body.error.message).toMatch(/role/)
    const empty = await call(w.api, w.tokens.ada, 'POST', path(w), { role: 'read' })
    expect(empty.status).toBe(400)
    expect(empty.body.error.message).toMatch(/users|teams/)
    const badRole = await call(w.api, w.tokens.ada, 'POST', path(w), { role: 'owner', users: [w.users.rita.id] })
    expect(badRole.status).toBe(400)
    expect(badRole.body.error.message).toMatch(/role/)
    // Official status for what is not there: 404 (a user outside the organization, a team of another one).
    expect((await call(w.api, w.tokens.ada, 'PATCH', path(w, `/users/${w.users.olga.id}`), { role: 'read' })).status).toBe(404)
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.olga.id, role: 'admin' }] })
    const foreign = await w.api.fixtures.createTeam(other.id, { title: 'Foreign' })
    expect((await call(w.api, w.tokens.ada, 'PATCH', path(w, `/teams/${foreign.id}`), { role: 'read' })).status).toBe(404)
    expect((await call(w.api, w.tokens.ada, 'POST', path(w), { role: 'read', teams: [foreign.id] })).status).toBe(404)
    expect(grants(w, w.site.id)).toEqual([])
  })

  it('permissions: a reader lists but cannot change; a guest and an outsider see nothing', async () => {
    const w = await setup()
    const denied = await call(w.api, w.tokens.rita, 'POST', path(w), { role: 'admin', users: [w.users.rita.id] })
    expect(denied.status).toBe(403)
    expect((await call(w.api, w.tokens.rita, 'PATCH', path(w, `/users/${w.users.rita.id}`), { role: 'admin' })).status).toBe(403)
    expect((await call(w.api, w.tokens.rita, 'DELETE', path(w, `/teams/${w.team.id}`))).status).toBe(403)
    expect((await call(w.api, w.tokens.gina, 'GET', path(w, '/users'))).status).toBe(404)
    expect((await call(w.api, w.tokens.olga, 'GET', path(w, '/teams'))).status).toBe(404)
    expect(grants(w, w.site.id)).toEqual([])
  })

  it('effect: a grant opens the site by role; removing it takes it away', async () => {
    const w = await setup()
    const admin = w.client(w.tokens.ada).orgs
    const update = () => call(w.api, w.tokens.rita, 'PATCH', `/v1/orgs/${w.org.id}/sites/${w.site.id}`, { title: 'Renamed' })
    expect((await update()).status).toBe(403)
    await admin.updateUserPermissionInSite(w.org.id, w.site.id, w.users.rita.id, { role: MemberRole.Edit })
    const ok = await update()
    expect(ok.status).toBe(200)
    expect(ok.body.title).toBe('Renamed')
    expect(ok.body.permissions).toMatchObject({ edit: true, admin: true })
    // `edit` is not the site's admin level for its grants: rita cannot share it further.
    expect((await call(w.api, w.tokens.rita, 'PATCH', path(w, `/users/${w.users.gina.id}`), { role: 'read' })).status).toBe(403)
    await admin.removeUserFromSite(w.org.id, w.site.id, w.users.rita.id)
    expect((await update()).status).toBe(403)
    // Through a team, and for a guest (who sees the site only through a grant).
    expect((await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/sites/${w.site.id}`)).status).toBe(404)
    expect((await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/sites/${w.site.id}/published`)).status).toBe(404)
    await admin.inviteToSite(w.org.id, w.site.id, { role: MemberRole.Read, users: [w.users.gina.id] })
    expect((await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/sites/${w.site.id}`)).status).toBe(200)
    expect((await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/sites/${w.site.id}/published`)).status).toBe(200)
    const member = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/members/${w.users.gina.id}`)
    expect(member.body.sites).toBe(1)
    expect((await call(w.api, w.tokens.gina, 'PATCH', `/v1/orgs/${w.org.id}/sites/${w.site.id}`, { title: 'Guest title' })).status).toBe(403)
    await admin.updateTeamPermissionInSite(w.org.id, w.site.id, w.team.id, { role: MemberRole.Admin })
    expect((await update()).status).toBe(200)
    expect((await call(w.api, w.tokens.rita, 'PATCH', path(w, `/users/${w.users.gina.id}`), { role: 'edit' })).status).toBe(204)
    await admin.removeTeamFromSite(w.org.id, w.site.id, w.team.id)
    expect((await update()).status).toBe(403)
  })

  it('a guest with a grant lists who the site is shared with, without emails but her own', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.ada).orgs
    await gb.inviteToSite(w.org.id, w.site.id, { role: MemberRole.Read, users: [w.users.gina.id, w.users.rita.id] })
    const guest = await w.client(w.tokens.gina).orgs.listUserPermissionsInSite(w.org.id, w.site.id)
    expect(guest.status).toBe(200)
    expectOfficialResponse('listUserPermissionsInSite', 200, guest.data)
    expect(guest.data.items.map((i) => [i.user.id, i.user.email])).toEqual([
      [w.users.gina.id, 'gina@elsewhere.test'],
      [w.users.rita.id, undefined],
    ])
    const reader = await w.client(w.tokens.rita).orgs.listUserPermissionsInSite(w.org.id, w.site.id)
    expect(reader.data.items.map((i) => i.user.email)).toEqual(['gina@elsewhere.test', 'rita@acme.test'])
  })
})
