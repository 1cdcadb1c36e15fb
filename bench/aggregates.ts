import { createDocsApi } from '../src/index.js'
import { compare, formatOps } from './harness.js'
import type { Result } from './measures.js'
import { BASE, expectStatus, nextCursor } from './world.js'

/**
 * (x) `permission-aggregate`: a page of a space's permission aggregate
 * (`GET /v1/spaces/{id}/permissions/aggregate?limit=50`) in an organization of 10,000 members and
 * 100 teams, against the same in one of 100 members. Two APIs in one process, alternating rounds;
 * the result is the CPU time per page at 10,000 over that at 100.
 *
 * Both organizations are built alike, through the fixtures (the same domain functions as the API;
 * creating 10,000 members by invitation would time the invitations): member `i` is a guest when
 * `i % 10 == 0`, an editor when `i % 10 == 1`, a reader otherwise, and in team `i % teams`. The
 * space sits in a collection (visibility `in-collection`) whose default level is `read`; the space
 * grants `edit` to the first 10 teams and the collection `comment` to the next 10, so a member's
 * level takes his role, the collection's default and grants, his teams' grants on both: the
 * policy's whole computation. Guests reach the space through a team's grant, or not at all.
 * Operation `i` asks page `i mod pages` of the aggregate's first 40 full pages (50 items; at 100
 * members only the first page is full; cursors taken and pages checked before timing).
 */

const LIMIT = 50
/** The pages a measure asks, in turn (at 100 members there are 2). */
const PAGES = 40

async function aggregateWorld(members: number, teams: number) {
  const api = createDocsApi({ baseUrl: BASE })
  const admin = await api.fixtures.createUser({ displayName: 'Admin', email: 'admin@acme.test' })
  const token = await api.fixtures.createToken(admin.id)
  const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: admin.id, role: 'admin' }] })
  const byTeam: string[][] = Array.from({ length: teams }, () => [])
  for (let i = 0; i < members; i++) {
    const user = await api.fixtures.createUser({ displayName: `Member ${i}`, email: `m${i}@acme.test` })
    await api.fixtures.addMember(org.id, user.id, i % 10 === 0 ? null : i % 10 === 1 ? 'edit' : 'read')
    byTeam[i % teams]!.push(user.id)
  }
  const teamIds: string[] = []
  for (const [t, who] of byTeam.entries()) teamIds.push((await api.fixtures.createTeam(org.id, { title: `Team ${t}`, members: who })).id)
  const collection = await api.fixtures.createCollection(org.id, { title: 'Guides' })
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  await expectStatus(
    await api.fetch(new Request(`${BASE}/v1/collections/${collection.id}`, { method: 'PATCH', headers, body: JSON.stringify({ defaultLevel: 'read' }) })),
    200,
  )
  const space = await api.fixtures.createSpace(org.id, { title: 'Docs', parent: collection.id })
  for (const team of teamIds.slice(0, 10)) await api.fixtures.grantSpace(space.id, { team }, 'edit')
  for (const team of teamIds.slice(10, 20)) await api.fixtures.grantCollection(collection.id, { team }, 'comment')
  const url = (page: string | undefined) =>
    `${BASE}/v1/spaces/${space.id}/permissions/aggregate?limit=${LIMIT}${page ? `&page=${encodeURIComponent(page)}` : ''}`
  // The cursors of the first full pages (LIMIT items each, so both sizes serve the same work a page).
  const cursors: Array<string | undefined> = []
  let cursor: string | undefined
  for (let p = 0; p < PAGES; p++) {
    const text = await expectStatus(await api.fetch(new Request(url(cursor), { headers })), 200)
    const items = (JSON.parse(text) as { items: unknown[] }).items.length
    const next = nextCursor(text)
    if (items !== LIMIT && next) throw new Error(`page ${p} holds ${items} items and leads on`)
    if (items === LIMIT) cursors.push(cursor)
    if (!next) break
    cursor = next
  }
  return { fetch: api.fetch, headers, url, cursors }
}

export async function permissionAggregateMeasure(): Promise<Result> {
  const small = await aggregateWorld(100, 100)
  const large = await aggregateWorld(10_000, 100)
  const page = (w: typeof small) => async (i: number) => {
    const res = await w.fetch(new Request(w.url(w.cursors[i % w.cursors.length]), { headers: w.headers }))
    await res.text()
  }
  const { rates, ratio } = await compare({ small: page(small), large: page(large) }, { warmup: 2_000, perRound: 500, rounds: 21 })
  // Cost is time per page: large over small is the ratio of rates, small over large.
  const cost = ratio
  return {
    api: `${formatOps(rates.large!, 'pages/s')} @10k`,
    reference: `${formatOps(rates.small!, 'pages/s')} @100`,
    value: cost,
    shown: cost.toFixed(2),
    met: cost <= 1.5,
  }
}
