import { describe, expect, it } from 'vitest'
import { call, expectError } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { page, publish, searchOrg, searchWorld } from './helpers.js'

type SpaceHit = { id: string; title: string; score: number; pages: Array<{ title: string; rank: number; score: number }> }

/**
 * Acme has a private space (Handbook), a space shared with gina the guest (Partners) and a public
 * one (Status); Globex, another organization, has the same words in its own space.
 */
async function world() {
  const w = await searchWorld()
  const partners = await w.api.fixtures.createSpace(w.org.id, { title: 'Partners' })
  const status = await w.api.fixtures.createSpace(w.org.id, { title: 'Status', visibility: 'public' })
  await w.api.fixtures.grantSpace(partners.id, { user: w.users.gina.id }, 'read')
  await publish(w, w.space.id, [page('Compass', 'The compass points north.'), page('Map', 'A compass and a map.'), page('Rope', 'Knots, no compass here.')])
  await publish(w, partners.id, [page('Shared compass', 'Compass compass compass for partners.')])
  await publish(w, status.id, [page('Compass status', 'The compass service is up.')])
  const globex = await w.api.fixtures.createOrganization({
    title: 'Globex',
    members: [
      { user: w.users.olga.id, role: 'admin' },
      { user: w.users.ada.id, role: 'read' },
    ],
  })
  const foreign = await w.api.fixtures.createSpace(globex.id, { title: 'Foreign' })
  await publish(w, foreign.id, [page('Foreign compass', 'Compass secrets of Globex.')], w.tokens.olga)
  return { ...w, partners, status, globex, foreign }
}

const spacesOf = (body: { items: SpaceHit[] }) => body.items.map((s) => s.title)

describe('search: an organization', () => {
  it('answers spaces ordered by their best page, each with its pages ranked in one ranking', async () => {
    const w = await world()
    const res = await searchOrg(w, w.tokens.ada, w.org.id, 'compass')
    expect(res.status).toBe(200)
    expectOfficialResponse('searchOrganizationContent', 200, res.body)
    const items: SpaceHit[] = res.body.items
    expect(res.body.count).toBe(3)
    expect(items.map((s) => s.title).sort()).toEqual(['Handbook', 'Partners', 'Status'])
    // Ranks are positions in one ranking of every page, kept when grouped by space.
    const ranks = items.flatMap((s) => s.pages.map((p) => p.rank)).sort((a, b) => a - b)
    expect(ranks).toEqual([1, 2, 3, 4, 5])
    for (const space of items) {
      expect(space).toMatchObject({ type: 'space', score: space.pages[0]!.score })
      expect(space.pages.map((p) => p.rank)).toEqual([...space.pages.map((p) => p.rank)].sort((a, b) => a - b))
    }
    expect(items.map((s) => s.pages[0]!.rank)).toEqual([...items.map((s) => s.pages[0]!.rank)].sort((a, b) => a - b))
    expect(
      items
        .find((s) => s.title === 'Handbook')!
        .pages.map((p) => p.title)
        .sort(),
    ).toEqual(['Compass', 'Map', 'Rope'])
  })

  it('never shows a space the caller is not a member of: members see every space, a guest what he was invited to, never another organization', async () => {
    const w = await world()
    expect(spacesOf((await searchOrg(w, w.tokens.rita, w.org.id, 'compass')).body).sort()).toEqual(['Handbook', 'Partners', 'Status'])
    const guest = await searchOrg(w, w.tokens.gina, w.org.id, 'compass')
    expectOfficialResponse('searchOrganizationContent', 200, guest.body)
    // Not the public space either: it is open to him as to anyone, but he is not a member of it.
    expect(spacesOf(guest.body)).toEqual(['Partners'])
    expect(guest.body.count).toBe(1)
    // Ada is a reader in Globex: its search shows its own space only, Acme's search never Globex's.
    expect(spacesOf((await searchOrg(w, w.tokens.ada, w.globex.id, 'compass')).body)).toEqual(['Foreign'])
    const acme = await searchOrg(w, w.tokens.ada, w.org.id, 'globex secrets')
    expect(acme.body).toEqual({ items: [], count: 0 })
    // Losing the grant hides the space at once.
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${w.partners.id}/permissions/users/${w.users.gina.id}`)
    expect((await searchOrg(w, w.tokens.gina, w.org.id, 'compass')).body).toEqual({ items: [], count: 0 })
  })

  it('leaves out trashed spaces (back once restored) and pages through spaces', async () => {
    const w = await world()
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${w.partners.id}`)
    expect(spacesOf((await searchOrg(w, w.tokens.ada, w.org.id, 'compass')).body).sort()).toEqual(['Handbook', 'Status'])
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.partners.id}/restore`)
    const all = spacesOf((await searchOrg(w, w.tokens.ada, w.org.id, 'compass')).body)
    const walked: string[] = []
    let next: string | undefined
    do {
      const res = await searchOrg(w, w.tokens.ada, w.org.id, 'compass', `&limit=2${next ? `&page=${encodeURIComponent(next)}` : ''}`)
      expectOfficialResponse('searchOrganizationContent', 200, res.body)
      expect(res.body.count).toBe(3)
      walked.push(...spacesOf(res.body))
      next = res.body.next?.page
    } while (next)
    expect(walked).toEqual(all)
  })

  it('refuses bad queries (400) and hidden organizations (404), and changes nothing', async () => {
    const w = await world()
    const before = w.api.dump()
    expectError(await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/search`), 400, 'query parameter `query`: is required')
    expectError(await searchOrg(w, w.tokens.ada, w.org.id, 'y'.repeat(513)), 400, 'query parameter `query`: must be at most 512 characters')
    expectError(await searchOrg(w, w.tokens.ada, w.org.id, 'compass', '&limit=-1'), 400, 'query parameter `limit`')
    for (const bad of ['[0]', '[-5]', '[1.5]'])
      expectError(
        await searchOrg(w, w.tokens.ada, w.org.id, 'compass', `&page=${encodeURIComponent(btoa(bad))}`),
        400,
        'Invalid query parameter `page`: not a cursor of this list',
      )
    expectError(await searchOrg(w, undefined, w.org.id, 'compass'), 401, '')
    expectError(await searchOrg(w, w.tokens.olga, w.org.id, 'compass'), 404, 'Organization not found')
    expectError(await searchOrg(w, w.tokens.gina, w.globex.id, 'compass'), 404, 'Organization not found')
    expectError(await searchOrg(w, w.tokens.ada, 'no-such-org', 'compass'), 404, 'Organization not found')
    expect(w.api.dump()).toEqual(before)
  })
})
