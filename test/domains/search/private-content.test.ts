import { describe, expect, it } from 'vitest'
import { call } from '../../helpers.js'
import { page, publish, searchOrg, searchSpace, searchWorld } from './helpers.js'

/**
 * What a caller cannot read must not show in what he sees, not even through scores: BM25 weighs a
 * word by how rare it is and a document by its length against the average, so an index shared
 * with other spaces would let their text move a public space's scores and order (a word merged
 * into a private space makes it commoner, hence weaker, everywhere).
 */

const QUERIES = ['merger', 'nominal', 'merger nominal', 'meger', 'nomnal', 'merg']

async function world() {
  const w = await searchWorld() // Handbook: private to Acme's members
  const status = await w.api.fixtures.createSpace(w.org.id, { title: 'Status', visibility: 'public' })
  const partners = await w.api.fixtures.createSpace(w.org.id, { title: 'Partners' })
  await w.api.fixtures.grantSpace(partners.id, { user: w.users.gina.id }, 'read')
  // Two pages holding "merger" and "nominal" at the same place: they score the same.
  const twins = [page('Alpha', 'The merger is the plan for this quarter.'), page('Beta', 'The nominal is the plan for this quarter.')]
  await publish(w, status.id, twins)
  await publish(w, partners.id, twins)
  await publish(w, w.space.id, [page('Notes', 'Nothing about either word yet.')])
  return { ...w, status, partners }
}

/** What each query answers, whole (scores, order, counts, sections). */
async function answers(search: (query: string) => Promise<{ status: number; body: unknown }>) {
  const out: Record<string, unknown> = {}
  for (const query of QUERIES) {
    const res = await search(query)
    expect(res.status, query).toBe(200)
    out[query] = res.body
  }
  return out
}

/** Private content changes a lot: five pages full of "merger" merged, long pages, a near miss of "nominal"; searched by an admin, so the index holds it. */
async function changePrivateContent(w: Awaited<ReturnType<typeof world>>) {
  await publish(w, w.space.id, [
    ...Array.from({ length: 5 }, (_, i) => page(`Merger ${i}`, `merger merger merger, and the merger of ${i}.`)),
    page('Long', 'word '.repeat(400)),
    page('Nominals', 'nominals nominally nomnal nominal'),
  ])
  for (const query of QUERIES) expect((await searchOrg(w, w.tokens.ada, w.org.id, query)).status).toBe(200)
  expect((await searchSpace(w, w.tokens.ada, w.space.id, 'merger')).body.count).toBe(5)
}

describe('search: private content never shows, not even in scores', () => {
  it("an outsider's search of a public space answers the same, whatever the organization's private spaces hold", async () => {
    const w = await world()
    const outsider = (query: string) => searchSpace(w, w.tokens.olga, w.status.id, query)
    const before = await answers(outsider)
    expect((before.merger as { items: Array<{ score: number }> }).items[0]!.score).toBe((before.nominal as { items: Array<{ score: number }> }).items[0]!.score)
    await changePrivateContent(w)
    expect(await answers(outsider)).toEqual(before)
    // Trashing and purging a private space changes nothing either.
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${w.space.id}`)
    expect(await answers(outsider)).toEqual(before)
  })

  it("a guest's organization search answers the same, whatever the spaces he was not invited to hold", async () => {
    const w = await world()
    const guest = (query: string) => searchOrg(w, w.tokens.gina, w.org.id, query)
    const before = await answers(guest)
    expect((before.merger as { count: number }).count).toBe(1)
    await changePrivateContent(w)
    expect(await answers(guest)).toEqual(before)
    // The public space he is not a member of counts no more than the private one.
    await publish(w, w.status.id, [page('More mergers', 'merger merger merger merger')])
    expect(await answers(guest)).toEqual(before)
  })

  it("a member's organization search ranks the live spaces, all of which he reads: a trashed space weighs nothing", async () => {
    const w = await world()
    const member = (query: string) => searchOrg(w, w.tokens.rita, w.org.id, query)
    const before = await answers(member)
    const attic = await w.api.fixtures.createSpace(w.org.id, { title: 'Attic' })
    await publish(w, attic.id, [page('Old mergers', 'merger merger merger nominal'), page('Long', 'word '.repeat(300))])
    expect((await member('merger')).body.count).toBe(3)
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${attic.id}`)
    expect(await answers(member)).toEqual(before)
  })

  it('an index answers what it holds now, not what it once held: pages written and removed leave no trace in scores', async () => {
    const w = await world()
    const outsider = (query: string) => searchSpace(w, w.tokens.olga, w.status.id, query)
    const before = await answers(outsider)
    // Written (with long pages, words found in the others) and searched, so the index held them; then removed.
    const added = await publish(w, w.status.id, [
      page('Briefly', 'merger'),
      page('At length', `${'nominal merger plan quarter '.repeat(50)}`),
      page('Titled merger', ''),
    ])
    expect((await outsider('merger')).body.count).toBe(4)
    await publish(
      w,
      w.status.id,
      added.changes.map((c: { page: { id: string } }) => ({ operation: 'delete_page', page: c.page.id })),
    )
    expect(await answers(outsider)).toEqual(before)
  })

  it("a guest's organization search scores each page as its space's own search does", async () => {
    const w = await world()
    await w.api.fixtures.grantSpace(w.status.id, { user: w.users.gina.id }, 'read')
    await publish(w, w.partners.id, [page('Plans', 'merger plan merger plan, a longer page about the plan for the merger.')])
    await changePrivateContent(w)
    const org = (await searchOrg(w, w.tokens.gina, w.org.id, 'merger plan')).body
    expect(org.items.map((s: { title: string }) => s.title).sort()).toEqual(['Partners', 'Status'])
    let compared = 0
    for (const space of org.items as Array<{ id: string; pages: Array<{ id: string; score: number }> }>) {
      const own = (await searchSpace(w, w.tokens.gina, space.id, 'merger plan')).body.items as Array<{ id: string; score: number }>
      for (const p of space.pages) {
        expect(p.score).toBe(own.find((o) => o.id === p.id)!.score)
        compared++
      }
    }
    expect(compared).toBe(5)
    // Merged by score: the organization's ranking orders the pages of both spaces by those scores.
    const scores = (org.items as Array<{ pages: Array<{ rank: number; score: number }> }>)
      .flatMap((s) => s.pages)
      .sort((a, b) => a.rank - b.rank)
      .map((p) => p.score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
  })
})
