import { GitBookAPIError, MemberRole, TeamMemberRole } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld, expectError, type World } from '../helpers.js'
import { expectOfficialResponse } from './official.js'
import { createMemoryStore } from '../../src/storage/memory.js'
import type { StoragePort } from '../../src/storage/port.js'
import { schema } from '../../src/domains/schema.js'

/** Every event of an organization, newest first, read page by page through the official client. */
async function allEvents(w: World, organization: string, query: Record<string, string | number> = {}) {
  const gb = w.client(w.tokens.ada).orgs
  const items = []
  let page: string | undefined
  for (;;) {
    const res = await gb.listOrganizationAuditEvents(organization, { limit: 100, ...query, ...(page !== undefined && { page }) })
    expectOfficialResponse('listOrganizationAuditEvents', 200, res.data)
    items.push(...res.data.items)
    page = res.data.next?.page
    if (page === undefined) return items
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('conformance: audit events through @gitbook/api', () => {
  it('every action of the catalogue is recorded by an operation, with actor, target, time and payload', async () => {
    const w = await createWorld()
    const ada = w.client(w.tokens.ada)
    const gb = ada.orgs
    const actions = await gb.listOrganizationAuditEventActions(w.org.id)
    expect(actions.status).toBe(200)
    expectOfficialResponse('listOrganizationAuditEventActions', 200, actions.data)
    const catalogue = actions.data.items.map((a) => a.id)
    expect(catalogue).toContain('member.role_updated')

    // Organizations, members, invites.
    const created = await gb.createOrganization({ title: 'Ada Co' })
    await gb.updateOrganizationById(w.org.id, { title: 'Acme Inc', inviteLinks: true })
    await gb.updateMemberInOrganizationById(w.org.id, w.users.rita.id, { role: MemberRole.Edit })
    await gb.setUserAsSsoMemberForOrganization(w.org.id, w.users.rita.id)
    const invited = await gb.inviteUsersToOrganization(w.org.id, { emails: ['newbie@acme.test'], role: MemberRole.Read })
    const link = await gb.createOrganizationInvite(w.org.id, { role: MemberRole.Comment })
    await gb.updateOrganizationInviteById(w.org.id, link.data.id, { role: MemberRole.Edit })
    await w.client(w.tokens.olga).orgs.joinOrganizationWithInvite(w.org.id, link.data.id)
    await gb.deleteOrganizationInviteById(w.org.id, link.data.id)
    // Teams and their members.
    const team = await gb.createOrganizationTeam(w.org.id, { title: 'Writers' })
    await gb.updateTeamInOrganizationById(w.org.id, team.data.id, { title: 'Authors' })
    await gb.addMemberToOrganizationTeamById(w.org.id, team.data.id, w.users.rita.id, {})
    await gb.updateMembersInOrganizationTeam(w.org.id, team.data.id, { memberships: { [w.users.rita.id]: { role: TeamMemberRole.Owner } } })
    await gb.deleteMemberFromOrganizationTeamById(w.org.id, team.data.id, w.users.rita.id)
    // Grants on a space, a collection and a site; a newcomer invited to a space joins as a guest.
    const outsider = await w.api.fixtures.createUser({ displayName: 'Nora Newcomer', email: 'nora@else.test' })
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
    await ada.spaces.inviteToSpace(space.id, { role: MemberRole.Read, users: [outsider.id] })
    await ada.spaces.updateTeamPermissionInSpace(space.id, team.data.id, { role: MemberRole.Edit })
    await ada.spaces.removeTeamFromSpace(space.id, team.data.id)
    const collection = await w.api.fixtures.createCollection(w.org.id, { title: 'Handbook' })
    await ada.collections.updateUserPermissionInCollection(collection.id, w.users.rita.id, { role: MemberRole.Edit })
    await ada.collections.removeUserFromCollection(collection.id, w.users.rita.id)
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Public docs' })
    await gb.updateUserPermissionInSite(w.org.id, site.id, w.users.rita.id, { role: MemberRole.Admin })
    await gb.removeUserFromSite(w.org.id, site.id, w.users.rita.id)
    // Share links of the site, SAML providers, a space deleted and restored.
    const shareLink = await gb.createSiteShareLink(w.org.id, site.id, { name: 'Reviewers' })
    await gb.updateSiteShareLinkById(w.org.id, site.id, shareLink.data.id, { active: false })
    await gb.deleteSiteShareLinkById(w.org.id, site.id, shareLink.data.id)
    const saml = await gb.createOrganizationSamlProvider(w.org.id, { label: 'Okta' })
    expect((await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}/saml/${saml.data.id}`, { label: 'Okta EU' })).status).toBe(200)
    expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/orgs/${w.org.id}/saml/${saml.data.id}`)).status).toBe(204)
    await ada.spaces.deleteSpaceById(space.id)
    expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/restore`)).status).toBe(200)
    await gb.removeTeamFromOrganizationById(w.org.id, team.data.id)
    await gb.removeMemberFromOrganizationById(w.org.id, w.users.olga.id)

    const events = [...(await allEvents(w, w.org.id)), ...(await allEvents(w, created.data.id))]
    const recorded = new Set(events.map((e) => e.action))
    // The walk of the catalogue: each action is produced by at least one operation above.
    expect(catalogue.filter((a) => !recorded.has(a))).toEqual([])
    expect([...recorded].filter((a) => !catalogue.includes(a))).toEqual([])

    for (const e of events) {
      expect(e.id).toMatch(UUID)
      expect(e.actor.type).toBe('user')
      expect(e.source).toBe('api')
    }
    const roleChange = events.find((e) => e.action === 'member.role_updated')!
    expect(roleChange.actor).toEqual({ type: 'user', id: w.users.ada.id, label: 'Ada Lovelace' })
    expect(roleChange.target).toEqual({ type: 'user', id: w.users.rita.id, label: 'Rita Reader' })
    expect(roleChange.occurredAt).toBe(w.clock.now().toISOString())
    // The joiner is the actor of his own join.
    expect(events.find((e) => e.action === 'invite.joined')!.actor.id).toBe(w.users.olga.id)
    expect(events.find((e) => e.action === 'invite.created')!.target.id).toBe(invited.data.users[0])

    const details = await gb.getOrganizationAuditEvent(w.org.id, roleChange.id)
    expect(details.status).toBe(200)
    expectOfficialResponse('getOrganizationAuditEvent', 200, details.data)
    expect(details.data).toMatchObject({ id: roleChange.id, schemaVersion: 1, payload: { roleBefore: 'read', roleAfter: 'edit' } })
    // urls.location is served through the table.
    const located = await call(w.api, w.tokens.ada, 'GET', new URL(roleChange.urls.location).pathname)
    expect(located.status).toBe(200)
    expect(located.body.id).toBe(roleChange.id)
    const grant = events.find((e) => e.action === 'site.permission_updated')!
    expect(grant.target).toEqual({ type: 'site', id: site.id, label: 'Public docs' })
    expect((await gb.getOrganizationAuditEvent(w.org.id, grant.id)).data.payload).toEqual({
      principal: { type: 'user', id: w.users.rita.id },
      roleAfter: 'admin',
    })
  })

  it('newest first, paged with a cursor; filters by action, actor, target and time (the API clock)', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada).orgs
    const start = w.clock.now().getTime()
    // Five role changes, one a minute.
    const roles = [MemberRole.Edit, MemberRole.Comment, MemberRole.Review, MemberRole.Create, MemberRole.Read]
    for (const role of roles) {
      await gb.updateMemberInOrganizationById(w.org.id, w.users.rita.id, { role })
      w.clock.advance(60_000)
    }
    // Two in the same millisecond: the later one still comes first.
    await gb.updateMemberInOrganizationById(w.org.id, w.users.gina.id, { role: MemberRole.Read })
    await gb.updateMemberInOrganizationById(w.org.id, w.users.gina.id, { role: MemberRole.Edit })
    const team = await gb.createOrganizationTeam(w.org.id, { title: 'Writers' })

    const first = await gb.listOrganizationAuditEvents(w.org.id, { limit: 3 })
    expectOfficialResponse('listOrganizationAuditEvents', 200, first.data)
    expect(first.data.items.map((e) => e.action)).toEqual(['team.created', 'member.role_updated', 'member.role_updated'])
    expect(first.data.count).toBe(8)
    const second = await gb.listOrganizationAuditEvents(w.org.id, { limit: 3, page: first.data.next!.page })
    const third = await gb.listOrganizationAuditEvents(w.org.id, { limit: 3, page: second.data.next!.page })
    expect(third.data.next).toBeUndefined()
    const all = [...first.data.items, ...second.data.items, ...third.data.items]
    expect(all).toHaveLength(8)
    const times = all.map((e) => Date.parse(e.occurredAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const ginaEvents = all.filter((e) => e.target.id === w.users.gina.id)
    const payloads = await Promise.all(ginaEvents.map(async (e) => (await gb.getOrganizationAuditEvent(w.org.id, e.id)).data.payload))
    expect(payloads).toEqual([
      { roleBefore: 'read', roleAfter: 'edit' },
      { roleBefore: null, roleAfter: 'read' },
    ])

    expect((await allEvents(w, w.org.id, { action: 'team.created' })).map((e) => e.target.id)).toEqual([team.data.id])
    expect((await allEvents(w, w.org.id, { target: w.users.rita.id })).length).toBe(5)
    expect((await allEvents(w, w.org.id, { actor: w.users.ada.id })).length).toBe(8)
    expect(await allEvents(w, w.org.id, { actor: w.users.rita.id })).toEqual([])
    // Combined filters, paged one at a time.
    const combined = await allEvents(w, w.org.id, { target: w.users.rita.id, action: 'member.role_updated', limit: 1 })
    expect(combined).toHaveLength(5)
    // from and to (inclusive), from the API's clock: the second to fourth change of Rita's role.
    const iso = (ms: number) => new Date(ms).toISOString()
    const window = await allEvents(w, w.org.id, { from: iso(start + 60_000), to: iso(start + 180_000), limit: 1 })
    expect(window.map((e) => e.occurredAt)).toEqual([iso(start + 180_000), iso(start + 120_000), iso(start + 60_000)])
    const windowed = await gb.listOrganizationAuditEvents(w.org.id, { from: iso(start + 60_000), to: iso(start + 180_000) })
    expect(windowed.data.count).toBeUndefined()
    expectOfficialResponse('listOrganizationAuditEvents', 200, windowed.data)
  })

  it('the events of one request share a correlation id; those of another request do not', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada).orgs
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers' })
    await gb.updateMembersInOrganizationTeam(w.org.id, team.id, { add: [w.users.ada.id, w.users.rita.id] })
    await gb.deleteMemberFromOrganizationTeamById(w.org.id, team.id, w.users.rita.id)
    const events = await allEvents(w, w.org.id)
    expect(events.map((e) => [e.action, e.target.id])).toEqual([
      ['team.member_removed', w.users.rita.id],
      ['team.member_added', w.users.rita.id],
      ['team.member_added', w.users.ada.id],
    ])
    const details = await Promise.all(events.map(async (e) => (await gb.getOrganizationAuditEvent(w.org.id, e.id)).data))
    expect(details[1]!.correlationId).toBe(details[2]!.id)
    expect(details[2]!.correlationId).toBe(details[2]!.id)
    expect(details[0]!.correlationId).toBe(details[0]!.id)
    expect(details.map((d) => d.payload)).toEqual([
      { team: team.id, role: 'member' },
      { team: team.id, role: 'member' },
      { team: team.id, role: 'member' },
    ])
  })

  it('bad input: limit, from, to, page and the event id (400 naming the field); an unknown event is a 404', async () => {
    const w = await createWorld()
    const base = `/v1/orgs/${w.org.id}/audit-events`
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base}?limit=0`), 400, 'limit')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base}?limit=101`), 400, 'limit')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base}?from=yesterday`), 400, 'from')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base}?to=2026-13-01`), 400, 'to')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base}?page=nonsense`), 400, 'page')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base}/not-a-uuid`), 400, 'auditEventId')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base}/00000000-0000-4000-8000-000000000000`), 404, 'not found')
  })

  it('admins only: a member without admin is refused (403), an outsider sees nothing (404), and events of another organization are 404', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada).orgs
    await gb.updateMemberInOrganizationById(w.org.id, w.users.rita.id, { role: MemberRole.Edit })
    const [event] = await allEvents(w, w.org.id)
    for (const path of [`/audit-event-actions`, `/audit-events`, `/audit-events/${event!.id}`]) {
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}${path}`)).status).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'GET', `/v1/orgs/${w.org.id}${path}`)).status).toBe(404)
    }
    const error = await w
      .client(w.tokens.rita)
      .orgs.listOrganizationAuditEvents(w.org.id)
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(error).toBeInstanceOf(GitBookAPIError)
    expect((error as GitBookAPIError).code).toBe(403)
    const other = await gb.createOrganization({ title: 'Other' })
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${other.data.id}/audit-events/${event!.id}`)).status).toBe(404)
  })

  it('a failed request records nothing; an unchanged role records nothing', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada).orgs
    // Demoting the last admin fails: no event.
    const refused = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}/members/${w.users.ada.id}`, { role: 'read' })
    expect(refused.status).toBe(400)
    // A bulk update failing on its second entry after the first was resolved: rolled back, no event.
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers' })
    const bulk = await call(w.api, w.tokens.ada, 'PUT', `/v1/orgs/${w.org.id}/teams/${team.id}/members`, { add: [w.users.rita.id, w.users.olga.id] })
    expect(bulk.status).toBe(400)
    // An invitation naming an unknown user after a valid one: the guest added first is rolled back with its event.
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
    const invite = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/permissions`, { role: 'read', users: [w.users.olga.id, 'nobody'] })
    expect(invite.status).toBe(404)
    // The same role again changes nothing.
    await gb.updateMemberInOrganizationById(w.org.id, w.users.rita.id, { role: MemberRole.Read })
    expect(await allEvents(w, w.org.id)).toEqual([])
    expect(w.api.store.read((tx) => tx.all('auditEvents'))).toEqual([])
  })

  it('a transaction rolled back after the change was recorded keeps neither the change nor its event', async () => {
    const inner = createMemoryStore(schema)
    let failCommit = false
    // A store whose commit fails once asked to (a disk full, say): the handler ran, recorded, then everything is undone.
    const store: StoragePort<typeof schema> = {
      ...inner,
      read: (fn) => inner.read(fn),
      transaction: (fn) =>
        inner.transaction((tx) => {
          const result = fn(tx)
          if (failCommit) throw new Error('commit failed')
          return result
        }),
      snapshot: () => inner.snapshot!(),
      restore: (s) => inner.restore!(s),
    }
    const w = await createWorld({ store, onError: () => {} })
    failCommit = true
    const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}/members/${w.users.rita.id}`, { role: 'edit' })
    failCommit = false
    expect(res.status).toBe(500)
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/members/${w.users.rita.id}`)).body.role).toBe('read')
    expect(await allEvents(w, w.org.id)).toEqual([])
  })

  it('keeps at most auditEventsPerOrganization events, dropping the oldest in the same transaction', async () => {
    const w = await createWorld({ auditEventsPerOrganization: 3 })
    const gb = w.client(w.tokens.ada).orgs
    const titles = ['Acme A', 'Acme B', 'Acme C', 'Acme D', 'Acme E']
    for (const title of titles) {
      await gb.updateOrganizationById(w.org.id, { title })
      w.clock.advance(1000)
    }
    const events = await allEvents(w, w.org.id)
    const payloads = await Promise.all(events.map(async (e) => (await gb.getOrganizationAuditEvent(w.org.id, e.id)).data.payload))
    expect(payloads).toEqual([{ fields: ['title'] }, { fields: ['title'] }, { fields: ['title'] }])
    expect(events.map((e) => e.target.label)).toEqual(['Acme E', 'Acme D', 'Acme C'])
    expect(w.api.store.read((tx) => tx.all('auditEvents')).length).toBe(3)
  })

  it('a state document carries the events', async () => {
    const w = await createWorld()
    await w.client(w.tokens.ada).orgs.updateMemberInOrganizationById(w.org.id, w.users.rita.id, { role: MemberRole.Edit })
    const before = await allEvents(w, w.org.id)
    const { createDocsApi } = await import('../../src/index.js')
    const copy = createDocsApi({ baseUrl: 'http://localhost', seed: w.api.dump() })
    const moved = await call(copy, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/audit-events`)
    expect(moved.status).toBe(200)
    expect(moved.body.items.map((e: { id: string }) => e.id)).toEqual(before.map((e) => e.id))
  })
})
