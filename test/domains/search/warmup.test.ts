import { describe, expect, it } from 'vitest'
import { spaceWorld } from '../../helpers.js'
import { longestStall, prose } from '../../stall.js'

/** An organization with a space whose main holds `pages` pages of about `size` characters of prose each (one merge). */
async function world(pages: number, size: number) {
  const { api, org, space, call } = await spaceWorld()
  const merge = async (changes: unknown[]) => {
    const cr = await (await call('POST', `/spaces/${space.id}/change-requests`, {})).json()
    expect((await call('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes })).status).toBe(200)
    expect((await call('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200)
  }
  const paragraphs = (n: number) =>
    prose(size)
      .split('\n\n')
      .map((text, i) => ({
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: `${text} lantern${n}x${i}`, marks: [] }] }],
      }))
  await merge(
    Array.from({ length: pages }, (_, n) => ({
      operation: 'insert_page',
      title: `Page ${n}`,
      document: { document: { object: 'document', data: {}, nodes: paragraphs(n) } },
    })),
  )
  const search = (query: string) => call('GET', `/spaces/${space.id}/search?query=${query}`)
  const searchOrg = (query: string) => call('GET', `/orgs/${org.id}/search?query=${query}`)
  return { api, search, searchOrg, merge, paragraphs }
}

describe('search after a large merge: the index is brought up to date in slices (a warm-up)', () => {
  it('answers what it answers once warm, and leaves the event loop turning while it indexes', async () => {
    const w = await world(30, 120_000)
    const first = await longestStall(() => w.search('lantern7x3'))
    expect(first.result.status).toBe(200)
    const hits = await first.result.json()
    expect(hits.items[0].title).toBe('Page 7')
    // Warm now: the same answer, without indexing again.
    const again = await w.search('lantern7x3')
    expect(await again.json()).toEqual(hits)
    expect(first.stall).toBeLessThan(first.total / 4)
    const org = await longestStall(() => w.searchOrg('lantern12x1'))
    expect((await org.result.json()).items[0].pages[0].title).toBe('Page 12')
    expect(org.stall).toBeLessThan(org.total / 4)
  })

  it('indexes each page once when searches come at the same time', async () => {
    const w = await world(12, 20_000)
    const stats = w.api as unknown as { [k: symbol]: { runtime: { services: { search: { stats: { pagesIndexed: number } } } } } }
    const services = Object.getOwnPropertySymbols(stats)
      .map((k) => stats[k])
      .find((core) => core?.runtime?.services?.search)!.runtime.services.search
    const before = services.stats.pagesIndexed
    const answers = await Promise.all(Array.from({ length: 4 }, () => w.search('lantern3x2')))
    const bodies = await Promise.all(answers.map((r) => r.json()))
    for (const body of bodies) expect(body).toEqual(bodies[0])
    expect(bodies[0].items[0].title).toBe('Page 3')
    expect(services.stats.pagesIndexed - before).toBe(12)
    // A merge of one page: one page indexed again by the next search.
    await w.merge([{ operation: 'insert_page', title: 'Extra', document: { document: { object: 'document', data: {}, nodes: w.paragraphs(99).slice(0, 2) } } }])
    const after = services.stats.pagesIndexed
    expect((await (await w.search('lantern99x1')).json()).items[0].title).toBe('Extra')
    expect(services.stats.pagesIndexed - after).toBe(1)
  })
})
