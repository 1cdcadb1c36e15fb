import { MemberRole } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { createWorld, type World } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

async function setup() {
  const w = await createWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Shared' })
  const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', members: [w.users.gina.id] })
  return { ...w, space, team }
}

const grants = (w: World, space: string) => w.api.store.read((tx) => tx.scan('spaceGrants', 'bySpace', space).map((e) => e.row.role))

describe('conformance: space permissions through @gitbook/api', () => {
  it('inviteToSpace answers 204 without a body (users and teams)', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.ada).spaces
    const res = await gb.inviteToSpace(w.space.id, { role: MemberRole.Edit, users: [w.users.gina.id] })
    expect(res.status).toBe(204)
    expectOfficialResponse('inviteToSpace', 204, undefined)
    const teams = await gb.inviteToSpace(w.space.id, { role: MemberRole.Read, teams: [w.team.id] })
    expect(teams.status).toBe(204)
    expect(grants(w, w.space.id)).toEqual(['edit', 'read'])
  })

  it('listUserPermissionsInSpace and listTeamPermissionsInSpace match the official schemas', async () => {
    const w = await setup()
    await w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'comment')
    await w.api.fixtures.grantSpace(w.space.id, { user: w.users.olga.id }, 'admin')
    await w.api.fixtures.grantSpace(w.space.id, { team: w.team.id }, 'review')
    const gb = w.client(w.tokens.rita).spaces
    const users = await gb.listUserPermissionsInSpace(w.space.id, { limit: 1 })
    expect(users.status).toBe(200)
    expect(users.data.count).toBe(2)
    expect(users.data.items.map((i) => [i.permission, i.user.id])).toEqual([['comment', w.users.gina.id]])
    expect(users.data.next?.page).toEqual(expect.any(String))
    expectOfficialResponse('listUserPermissionsInSpace', 200, users.data)
    const rest = await gb.listUserPermissionsInSpace(w.space.id, { page: users.data.next!.page })
    expect(rest.data.items.map((i) => i.user.id)).toEqual([w.users.olga.id])
    expectOfficialResponse('listUserPermissionsInSpace', 200, rest.data)
    const teams = await gb.listTeamPermissionsInSpace(w.space.id)
    expect(teams.data.items).toMatchObject([{ permission: 'review', team: { id: w.team.id, members: 1, spaces: 1 } }])
    expectOfficialResponse('listTeamPermissionsInSpace', 200, teams.data)
  })

  it('updateUserPermissionInSpace, updateTeamPermissionInSpace answer 204', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.ada).spaces
    const user = await gb.updateUserPermissionInSpace(w.space.id, w.users.rita.id, { role: MemberRole.Admin })
    expect(user.status).toBe(204)
    expectOfficialResponse('updateUserPermissionInSpace', 204, undefined)
    const team = await gb.updateTeamPermissionInSpace(w.space.id, w.team.id, { role: MemberRole.Edit })
    expect(team.status).toBe(204)
    expectOfficialResponse('updateTeamPermissionInSpace', 204, undefined)
    expect(grants(w, w.space.id)).toEqual(['admin', 'edit'])
    await gb.updateTeamPermissionInSpace(w.space.id, w.team.id, { role: null })
    expect(grants(w, w.space.id)).toEqual(['admin'])
  })

  it('removeUserFromSpace, removeTeamFromSpace answer 204', async () => {
    // The official document answers 205 when a grant was removed and 204 when there was none;
    // our table has one success status per operation, so both cases answer 204 (both bodyless).
    const w = await setup()
    await w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'read')
    await w.api.fixtures.grantSpace(w.space.id, { team: w.team.id }, 'read')
    const gb = w.client(w.tokens.ada).spaces
    const user = await gb.removeUserFromSpace(w.space.id, w.users.gina.id)
    expect(user.status).toBe(204)
    expectOfficialResponse('removeUserFromSpace', 204, undefined)
    const team = await gb.removeTeamFromSpace(w.space.id, w.team.id)
    expect(team.status).toBe(204)
    expectOfficialResponse('removeTeamFromSpace', 204, undefined)
    expect(grants(w, w.space.id)).toEqual([])
  })

  it('the client surfaces the 404 of an unknown user and the 403 of a reader', async () => {
    const w = await setup()
    await expect(w.client(w.tokens.ada).spaces.inviteToSpace(w.space.id, { role: MemberRole.Read, users: ['nobody'] })).rejects.toThrow('User nobody not found')
    await expect(w.client(w.tokens.rita).spaces.inviteToSpace(w.space.id, { role: MemberRole.Read, users: [w.users.gina.id] })).rejects.toMatchObject({
      code: 403,
    })
  })

  it('a guest with a grant lists who the space is shared with, without emails but her own; members with a role see them', async () => {
    const w = await setup()
    await w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'read')
    await w.api.fixtures.grantSpace(w.space.id, { user: w.users.ada.id }, 'admin')
    const guest = await w.client(w.tokens.gina).spaces.listUserPermissionsInSpace(w.space.id)
    expect(guest.status).toBe(200)
    expectOfficialResponse('listUserPermissionsInSpace', 200, guest.data)
    const byId = Object.fromEntries(guest.data.items.map((i) => [i.user.id, i.user]))
    expect(byId[w.users.ada.id]).toMatchObject({ displayName: 'Ada Lovelace' })
    expect(byId[w.users.ada.id]).not.toHaveProperty('email')
    expect(byId[w.users.gina.id]!.email).toBe('gina@elsewhere.test')
    expect(JSON.stringify(guest.data)).not.toContain('ada@acme.test')
    const reader = await w.client(w.tokens.rita).spaces.listUserPermissionsInSpace(w.space.id)
    expect(reader.data.items.map((i) => i.user.email).sort()).toEqual(['ada@acme.test', 'gina@elsewhere.test'])
    // The same for a user read by id: a guest sees a member's name, not the address.
    const user = await w.client(w.tokens.gina).users.getUserById(w.users.ada.id)
    expect(user.data).not.toHaveProperty('email')
    expectOfficialResponse('getUserById', 200, user.data)
    expect((await w.client(w.tokens.rita).users.getUserById(w.users.gina.id)).data.email).toBe('gina@elsewhere.test')
  })

  it("a guest with a grant reads change requests and comments without their authors' emails", async () => {
    const w = await setup()
    await w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'comment')
    const ada = w.client(w.tokens.ada).spaces
    const cr = await ada.createChangeRequest(w.space.id, { subject: 'Typos' })
    const comment = await ada.postCommentInSpace(w.space.id, { body: { markdown: 'Is this right?' } })
    await w.client(w.tokens.gina).spaces.postCommentReplyInSpace(w.space.id, comment.data.id, { body: { markdown: 'Yes' } })
    await ada.postCommentReplyInSpace(w.space.id, comment.data.id, { body: { markdown: 'Thanks' } })
    const gina = w.client(w.tokens.gina).spaces
    const answers = [
      (await gina.getChangeRequestById(w.space.id, cr.data.id)).data,
      (await gina.listChangeRequestsForSpace(w.space.id)).data,
      (await gina.listCommentsInSpace(w.space.id)).data,
      (await gina.listCommentRepliesInSpace(w.space.id, comment.data.id)).data,
    ]
    expectOfficialResponse('getChangeRequestById', 200, answers[0])
    expectOfficialResponse('listCommentsInSpace', 200, answers[2])
    for (const answer of answers) expect(JSON.stringify(answer)).not.toContain('ada@acme.test')
    // Her own address she sees; a member with a role sees everyone's.
    expect(JSON.stringify(answers[3])).toContain('gina@elsewhere.test')
    expect(JSON.stringify((await w.client(w.tokens.rita).spaces.listCommentsInSpace(w.space.id)).data)).toContain('ada@acme.test')
  })
})
