import { MemberRole } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld, type World } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

async function setup() {
  const w = await createWorld()
  const collection = await w.api.fixtures.createCollection(w.org.id, { title: 'Handbook' })
  const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', members: [w.users.gina.id] })
  return { ...w, collection, team }
}

const grants = (w: World, collection: string) => w.api.store.read((tx) => tx.scan('collectionGrants', 'byCollection', collection).map((e) => e.row.role))

/** Whether the caller may edit the space (open a change request: `edit` on the space). */
const edits = async (w: World, token: string, space: string) =>
  (await call(w.api, token, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'Try' })).status

describe('conformance: collection permissions through @gitbook/api', () => {
  it('inviteToCollection answers 204 without a body (users and teams)', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.ada).collections
    const res = await gb.inviteToCollection(w.collection.id, { role: MemberRole.Edit, users: [w.users.gina.id] })
    expect(res.status).toBe(204)
    expectOfficialResponse('inviteToCollection', 204, undefined)
    const teams = await gb.inviteToCollection(w.collection.id, { role: MemberRole.Read, teams: [w.team.id] })
    expect(teams.status).toBe(204)
    expect(grants(w, w.collection.id)).toEqual(['edit', 'read'])
    // An outsider invited joins the organization as a guest.
    await gb.inviteToCollection(w.collection.id, { role: MemberRole.Read, users: [w.users.olga.id] })
    expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.olga.id}`)?.role)).toBeNull()
  })

  it('listUserPermissionsInCollection and listTeamPermissionsInCollection match the official schemas', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.ada).collections
    await gb.updateUserPermissionInCollection(w.collection.id, w.users.gina.id, { role: MemberRole.Comment })
    await gb.updateUserPermissionInCollection(w.collection.id, w.users.rita.id, { role: MemberRole.Admin })
    await gb.updateTeamPermissionInCollection(w.collection.id, w.team.id, { role: MemberRole.Review })
    const reader = w.client(w.tokens.rita).collections
    const users = await reader.listUserPermissionsInCollection(w.collection.id, { limit: 1 })
    expect(users.status).toBe(200)
    expect(users.data.count).toBe(2)
    expect(users.data.items.map((i) => [i.permission, i.user.id])).toEqual([['comment', w.users.gina.id]])
    expectOfficialResponse('listUserPermissionsInCollection', 200, users.data)
    const rest = await reader.listUserPermissionsInCollection(w.collection.id, { page: users.data.next!.page })
    expect(rest.data.items.map((i) => i.user.id)).toEqual([w.users.rita.id])
    const teams = await reader.listTeamPermissionsInCollection(w.collection.id)
    expect(teams.data.items).toMatchObject([{ permission: 'review', team: { id: w.team.id } }])
    expectOfficialResponse('listTeamPermissionsInCollection', 200, teams.data)
  })

  it('update and remove answer 204; null removes', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.ada).collections
    const user = await gb.updateUserPermissionInCollection(w.collection.id, w.users.rita.id, { role: MemberRole.Admin })
    expect(user.status).toBe(204)
    expectOfficialResponse('updateUserPermissionInCollection', 204, undefined)
    const team = await gb.updateTeamPermissionInCollection(w.collection.id, w.team.id, { role: MemberRole.Edit })
    expect(team.status).toBe(204)
    expectOfficialResponse('updateTeamPermissionInCollection', 204, undefined)
    expect(grants(w, w.collection.id)).toEqual(['admin', 'edit'])
    await gb.updateTeamPermissionInCollection(w.collection.id, w.team.id, { role: null })
    expect(grants(w, w.collection.id)).toEqual(['admin'])
    await gb.updateTeamPermissionInCollection(w.collection.id, w.team.id, { role: MemberRole.Edit })
    const removedUser = await gb.removeUserFromCollection(w.collection.id, w.users.rita.id)
    expect(removedUser.status).toBe(204)
    expectOfficialResponse('removeUserFromCollection', 204, undefined)
    const removedTeam = await gb.removeTeamFromCollection(w.collection.id, w.team.id)
    expect(removedTeam.status).toBe(204)
    expectOfficialResponse('removeTeamFromCollection', 204, undefined)
    expect(grants(w, w.collection.id)).toEqual([])
  })

  it('bad input: a role outside the enum, an unknown user, a non-member, a team of another organization', async () => {
    const w = await setup()
    const base = `/v1/collections/${w.collection.id}/permissions`
    const role = await call(w.api, w.tokens.ada, 'PATCH', `${base}/users/${w.users.rita.id}`, { role: 'owner' })
    expect(role.status).toBe(400)
    expect(role.body.error.message).toContain('role')
    const invite = await call(w.api, w.tokens.ada, 'POST', base, { role: 'read' })
    expect(invite.status).toBe(400)
    expect(invite.body.error.message).toContain('users')
    await expect(w.client(w.tokens.ada).collections.inviteToCollection(w.collection.id, { role: MemberRole.Read, users: ['nobody'] })).rejects.toThrow(
      'User nobody not found',
    )
    // Not a member: PATCH does not invite (as for spaces); the official status is 404.
    const outsider = await call(w.api, w.tokens.ada, 'PATCH', `${base}/users/${w.users.olga.id}`, { role: 'read' })
    expect(outsider.status).toBe(404)
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.olga.id, role: 'admin' }] })
    const foreign = await w.api.fixtures.createTeam(other.id, { title: 'Foreign', members: [] })
    const team = await call(w.api, w.tokens.ada, 'PATCH', `${base}/teams/${foreign.id}`, { role: 'read' })
    expect(team.status).toBe(404)
    expect(grants(w, w.collection.id)).toEqual([])
  })

  it('permission failure: a reader gets 403 on writes, a guest without a grant 404', async () => {
    const w = await setup()
    await expect(
      w.client(w.tokens.rita).collections.inviteToCollection(w.collection.id, { role: MemberRole.Read, users: [w.users.gina.id] }),
    ).rejects.toMatchObject({ code: 403 })
    const guest = await call(w.api, w.tokens.gina, 'GET', `/v1/collections/${w.collection.id}/permissions/users`)
    expect(guest.status).toBe(404)
    const outsider = await call(w.api, w.tokens.olga, 'DELETE', `/v1/collections/${w.collection.id}/permissions/users/${w.users.rita.id}`)
    expect(outsider.status).toBe(404)
  })

  it('a grant on a collection reaches its sub-collections and in-collection spaces; removal takes it away', async () => {
    const w = await setup()
    const sub = await w.api.fixtures.createCollection(w.org.id, { title: 'Team notes', parent: w.collection.id })
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Inside', parent: sub.id })
    const gb = w.client(w.tokens.ada).collections
    expect(await edits(w, w.tokens.rita, space.id)).toBe(403)
    expect(await edits(w, w.tokens.gina, space.id)).toBe(404)
    await gb.updateUserPermissionInCollection(w.collection.id, w.users.rita.id, { role: MemberRole.Edit })
    await gb.updateTeamPermissionInCollection(w.collection.id, w.team.id, { role: MemberRole.Edit })
    expect(await edits(w, w.tokens.rita, space.id)).toBe(201)
    // gina, a guest, through her team.
    expect(await edits(w, w.tokens.gina, space.id)).toBe(201)
    expect((await call(w.api, w.tokens.gina, 'GET', `/v1/collections/${sub.id}`)).status).toBe(200)
    // A guest with a grant lists who the collection is shared with, as the policy lets her for a space.
    const listed = await call(w.api, w.tokens.gina, 'GET', `/v1/collections/${w.collection.id}/permissions/users`)
    expect(listed.status).toBe(200)
    await gb.removeUserFromCollection(w.collection.id, w.users.rita.id)
    await gb.removeTeamFromCollection(w.collection.id, w.team.id)
    expect(await edits(w, w.tokens.rita, space.id)).toBe(403)
    expect(await edits(w, w.tokens.gina, space.id)).toBe(404)
  })

  it('grants go with the team and the member', async () => {
    const w = await setup()
    await w.api.fixtures.grantCollection(w.collection.id, { team: w.team.id }, 'read')
    await w.api.fixtures.grantCollection(w.collection.id, { user: w.users.rita.id }, 'read')
    expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/orgs/${w.org.id}/teams/${w.team.id}`)).status).toBeLessThan(300)
    expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/orgs/${w.org.id}/members/${w.users.rita.id}`)).status).toBeLessThan(300)
    expect(grants(w, w.collection.id)).toEqual([])
    // And with the collection itself.
    await w.api.fixtures.grantCollection(w.collection.id, { user: w.users.gina.id }, 'edit')
    expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/collections/${w.collection.id}`)).status).toBeLessThan(300)
    expect(grants(w, w.collection.id)).toEqual([])
  })

  it('a guest with a grant lists who the collection is shared with, without emails but her own', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.ada).collections
    await gb.updateUserPermissionInCollection(w.collection.id, w.users.gina.id, { role: MemberRole.Read })
    await gb.updateUserPermissionInCollection(w.collection.id, w.users.rita.id, { role: MemberRole.Edit })
    const guest = await w.client(w.tokens.gina).collections.listUserPermissionsInCollection(w.collection.id)
    expect(guest.status).toBe(200)
    expectOfficialResponse('listUserPermissionsInCollection', 200, guest.data)
    expect(guest.data.items.map((i) => [i.user.id, i.user.email])).toEqual([
      [w.users.gina.id, 'gina@elsewhere.test'],
      [w.users.rita.id, undefined],
    ])
    const reader = await w.client(w.tokens.rita).collections.listUserPermissionsInCollection(w.collection.id)
    expect(reader.data.items.map((i) => i.user.email)).toEqual(['gina@elsewhere.test', 'rita@acme.test'])
  })
})
