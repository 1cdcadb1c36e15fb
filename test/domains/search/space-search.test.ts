import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { call, expectError } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { page, publish, searchSpace, searchWorld, titles } from './helpers.js'

const GUIDE = [
  'Read this first: the handbook explains everything.',
  '## Installation',
  'Run the installer on your workstation.',
  '## Configuration',
  'Edit the settings file, then restart.',
  '## Installation',
  'A second heading with the same title gets its own anchor.',
].join('\n\n')

async function world() {
  const w = await searchWorld()
  const published = await publish(w, w.space.id, [
    page('Getting started', GUIDE, { description: 'Where to begin', ref: 'gs' }),
    page('Billing', 'Invoices go out monthly. Café prices are in euros.'),
    page('Advanced', 'Tuning the cache for throughput.', { into: 'gs' }),
    page('Über uns', 'Wir über uns.\n\n## Größe & 日本\n\nAnchors in any script.'),
  ])
  const [gs, billing, advanced, uber] = published.changes.map((c: { page: { id: string } }) => c.page.id) as [string, string, string, string]
  return { ...w, pages: { gs, billing, advanced, uber } }
}

describe('search: a space', () => {
  it('finds pages by title, description and section text: case-insensitive, accents ignored, words begun, near misses', async () => {
    const w = await world()
    for (const [query, expected] of [
      ['BILLING', ['Billing']],
      ['begin', ['Getting started']],
      ['workstation', ['Getting started']],
      ['cafe', ['Billing']],
      ['throughp', ['Advanced']],
      ['instaler', ['Getting started']],
      ['invoices installer', ['Billing', 'Getting started']],
      ['uber', ['Über uns']],
    ] as const) {
      const res = await searchSpace(w, w.tokens.ada, w.space.id, query)
      expect(res.status).toBe(200)
      expectOfficialResponse('searchSpaceContent', 200, res.body)
      expect(titles(res.body).sort(), query).toEqual([...expected].sort())
    }
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'nothing-like-this')).body).toEqual({ items: [], count: 0 })
  })

  it('answers the official shape: score, rank, path, ancestors, urls, and the sections that matched', async () => {
    const w = await world()
    const res = await searchSpace(w, w.tokens.ada, w.space.id, 'installer settings')
    expectOfficialResponse('searchSpaceContent', 200, res.body)
    const [hit] = res.body.items
    expect(hit).toMatchObject({
      id: w.pages.gs,
      title: 'Getting started',
      description: 'Where to begin',
      path: 'getting-started',
      rank: 1,
      resultType: 'section',
      ancestors: [],
      urls: { app: `http://localhost:4000/app/s/${w.space.id}/getting-started` },
    })
    expect(hit.score).toBeGreaterThan(0)
    const sections = hit.sections.map((s: { id: string; title: string; path: string; urls: { app: string }; body: string }) => [
      s.id,
      s.title,
      s.path,
      s.urls.app,
      s.body,
    ])
    expect(sections).toEqual(
      expect.arrayContaining([
        [
          `${w.pages.gs}#installation`,
          'Installation',
          'getting-started#installation',
          `http://localhost:4000/app/s/${w.space.id}/getting-started#installation`,
          'Run the installer on your workstation.',
        ],
        [
          `${w.pages.gs}#configuration`,
          'Configuration',
          'getting-started#configuration',
          expect.stringContaining('#configuration'),
          'Edit the settings file, then restart.',
        ],
      ]),
    )
    // The text before the first heading is a section too, addressed by the page; a repeated heading gets its own anchor.
    const intro = (await searchSpace(w, w.tokens.ada, w.space.id, 'handbook')).body.items[0].sections[0]
    expect(intro).toMatchObject({
      id: w.pages.gs,
      title: 'Getting started',
      path: 'getting-started',
      body: 'Read this first: the handbook explains everything.',
    })
    const second = (await searchSpace(w, w.tokens.ada, w.space.id, 'anchor')).body.items[0].sections[0]
    expect(second).toMatchObject({ id: `${w.pages.gs}#installation-2`, path: 'getting-started#installation-2' })
    // A subpage: its path and its ancestors, from the top.
    const nested = (await searchSpace(w, w.tokens.ada, w.space.id, 'cache')).body.items[0]
    expect(nested).toMatchObject({ title: 'Advanced', path: 'getting-started/advanced', ancestors: [{ title: 'Getting started' }] })
    // Paths and anchors in any script; URLs percent-encoded (valid URIs).
    const unicode = (await searchSpace(w, w.tokens.ada, w.space.id, 'script')).body
    expectOfficialResponse('searchSpaceContent', 200, unicode)
    expect(unicode.items[0]).toMatchObject({
      path: 'uber-uns',
      sections: [{ path: 'uber-uns#große-日本', urls: { app: expect.stringContaining('uber-uns#gro%C3%9Fe-%E6%97%A5%E6%9C%AC') } }],
    })
    // A page that matched on its title alone: page-level, showing its first section.
    const byTitle = (await searchSpace(w, w.tokens.ada, w.space.id, 'advanced')).body.items[0]
    expect(byTitle).toMatchObject({ resultType: 'page', sections: [{ resultType: 'page', body: 'Tuning the cache for throughput.' }] })
  })

  it('ranks every matching page once and pages through them by rank (limit, next.page, count)', async () => {
    const w = await searchWorld()
    await publish(
      w,
      w.space.id,
      Array.from({ length: 7 }, (_, i) => page(`Topic ${i}`, `${'widget '.repeat(i + 1)}and more text.`)),
    )
    const all = await searchSpace(w, w.tokens.ada, w.space.id, 'widget')
    expect(all.body.count).toBe(7)
    // More occurrences rank higher (BM25).
    expect(titles(all.body)).toEqual(['Topic 6', 'Topic 5', 'Topic 4', 'Topic 3', 'Topic 2', 'Topic 1', 'Topic 0'])
    expect(all.body.items.map((p: { rank: number }) => p.rank)).toEqual([1, 2, 3, 4, 5, 6, 7])
    const seen: number[] = []
    let next: string | undefined
    do {
      const res = await searchSpace(w, w.tokens.ada, w.space.id, 'widget', `&limit=3${next ? `&page=${encodeURIComponent(next)}` : ''}`)
      expectOfficialResponse('searchSpaceContent', 200, res.body)
      expect(res.body.count).toBe(7)
      seen.push(...res.body.items.map((p: { rank: number }) => p.rank))
      next = res.body.next?.page
    } while (next)
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'widget', '&limit=0')).body).toEqual({ items: [], count: 7 })
    // A cursor past the end (a ranking that has since shrunk) pages to nothing.
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'widget', `&page=${encodeURIComponent(btoa('[9]'))}`)).body).toEqual({ items: [], count: 7 })
  })

  it('refuses a bad query with a 400 naming the field, and changes nothing', async () => {
    const w = await world()
    const before = w.api.dump()
    expectError(await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/search`), 400, 'query parameter `query`: is required')
    expectError(await searchSpace(w, w.tokens.ada, w.space.id, ''), 400, 'query parameter `query`: must not be empty')
    expectError(await searchSpace(w, w.tokens.ada, w.space.id, 'x'.repeat(513)), 400, 'query parameter `query`: must be at most 512 characters')
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'x'.repeat(512))).status).toBe(200)
    expectError(await searchSpace(w, w.tokens.ada, w.space.id, 'billing', '&limit=1001'), 400, 'query parameter `limit`')
    expectError(await searchSpace(w, w.tokens.ada, w.space.id, 'billing', '&page=not-a-cursor'), 400, 'page')
    expectError(await searchSpace(w, w.tokens.ada, w.space.id, 'billing', `&page=${encodeURIComponent(btoa('["a","b"]'))}`), 400, 'not a cursor of this list')
    // A position the API makes is a whole number from 1 (the last item served): 0, negatives and fractions are not.
    for (const bad of ['[0]', '[-5]', '[1.5]', '[1e999]', '["1"]', '[1,2]']) {
      expectError(
        await searchSpace(w, w.tokens.ada, w.space.id, 'billing', `&page=${encodeURIComponent(btoa(bad))}`),
        400,
        'Invalid query parameter `page`: not a cursor of this list',
      )
    }
    expect(w.api.dump()).toEqual(before)
  })

  it('is for those who see the space: 401 without a token, 404 hidden or trashed, a visitor of a public space searches it', async () => {
    const w = await world()
    const before = w.api.dump()
    expectError(await searchSpace(w, undefined, w.space.id, 'billing'), 401, '')
    expectError(await searchSpace(w, 'gb_api_nope', w.space.id, 'billing'), 401, 'Invalid or revoked')
    expectError(await searchSpace(w, w.tokens.olga, w.space.id, 'billing'), 404, 'Space not found')
    expectError(await searchSpace(w, w.tokens.gina, w.space.id, 'billing'), 404, 'Space not found')
    expectError(await searchSpace(w, w.tokens.ada, 'no-such-space', 'billing'), 404, 'Space not found')
    expect(w.api.dump()).toEqual(before)
    expect(titles((await searchSpace(w, w.tokens.rita, w.space.id, 'billing')).body)).toEqual(['Billing'])
    // A guest invited to the space searches it.
    await w.api.fixtures.grantSpace(w.space.id, { user: w.users.gina.id }, 'read')
    expect(titles((await searchSpace(w, w.tokens.gina, w.space.id, 'billing')).body)).toEqual(['Billing'])
    // A public space: any authenticated user reads it, and searches it.
    const open = await w.api.fixtures.createSpace(w.org.id, { title: 'Open', visibility: 'public' })
    await publish(w, open.id, [page('Status', 'All systems operational.')])
    expect(titles((await searchSpace(w, w.tokens.olga, open.id, 'operational')).body)).toEqual(['Status'])
    // A trashed space is not searched, even by its admins (who may still restore it).
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${w.space.id}`)
    expectError(await searchSpace(w, w.tokens.ada, w.space.id, 'billing'), 404, 'Space not found')
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/restore`)
    expect(titles((await searchSpace(w, w.tokens.ada, w.space.id, 'billing')).body)).toEqual(['Billing'])
  })

  it('answers any query of 1 to 512 characters in the official shape (property)', async () => {
    const w = await world()
    const words = ['install', 'instal', 'café', 'CAFE', 'the', 'a', '*', '"', '-', 'é', '日本', '🙂', 'workstation', 'x'.repeat(40)]
    const query = fc
      .oneof(
        fc.string({ minLength: 1, maxLength: 512, unit: 'grapheme' }),
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 60 }).map((ws) => ws.join(' ').slice(0, 512)),
      )
      .filter((q) => q.length >= 1)
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const res = await searchSpace(w, w.tokens.ada, w.space.id, q)
        expect(res.status, q).toBe(200)
        expectOfficialResponse('searchSpaceContent', 200, res.body)
        for (const hit of res.body.items) expect(Object.values(w.pages)).toContain(hit.id)
      }),
      { numRuns: 60, seed: 9 },
    )
  })
})
