import { MemberRole } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld, expectError } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

async function setup() {
  const w = await createWorld()
  const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', members: [w.users.gina.id] })
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Shared' })
  await w.api.fixtures.grantSpace(space.id, { team: team.id }, 'edit')
  await w.api.fixtures.grantSpace(space.id, { user: w.users.rita.id }, 'comment')
  return { ...w, team, space }
}

/** Every page of a list, following `next.page`, each page checked against the official schema. */
async function allPages<T>(operation: string, get: (page: string | undefined) => Promise<{ status: number; data: { items: T[]; next?: { page: string } } }>) {
  const items: T[] = []
  let page: string | undefined
  let pages = 0
  do {
    const res = await get(page)
    expect(res.status).toBe(200)
    expectOfficialResponse(operation, 200, res.data)
    items.push(...res.data.items)
    page = res.data.next?.page
    pages++
  } while (page && pages < 100)
  return { items, pages }
}

describe('conformance: permission aggregates through @gitbook/api', () => {
  it('listPermissionsAggregateInSpace lists every member who reaches the space, with role and origin', async () => {
    const w = await setup()
    const gb = w.client(w.tokens.rita).spaces
    const res = await gb.listPermissionsAggregateInSpace(w.space.id)
    expect(res.status).toBe(200)
    expectOfficialResponse('listPermissionsAggregateInSpace', 200, res.data)
    expect(res.data.items.map((i) => [i.user.id, i.permission, (i as { origin?: unknown }).origin])).toEqual([
      [w.users.ada.id, 'admin', { type: 'organization', organization: w.org.id }],
      [w.users.rita.id, 'comment', { type: 'space', space: w.space.id, reason: 'member' }],
      [w.users.gina.id, 'edit', { type: 'space', space: w.space.id, reason: 'team', team: w.team.id }],
    ])
    // No count: it would need a scan of the whole organization.
    expect(res.data.count).toBeUndefined()
    expect(res.data.next).toBeUndefined()
    // One by one: the same items, each page valid.
    const paged = await allPages('listPermissionsAggregateInSpace', async (page) =>
      gb.listPermissionsAggregateInSpace(w.space.id, { limit: 1, ...(page && { page }) }),
    )
    expect(paged.items.map((i) => i.user.id)).toEqual([w.users.ada.id, w.users.rita.id, w.users.gina.id])
    expect(paged.pages).toBe(3)
    const edit = await gb.listPermissionsAggregateInSpace(w.space.id, { role: MemberRole.Edit })
    expect(edit.data.items.map((i) => i.user.id)).toEqual([w.users.gina.id])
  })

  it('listPermissionsAggregateInCollection: grants on the collection and the organization roles', async () => {
    const w = await createWorld()
    const collection = await w.api.fixtures.createCollection(w.org.id, { title: 'Guides' })
    const child = await w.api.fixtures.createCollection(w.org.id, { title: 'Child', parent: collection.id })
    await w.api.fixtures.grantCollection(collection.id, { user: w.users.gina.id }, 'review')
    const gb = w.client(w.tokens.gina).collections
    const res = await gb.listPermissionsAggregateInCollection(child.id)
    expect(res.status).toBe(200)
    expectOfficialResponse('listPermissionsAggregateInCollection', 200, res.data)
    expect(res.data.items.map((i) => [i.user.id, i.permission, (i as { origin?: unknown }).origin])).toEqual([
      [w.users.ada.id, 'admin', { type: 'organization', organization: w.org.id }],
      [w.users.rita.id, 'read', { type: 'organization', organization: w.org.id }],
      // A grant on a collection counts on its sub-collections: the origin names the one holding it.
      [w.users.gina.id, 'review', { type: 'collection', collection: collection.id, reason: 'member' }],
    ])
    const readers = await gb.listPermissionsAggregateInCollection(child.id, { role: MemberRole.Read })
    expect(readers.data.items.map((i) => i.user.id)).toEqual([w.users.rita.id])
  })

  it('listPermissionsAggregateInSite: permission (null for a guest), origin, filters and sorts', async () => {
    const w = await createWorld()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    const team = await w.api.fixtures.createTeam(w.org.id, { title: 'Writers', members: [w.users.rita.id] })
    const gb = w.client(w.tokens.rita).orgs
    const before = await gb.listPermissionsAggregateInSite(w.org.id, site.id, { sort: 'name', order: 'asc' })
    expect(before.status).toBe(200)
    expectOfficialResponse('listPermissionsAggregateInSite', 200, before.data)
    expect(before.data.items.map((i) => [i.user.id, i.permission, i.origin, i.disabled])).toEqual([
      [w.users.ada.id, 'admin', { type: 'organization', organization: w.org.id }, false],
      [w.users.gina.id, null, { type: 'organization', organization: w.org.id }, false],
      [w.users.rita.id, 'read', { type: 'organization', organization: w.org.id }, false],
    ])
    expect(before.data.count).toBe(3)
    await w.client(w.tokens.ada).orgs.updateTeamPermissionInSite(w.org.id, site.id, team.id, { role: MemberRole.Edit })
    const after = await gb.listPermissionsAggregateInSite(w.org.id, site.id, { team: team.id })
    expectOfficialResponse('listPermissionsAggregateInSite', 200, after.data)
    expect(after.data.items.map((i) => [i.user.id, i.permission, i.origin])).toEqual([
      [w.users.rita.id, 'edit', { type: 'site', site: site.id, reason: 'team', team: team.id }],
    ])
    const guests = await gb.listPermissionsAggregateInSite(w.org.id, site.id, { role: 'guest' })
    expect(guests.data.items.map((i) => i.user.id)).toEqual([w.users.gina.id])
    const search = await gb.listPermissionsAggregateInSite(w.org.id, site.id, { search: 'LOVELACE' })
    expect(search.data.items.map((i) => i.user.id)).toEqual([w.users.ada.id])
    const paged = await allPages('listPermissionsAggregateInSite', async (page) =>
      gb.listPermissionsAggregateInSite(w.org.id, site.id, { limit: 2, sort: 'name', order: 'desc', ...(page && { page }) }),
    )
    expect(paged.items.map((i) => i.user.id)).toEqual([w.users.rita.id, w.users.gina.id, w.users.ada.id])
  })

  it('bad input names the field and the rule', async () => {
    const w = await setup()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    const space = `/v1/spaces/${w.space.id}/permissions/aggregate`
    expectError(await call(w.api, w.tokens.ada, 'GET', `${space}?role=owner`), 400, '`role`')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${space}?role=guest`), 400, 'must be one of')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${space}?limit=-1`), 400, '`limit`')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${space}?limit=1001`), 400, 'at most 1000')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${space}?page=nonsense`), 400, '`page`')
    const collection = await w.api.fixtures.createCollection(w.org.id, { title: 'C' })
    expectError(await call(w.api, w.tokens.ada, 'GET', `/v1/collections/${collection.id}/permissions/aggregate?limit=ten`), 400, '`limit`')
    const sitePath = `/v1/orgs/${w.org.id}/sites/${site.id}/permissions/aggregate`
    expectError(await call(w.api, w.tokens.ada, 'GET', `${sitePath}?sort=size`), 400, '`sort`')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${sitePath}?role=owner`), 400, '`role`')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${sitePath}?order=up`), 400, '`order`')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${sitePath}?team=nope`), 404, 'Team nope not found')
    // A cursor made for one sort is no cursor of another.
    const first = await call(w.api, w.tokens.ada, 'GET', `${sitePath}?limit=1&sort=name`)
    expectError(await call(w.api, w.tokens.ada, 'GET', `${sitePath}?sort=joinedAt&page=${first.body.next.page}`), 400, '`page`')
  })

  it('permission: as the grant lists, readers of the resource only; others get a 404', async () => {
    const w = await setup()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    const collection = await w.api.fixtures.createCollection(w.org.id, { title: 'C' })
    const space = `/v1/spaces/${w.space.id}/permissions/aggregate`
    // olga is in no organization; gina is a guest: her team's grant lets her read the space and its aggregate.
    expect((await call(w.api, w.tokens.olga, 'GET', space)).status).toBe(404)
    const asGuest = await call(w.api, w.tokens.gina, 'GET', space)
    expect(asGuest.status).toBe(200)
    // A guest reads no member's email, only her own.
    const emails = (asGuest.body.items as Array<{ user: { id: string; email?: string } }>).map((i) => [i.user.id, i.user.email])
    expect(emails.filter(([, email]) => email !== undefined)).toEqual([[w.users.gina.id, 'gina@elsewhere.test']])
    expect(emails.length).toBeGreaterThan(1)
    expectOfficialResponse('listPermissionsAggregateInSpace', 200, asGuest.body)
    expect((await call(w.api, w.tokens.gina, 'GET', `/v1/collections/${collection.id}/permissions/aggregate`)).status).toBe(404)
    expect((await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/sites/${site.id}/permissions/aggregate`)).status).toBe(404)
    expect((await call(w.api, w.tokens.olga, 'GET', `/v1/orgs/${w.org.id}/sites/${site.id}/permissions/aggregate`)).status).toBe(404)
    await expect(w.client(w.tokens.olga).spaces.listPermissionsAggregateInSpace(w.space.id)).rejects.toMatchObject({ code: 404 })
    expect((await call(w.api, undefined, 'GET', space)).status).toBe(401)
  })
})
