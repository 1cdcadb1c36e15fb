import { describe, expect, it } from 'vitest'
import { createWorld } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

describe('conformance: teams through @gitbook/api', () => {
  it('createOrganizationTeam, getTeamInOrganizationById, updateTeamInOrganizationById', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada).orgs
    const created = await gb.createOrganizationTeam(w.org.id, { title: 'Writers', members: [w.users.rita.id] })
    expect(created.status).toBe(201)
    expect(created.data).toMatchObject({ title: 'Writers', members: 1, spaces: 0 })
    expectOfficialResponse('createOrganizationTeam', 201, created.data)
    const got = await gb.getTeamInOrganizationById(w.org.id, created.data.id)
    expect(got.data.id).toBe(created.data.id)
    expectOfficialResponse('getTeamInOrganizationById', 200, got.data)
    const renamed = await gb.updateTeamInOrganizationById(w.org.id, created.data.id, { title: 'Authors' })
    expect(renamed.data.title).toBe('Authors')
    expectOfficialResponse('updateTeamInOrganizationById', 200, renamed.data)
  })

  it('listTeamsInOrganizationById with the owner and title filters and a cursor', async () => {
    const w = await createWorld()
    await w.api.fixtures.createTeam(w.org.id, { title: 'Alpha', owners: [w.users.rita.id] })
    await w.api.fixtures.createTeam(w.org.id, { title: 'Beta' })
    await w.api.fixtures.createTeam(w.org.id, { title: 'Gamma' })
    const gb = w.client(w.tokens.rita).orgs
    const first = await gb.listTeamsInOrganizationById(w.org.id, { limit: 2 })
    expect(first.data.items.map((t) => t.title)).toEqual(['Alpha', 'Beta'])
    expectOfficialResponse('listTeamsInOrganizationById', 200, first.data)
    const second = await gb.listTeamsInOrganizationById(w.org.id, { limit: 2, page: first.data.next!.page })
    expect(second.data.items.map((t) => t.title)).toEqual(['Gamma'])
    expectOfficialResponse('listTeamsInOrganizationById', 200, second.data)
    const owned = await gb.listTeamsInOrganizationById(w.org.id, { owner: w.users.rita.id, title: 'ALP' })
    expect(owned.data.items.map((t) => [t.title, t.permissions.admin])).toEqual([['Alpha', true]])
    expectOfficialResponse('listTeamsInOrganizationById', 200, owned.data)
  })

  it('removeTeamFromOrganizationById answers 204 without a body', async () => {
    const w = await createWorld()
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers' })
    const res = await w.client(w.tokens.ada).orgs.removeTeamFromOrganizationById(w.org.id, team.id)
    // The official document answers 205 when a team was deleted and 204 when there was none;
    // the reference ("no content") wins: 204 in both cases.
    expect(res.status).toBe(204)
    expectOfficialResponse('removeTeamFromOrganizationById', 204, undefined)
    expect(w.api.store.read((tx) => tx.get('teams', team.id))).toBeUndefined()
  })

  it('the client surfaces a validation error naming the member id', async () => {
    const w = await createWorld()
    await expect(w.client(w.tokens.ada).orgs.createOrganizationTeam(w.org.id, { title: 'Half', members: [w.users.rita.id, w.users.olga.id] })).rejects.toThrow(
      `${w.users.olga.id} is not a member of the organization`,
    )
  })
})
