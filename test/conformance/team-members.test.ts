import { MemberRole, TeamMemberRole } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld, expectError } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

describe('conformance: team members through @gitbook/api', () => {
  it('addMemberToOrganizationTeamById, listTeamMembersInOrganizationById (paged), deleteMemberFromOrganizationTeamById', async () => {
    const w = await createWorld()
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers' })
    const gb = w.client(w.tokens.ada).orgs
    const added = await gb.addMemberToOrganizationTeamById(w.org.id, team.id, w.users.rita.id, { role: TeamMemberRole.Owner })
    expect(added.status).toBe(204)
    expectOfficialResponse('addMemberToOrganizationTeamById', 204, undefined)
    // Adding again is idempotent: no second row, the role kept when none is given.
    expect((await gb.addMemberToOrganizationTeamById(w.org.id, team.id, w.users.rita.id, {})).status).toBe(204)
    await gb.addMemberToOrganizationTeamById(w.org.id, team.id, w.users.ada.id, {})
    const first = await gb.listTeamMembersInOrganizationById(w.org.id, team.id, { limit: 1 })
    expect(first.status).toBe(200)
    expect(first.data.items.map((m) => [m.organization.id, m.team.role])).toEqual([[w.users.ada.id, 'member']])
    expectOfficialResponse('listTeamMembersInOrganizationById', 200, first.data)
    const second = await gb.listTeamMembersInOrganizationById(w.org.id, team.id, { limit: 1, page: first.data.next!.page })
    expect(second.data.items.map((m) => [m.organization.id, m.team.role, m.permissions.view])).toEqual([[w.users.rita.id, 'owner', true]])
    expect(second.data.next).toBeUndefined()
    expectOfficialResponse('listTeamMembersInOrganizationById', 200, second.data)
    expect((await gb.getTeamInOrganizationById(w.org.id, team.id)).data.members).toBe(2)
    // The same rows feed a member's teams.
    const ritaTeams = await gb.listTeamsForOrganizationMember(w.org.id, w.users.rita.id)
    expect(ritaTeams.data.items.map((i) => [i.team.id, i.member.role])).toEqual([[team.id, 'owner']])

    const removed = await gb.deleteMemberFromOrganizationTeamById(w.org.id, team.id, w.users.ada.id)
    expect(removed.status).toBe(205)
    expectOfficialResponse('deleteMemberFromOrganizationTeamById', 205, undefined)
    const again = await gb.deleteMemberFromOrganizationTeamById(w.org.id, team.id, w.users.ada.id)
    expect(again.status).toBe(204)
    expectOfficialResponse('deleteMemberFromOrganizationTeamById', 204, undefined)
    expect((await gb.getTeamInOrganizationById(w.org.id, team.id)).data.members).toBe(1)
  })

  it('updateMembersInOrganizationTeam adds (by id or email), removes and sets roles at once', async () => {
    const w = await createWorld()
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', members: [w.users.ada.id] })
    const gb = w.client(w.tokens.ada).orgs
    const res = await gb.updateMembersInOrganizationTeam(w.org.id, team.id, {
      add: ['RITA@acme.test', w.users.gina.id],
      memberships: { [w.users.rita.id]: { role: TeamMemberRole.Owner } },
      remove: [w.users.ada.id],
    })
    expect(res.status).toBe(204)
    expectOfficialResponse('updateMembersInOrganizationTeam', 204, undefined)
    const list = await gb.listTeamMembersInOrganizationById(w.org.id, team.id)
    expect(list.data.items.map((m) => [m.organization.id, m.team.role])).toEqual([
      [w.users.gina.id, 'member'],
      [w.users.rita.id, 'owner'],
    ])
    expectOfficialResponse('listTeamMembersInOrganizationById', 200, list.data)
    // Rita now owns the team: she manages its members without being an organization admin.
    const asOwner = await w.client(w.tokens.rita).orgs.updateMembersInOrganizationTeam(w.org.id, team.id, { remove: [w.users.gina.id] })
    expect(asOwner.status).toBe(204)
    expect((await gb.getTeamInOrganizationById(w.org.id, team.id)).data.members).toBe(1)
  })

  it('team membership grants the team space role, and loses it when removed', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers' })
    const ada = w.client(w.tokens.ada)
    await ada.spaces.inviteToSpace(space.id, { role: MemberRole.Edit, teams: [team.id] })
    const canEdit = async () => (await call(w.api, w.tokens.rita, 'GET', `/v1/spaces/${space.id}`)).body.permissions.edit
    // Rita reads the space through her organization role; the team's grant makes her an editor.
    expect(await canEdit()).toBe(false)
    await ada.orgs.addMemberToOrganizationTeamById(w.org.id, team.id, w.users.rita.id, {})
    expect(await canEdit()).toBe(true)
    // A member may leave a team.
    expect((await w.client(w.tokens.rita).orgs.deleteMemberFromOrganizationTeamById(w.org.id, team.id, w.users.rita.id, {})).status).toBe(205)
    expect(await canEdit()).toBe(false)
  })

  it('bad input: a user who is not a member of the organization (400 naming the field), nothing written', async () => {
    const w = await createWorld()
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers' })
    const base = `/v1/orgs/${w.org.id}/teams/${team.id}/members`
    const olga = w.users.olga.id
    expectError(await call(w.api, w.tokens.ada, 'PUT', `${base}/${olga}`), 400, `path parameter \`userId\`: ${olga} is not a member of the organization`)
    expectError(await call(w.api, w.tokens.ada, 'PUT', base, { add: [w.users.rita.id, olga] }), 400, `body field \`add[1]\`: ${olga} is not a member`)
    expectError(
      await call(w.api, w.tokens.ada, 'PUT', base, { memberships: { [w.users.gina.id]: { role: TeamMemberRole.Owner } } }),
      400,
      `body field \`memberships.${w.users.gina.id}\`: ${w.users.gina.id} is not in the team`,
    )
    expectError(await call(w.api, w.tokens.ada, 'PUT', base, { add: [w.users.rita.id], remove: [w.users.rita.id] }), 400, 'body field `remove[0]`')
    expectError(await call(w.api, w.tokens.ada, 'PUT', `${base}/${w.users.rita.id}`, { role: 'boss' }), 400, '`role`')
    expect(w.api.store.read((tx) => tx.count('teamMembers', 'byTeam', team.id))).toBe(0)
  })

  it('permission failures: a reader may not manage a team (403), an outsider does not see it (404)', async () => {
    const w = await createWorld()
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', members: [w.users.ada.id] })
    const base = `/v1/orgs/${w.org.id}/teams/${team.id}/members`
    expectError(await call(w.api, w.tokens.rita, 'PUT', `${base}/${w.users.rita.id}`), 403, '')
    expectError(await call(w.api, w.tokens.rita, 'PUT', base, { add: [w.users.rita.id] }), 403, '')
    expectError(await call(w.api, w.tokens.rita, 'DELETE', `${base}/${w.users.ada.id}`), 403, '')
    // A reader has `listTeams`; a guest outside the team does not.
    expect((await call(w.api, w.tokens.rita, 'GET', base)).status).toBe(200)
    expectError(await call(w.api, w.tokens.gina, 'GET', base), 403, '')
    expectError(await call(w.api, w.tokens.olga, 'GET', base), 404, '')
    expect(w.api.store.read((tx) => tx.count('teamMembers', 'byTeam', team.id))).toBe(1)
  })

  it('a guest in a team lists its members without their emails (her own shown); the member list stays closed to her', async () => {
    const w = await createWorld()
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', members: [w.users.ada.id, w.users.gina.id] })
    const guest = await w.client(w.tokens.gina).orgs.listTeamMembersInOrganizationById(w.org.id, team.id)
    expect(guest.status).toBe(200)
    expectOfficialResponse('listTeamMembersInOrganizationById', 200, guest.data)
    const emails = Object.fromEntries(guest.data.items.map((i) => [i.organization.user.id, i.organization.user.email]))
    expect(emails).toEqual({ [w.users.ada.id]: undefined, [w.users.gina.id]: 'gina@elsewhere.test' })
    const reader = await w.client(w.tokens.rita).orgs.listTeamMembersInOrganizationById(w.org.id, team.id)
    expect(reader.data.items.map((i) => i.organization.user.email).sort()).toEqual(['ada@acme.test', 'gina@elsewhere.test'])
    // Lists a guest does not reach at all: the organization's members and its invite links.
    expectError(await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/members`), 403, '')
    expectError(await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/link-invites`), 403, '')
  })
})
