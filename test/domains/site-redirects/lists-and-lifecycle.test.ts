import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { createClock, sequentialIds } from '../../../src/testing.js'
import { BASE, call, expectError } from '../../helpers.js'
import { external, redirectWorld, type RedirectWorld } from './helpers.js'

/** Listing redirects, and what happens to them with their site (docs/behaviour/site-redirects.md). */

const sources = (res: { body: { items: Array<{ source: string }> } }) => res.body.items.map((r) => r.source)

async function fiveRedirects(w: RedirectWorld) {
  const ids: Record<string, string> = {}
  for (const source of ['/b', '/D', '/a', '/e', '/c']) {
    w.clock.advance(1000)
    ids[source] = (await w.http('POST', '/redirects', { source, destination: external(`https://example.com${source}`) })).body.id
  }
  await w.http('POST', '/redirects', { source: '/draft', draft: true, destination: external('https://example.com/draft') })
  return ids
}

describe('site redirects: lists', () => {
  it('pages live redirects newest first by default, with a cursor; drafts apart', async () => {
    const w = await redirectWorld()
    await fiveRedirects(w)
    const first = await w.http('GET', '/redirects?limit=2')
    expect(first.body).toMatchObject({ count: 5, next: { page: expect.any(String) } })
    expect(sources(first)).toEqual(['/c', '/e'])
    const second = await w.http('GET', `/redirects?limit=2&page=${first.body.next.page}`)
    expect(sources(second)).toEqual(['/a', '/D'])
    const third = await w.http('GET', `/redirects?limit=2&page=${second.body.next.page}`)
    expect(sources(third)).toEqual(['/b'])
    expect(third.body.next).toBeUndefined()
    expect(sources(await w.http('GET', '/redirects?draft=true'))).toEqual(['/draft'])
    expectError(await w.http('GET', '/redirects?draft=maybe'), 400, 'query parameter `draft`: must be true or false')
  })

  it('orders by source (case-insensitively) or by last change, and searches sources in any case', async () => {
    const w = await redirectWorld()
    const ids = await fiveRedirects(w)
    const bySource = await w.http('GET', '/redirects?orderBy=source&limit=3')
    expect(sources(bySource)).toEqual(['/a', '/b', '/c'])
    expect(sources(await w.http('GET', `/redirects?orderBy=source&page=${bySource.body.next.page}`))).toEqual(['/D', '/e'])
    w.clock.advance(1000)
    await w.http('PATCH', `/redirects/${ids['/b']}`, { permanent: true })
    expect(sources(await w.http('GET', '/redirects?orderBy=updatedAt'))).toEqual(['/b', '/c', '/e', '/a', '/D'])
    expect(sources(await w.http('GET', '/redirects?search=d'))).toEqual(['/D'])
    expect((await w.http('GET', '/redirects?search=%2F')).body.count).toBe(5)
    expectError(await w.http('GET', '/redirects?orderBy=title'), 400, 'query parameter `orderBy`')
  })
})

describe('site redirects: lifecycle', () => {
  it('changing nothing writes nothing (no updatedAt); deleting answers 205, then 204', async () => {
    const w = await redirectWorld()
    const row = (await w.http('POST', '/redirects', { source: '/x', destination: external('https://example.com/') })).body
    w.clock.advance(1000)
    const same = await w.http('PATCH', `/redirects/${row.id}`, { source: '/x', permanent: false })
    expect(same.body).toEqual(row)
    // A row loaded with its destination's keys in another order says the same.
    const spaceRow = (await w.http('POST', '/redirects', { source: '/y', destination: { kind: 'site-space', siteSpaceId: w.siteSpaces.api.id } })).body
    await w.api.system((ctx) => {
      const stored = ctx.tx.get('siteRedirects', spaceRow.id)!
      ctx.tx.update('siteRedirects', { ...stored, destination: { siteSpaceId: w.siteSpaces.api.id, kind: 'site-space' } })
    })
    const unchanged = await w.http('PATCH', `/redirects/${spaceRow.id}`, { destination: { kind: 'site-space', siteSpaceId: w.siteSpaces.api.id } })
    expect(unchanged.body.updatedAt).toBeUndefined()
    expect((await w.http('DELETE', `/redirects/${row.id}`)).status).toBe(205)
    expect((await w.http('DELETE', `/redirects/${row.id}`)).status).toBe(204)
    expectError(await w.http('PATCH', `/redirects/${row.id}`, { permanent: true }), 404, 'Site redirect not found')
  })

  it('a redirect of another site is not found under this one', async () => {
    const w = await redirectWorld()
    const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
    const row = (await w.http('POST', '/redirects', { source: '/x', destination: external('https://example.com/') })).body
    const otherBase = `/v1/orgs/${w.org.id}/sites/${other.id}/redirects/${row.id}`
    expectError(await call(w.api, w.tokens.ada, 'PATCH', otherBase, { permanent: true }), 404, 'Site redirect not found')
    expect((await call(w.api, w.tokens.ada, 'DELETE', otherBase)).status).toBe(204)
    expect(w.api.store.read((tx) => tx.get('siteRedirects', row.id))).toBeDefined()
  })

  it("a site's redirects go with it; another site's stay", async () => {
    const w = await redirectWorld()
    const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
    await w.http('POST', '/redirects', { source: '/x', destination: external('https://example.com/') })
    await w.http('POST', '/redirects', { source: '/y', draft: true, destination: external('https://example.com/') })
    const kept = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/sites/${other.id}/redirects`, {
      source: '/x',
      destination: external('https://example.com/'),
    })
    expect((await w.http('DELETE', '')).status).toBe(204)
    expect(w.api.store.read((tx) => tx.all('siteRedirects').map((r) => r.id))).toEqual([kept.body.id])
  })

  it('round-trips through a state document; loading refuses two redirects of one source', async () => {
    const w = await redirectWorld()
    await w.http('POST', '/redirects', { source: '/Old/*', captureWildcard: true, destination: { kind: 'site-space', siteSpaceId: w.siteSpaces.api.id } })
    const doc = w.api.dump()
    const copy = createDocsApi({
      baseUrl: BASE,
      seed: JSON.parse(JSON.stringify(doc)),
      now: createClock('2026-03-02T00:00:00.000Z').now,
      ids: sequentialIds('new'),
    })
    expect(copy.dump()).toEqual(doc)
    expect((await call(copy, w.tokens.ada, 'GET', `${w.base}/redirect?source=/old/a`)).body.target).toBe(`${w.siteUrl}/api/a`)
    const twice = { ...doc, siteRedirects: [...doc.siteRedirects!, { ...doc.siteRedirects![0]!, id: 'dup', source: '/OLD/*' }] }
    expect(() => createDocsApi({ baseUrl: BASE, seed: twice })).toThrow(
      'Invalid seed: `siteRedirects[0].source`: is the source of another live redirect of this site',
    )
    const foreign = { ...doc, siteRedirects: [{ ...doc.siteRedirects![0]!, site: 'nope' }] }
    expect(() => createDocsApi({ baseUrl: BASE, seed: foreign })).toThrow('Invalid seed: `siteRedirects[0].site`: no site "nope"')
  })
})
