import { GitBookAPI, GitBookAPIError, MemberRole } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { createWorld } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

/**
 * The script people write most against GitBook's API, run end to end through the official client:
 * create an organization, invite people by email, build teams, grant teams collections, check who
 * can read what, remove someone, read what happened.
 */
describe('a provisioning script through @gitbook/api', () => {
  it('creates an organization, invites 50 users, builds 5 teams, grants them collections, removes a user', async () => {
    const w = await createWorld()
    const owner = w.client(w.tokens.olga)
    const created = await owner.orgs.createOrganization({ title: 'Provisioned Co' })
    expectOfficialResponse('createOrganization', 201, created.data)
    const org = created.data.id

    // 50 people by email, in two calls (half readers by default, half editors by their own role).
    const emails = Array.from({ length: 50 }, (_, i) => `person${String(i).padStart(2, '0')}@provisioned.test`)
    const first = await owner.orgs.inviteUsersToOrganization(org, { emails: emails.slice(0, 25), role: MemberRole.Read })
    const second = await owner.orgs.inviteUsersToOrganization(org, { emails: emails.slice(25).map((email) => ({ email, role: MemberRole.Edit })) })
    expectOfficialResponse('inviteUsersToOrganization', 200, second.data)
    expect(first.data.invited + second.data.invited).toBe(50)
    const people = [...first.data.users, ...second.data.users]
    expect(new Set(people).size).toBe(50)

    // Every member, paged through by the client as a script would.
    const memberIds: string[] = []
    let page: string | undefined
    do {
      const res = await owner.orgs.listMembersInOrganizationById(org, { limit: 20, ...(page ? { page } : {}) })
      expectOfficialResponse('listMembersInOrganizationById', 200, res.data)
      memberIds.push(...res.data.items.map((m) => m.user.id))
      page = res.data.next?.page
    } while (page)
    expect(memberIds).toHaveLength(51)
    expect(new Set(memberIds)).toEqual(new Set([w.users.olga.id, ...people]))

    // Five teams of ten.
    const teams: string[] = []
    for (let t = 0; t < 5; t++) {
      const team = await owner.orgs.createOrganizationTeam(org, { title: `Team ${t}` })
      expectOfficialResponse('createOrganizationTeam', 201, team.data)
      const members = people.slice(t * 10, t * 10 + 10)
      const res = await owner.orgs.updateMembersInOrganizationTeam(org, team.data.id, { add: members })
      expect(res.status).toBe(204)
      teams.push(team.data.id)
    }
    for (const [t, team] of teams.entries()) {
      const list = await owner.orgs.listTeamMembersInOrganizationById(org, team, { limit: 100 })
      expect(list.data.items.map((m) => m.organization.id).sort()).toEqual(people.slice(t * 10, t * 10 + 10).sort())
    }

    // A collection per team: the team edits its own, with a space in it.
    const collections: string[] = []
    const spaces: string[] = []
    for (const [t, team] of teams.entries()) {
      const collection = await owner.orgs.createCollection(org, { title: `Handbook ${t}` })
      const space = await owner.orgs.createSpace(org, { title: `Guide ${t}`, parent: collection.data.id })
      const granted = await owner.collections.inviteToCollection(collection.data.id, { role: MemberRole.Edit, teams: [team] })
      expect(granted.status).toBe(204)
      collections.push(collection.data.id)
      spaces.push(space.data.id)
    }
    const teamGrants = await owner.collections.listTeamPermissionsInCollection(collections[0]!)
    expectOfficialResponse('listTeamPermissionsInCollection', 200, teamGrants.data)
    expect(teamGrants.data.items.map((i) => [i.team.id, i.permission])).toEqual([[teams[0], 'edit']])

    // The grants take effect: a reader of team 0 edits team 0's guide, only reads team 1's.
    const reader = people[0]!
    const readerClient = new GitBookAPI({
      endpoint: 'http://localhost:4000',
      authToken: await w.api.fixtures.createToken(reader),
      serviceBinding: { fetch: w.api.fetch },
    })
    expect((await readerClient.spaces.getSpaceById(spaces[0]!)).data.permissions.edit).toBe(true)
    expect((await readerClient.spaces.getSpaceById(spaces[1]!)).data.permissions.edit).toBe(false)

    // Who can reach team 0's collection, and why: every member reads it through the organization
    // role; team 0 edits it through the team grant (read by a script page by page).
    const aggregate = async (collection: string) => {
      const items: Array<{ user: string; permission: string; origin: unknown }> = []
      let cursor: string | undefined
      do {
        const res = await owner.collections.listPermissionsAggregateInCollection(collection, { limit: 20, ...(cursor ? { page: cursor } : {}) })
        expectOfficialResponse('listPermissionsAggregateInCollection', 200, res.data)
        items.push(...res.data.items.map((i) => ({ user: i.user.id, permission: i.permission, origin: (i as { origin?: unknown }).origin })))
        cursor = res.data.next?.page
      } while (cursor)
      return items
    }
    const before = await aggregate(collections[0]!)
    expect(before).toHaveLength(51)
    const byUser = new Map(before.map((i) => [i.user, i]))
    expect(byUser.get(w.users.olga.id)?.permission).toBe('admin')
    for (const person of people.slice(0, 10)) {
      expect(byUser.get(person)).toMatchObject({ permission: 'edit', origin: { type: 'collection', reason: 'team', team: teams[0] } })
    }
    // Readers outside team 0 read; editors (invited with `edit`) edit through their own role.
    expect(byUser.get(people[10]!)).toMatchObject({ permission: 'read', origin: { type: 'organization' } })
    expect(byUser.get(people[30]!)).toMatchObject({ permission: 'edit', origin: { type: 'organization' } })
    const spaceAggregate = await owner.spaces.listPermissionsAggregateInSpace(spaces[0]!, { role: MemberRole.Edit, limit: 100 })
    expectOfficialResponse('listPermissionsAggregateInSpace', 200, spaceAggregate.data)
    // The 51 members fit in one walk of at most 5 × 100: team 0 and the 25 editors, nobody else.
    expect(spaceAggregate.data.items.map((i) => i.permission)).toEqual(Array(35).fill('edit'))

    // Removing the user takes everything away: membership, teams, the collection through the team.
    const removed = await owner.orgs.removeMemberFromOrganizationById(org, reader)
    expect(removed.status).toBe(204)
    const denied = await readerClient.spaces.getSpaceById(spaces[0]!).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(denied).toBeInstanceOf(GitBookAPIError)
    expect((denied as GitBookAPIError).code).toBe(404)
    const team0 = await owner.orgs.listTeamMembersInOrganizationById(org, teams[0]!, { limit: 100 })
    expect(team0.data.items.map((m) => m.organization.id)).not.toContain(reader)
    expect((await owner.orgs.getTeamInOrganizationById(org, teams[0]!)).data.members).toBe(9)
    const after = await aggregate(collections[0]!)
    expect(after).toHaveLength(50)
    expect(after.map((i) => i.user)).not.toContain(reader)

    // The audit trail holds every change, newest first, paged; a filter finds the removal.
    const events: Array<{ action: string; actor: string; target: string }> = []
    let cursor: string | undefined
    do {
      const res = await owner.orgs.listOrganizationAuditEvents(org, { limit: 100, ...(cursor ? { page: cursor } : {}) })
      expectOfficialResponse('listOrganizationAuditEvents', 200, res.data)
      events.push(...res.data.items.map((e) => ({ action: e.action, actor: e.actor.id, target: `${e.target.type}:${e.target.id}` })))
      cursor = res.data.next?.page
    } while (cursor)
    const counts: Record<string, number> = {}
    for (const e of events) counts[e.action] = (counts[e.action] ?? 0) + 1
    expect(counts).toEqual({
      'organization.created': 1,
      'invite.created': 50,
      'team.created': 5,
      'team.member_added': 50,
      'collection.permission_updated': 5,
      'member.removed': 1,
    })
    expect(events[0]!.action).toBe('member.removed')
    expect(events.at(-1)!.action).toBe('organization.created')
    expect(events.every((e) => e.actor === w.users.olga.id)).toBe(true)
    const removal = await owner.orgs.listOrganizationAuditEvents(org, { action: 'member.removed' })
    expect(removal.data.items.map((e) => [e.target.id, e.actor.id])).toEqual([[reader, w.users.olga.id]])
    const details = await owner.orgs.getOrganizationAuditEvent(org, removal.data.items[0]!.id)
    expectOfficialResponse('getOrganizationAuditEvent', 200, details.data)
    const actions = await owner.orgs.listOrganizationAuditEventActions(org)
    expectOfficialResponse('listOrganizationAuditEventActions', 200, actions.data)
    expect(actions.data.items.map((a) => a.id)).toEqual(expect.arrayContaining(Object.keys(counts)))
  })
})
