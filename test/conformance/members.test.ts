import { MemberRole } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { createWorld } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

describe('conformance: organization members through @gitbook/api', () => {
  it('listMembersInOrganizationById with each sort, a filter and a cursor', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada).orgs
    await w.client(w.tokens.gina).orgs.updateOrganizationMemberLastSeenAt(w.org.id)
    const list = await gb.listMembersInOrganizationById(w.org.id, { limit: 2 })
    expect(list.status).toBe(200)
    expect(list.data.count).toBe(3)
    expect(list.data.items).toHaveLength(2)
    expect(list.data.next?.page).toEqual(expect.any(String))
    expectOfficialResponse('listMembersInOrganizationById', 200, list.data)
    const next = await gb.listMembersInOrganizationById(w.org.id, { limit: 2, page: list.data.next!.page })
    expect(next.data.items).toHaveLength(1)
    expect(next.data.next).toBeUndefined()
    expectOfficialResponse('listMembersInOrganizationById', 200, next.data)
    const seen = await gb.listMembersInOrganizationById(w.org.id, { sort: 'lastSeenAt', role: 'guest', search: 'gina', order: 'asc' })
    expect(seen.data.items.map((m) => [m.id, m.lastSeenAt])).toEqual([[w.users.gina.id, '2026-03-01T10:00:00.000Z']])
    expectOfficialResponse('listMembersInOrganizationById', 200, seen.data)
    const byName = await gb.listMembersInOrganizationById(w.org.id, { sort: 'name', order: 'asc' })
    expect(byName.data.items.map((m) => m.user.displayName)).toEqual(['Ada Lovelace', 'Gina Guest', 'Rita Reader'])
    expectOfficialResponse('listMembersInOrganizationById', 200, byName.data)
  })

  it('getMemberInOrganizationById, updateMemberInOrganizationById, setUserAsSSOMemberForOrganization', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada).orgs
    const got = await gb.getMemberInOrganizationById(w.org.id, w.users.rita.id)
    expect(got.data).toMatchObject({ id: w.users.rita.id, role: 'read' })
    expectOfficialResponse('getMemberInOrganizationById', 200, got.data)
    const guest = await gb.updateMemberInOrganizationById(w.org.id, w.users.rita.id, { role: null })
    expect(guest.data.role).toBeNull()
    expectOfficialResponse('updateMemberInOrganizationById', 200, guest.data)
    const sso = await gb.setUserAsSsoMemberForOrganization(w.org.id, w.users.rita.id)
    expect(sso.data.sso).toBe(true)
    expectOfficialResponse('setUserAsSSOMemberForOrganization', 200, sso.data)
  })

  it('removeMemberFromOrganizationById answers 204 without a body', async () => {
    const w = await createWorld()
    const res = await w.client(w.tokens.ada).orgs.removeMemberFromOrganizationById(w.org.id, w.users.rita.id)
    // The official document answers 205 when a member was removed and 204 when there was none;
    // the reference wins: 204 in both cases.
    expect(res.status).toBe(204)
    expectOfficialResponse('removeMemberFromOrganizationById', 204, undefined)
    expect(w.api.store.read((tx) => tx.get('members', `${w.org.id}/${w.users.rita.id}`))).toBeUndefined()
  })

  it('updateOrganizationMemberLastSeenAt answers an object without claims', async () => {
    const w = await createWorld()
    const res = await w.client(w.tokens.rita).orgs.updateOrganizationMemberLastSeenAt(w.org.id)
    expect(res.status).toBe(200)
    expect(res.data).toEqual({})
    expectOfficialResponse('updateOrganizationMemberLastSeenAt', 200, res.data)
  })

  it('listSpacesForOrganizationMember and listTeamsForOrganizationMember', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
    await w.api.fixtures.grantSpace(space.id, { user: w.users.gina.id }, 'comment')
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Guests', owners: [w.users.gina.id] })
    const gb = w.client(w.tokens.ada).orgs
    const spaces = await gb.listSpacesForOrganizationMember(w.org.id, w.users.gina.id, { order: 'asc' })
    expect(spaces.data.items.map((i) => [i.space.id, i.permission])).toEqual([[space.id, 'comment']])
    expectOfficialResponse('listSpacesForOrganizationMember', 200, spaces.data)
    const teams = await gb.listTeamsForOrganizationMember(w.org.id, w.users.gina.id, { title: 'guest' })
    expect(teams.data.items.map((i) => [i.team.id, i.member.role])).toEqual([[team.id, 'owner']])
    expectOfficialResponse('listTeamsForOrganizationMember', 200, teams.data)
  })

  it('the client surfaces the errors: 403 for a guest listing members, 400 for the last admin', async () => {
    const w = await createWorld()
    await expect(w.client(w.tokens.gina).orgs.listMembersInOrganizationById(w.org.id)).rejects.toThrow(/admin|read role/)
    await expect(w.client(w.tokens.ada).orgs.updateMemberInOrganizationById(w.org.id, w.users.ada.id, { role: MemberRole.Read })).rejects.toThrow('last admin')
  })
})
