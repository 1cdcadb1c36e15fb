import { describe, expect, it } from 'vitest'
import { expectError } from '../../helpers.js'
import { external, redirectWorld, type RedirectWorld } from './helpers.js'

/** bulkUpsertSiteRedirects (docs/behaviour/site-redirects.md): upserts by source and intent, a result per item, all or nothing on invalid items. */

const put = (w: RedirectWorld, redirects: object[]) => w.http('PUT', '/redirects', { redirects })
const rows = (w: RedirectWorld) => w.api.store.read((tx) => tx.scan('siteRedirects', 'bySite', w.site.id).map((e) => e.row))

describe('site redirects: bulk upsert', () => {
  it('creates, updates (the source matched case-insensitively, its new spelling kept) and deletes, live and draft apart', async () => {
    const w = await redirectWorld()
    const first = await put(w, [
      { source: '/a', destination: external('https://example.com/a'), permanent: true },
      { source: '/a', intent: 'draft', destination: external('https://example.com/draft') },
      { source: '/w/*', captureWildcard: true, destination: external('https://example.com/w') },
    ])
    expect(first.status).toBe(200)
    const [live, draft, wildcard] = first.body.results
    expect(first.body.results).toEqual([
      { status: 'created', source: '/a', draft: false, id: live.id },
      { status: 'created', source: '/a', draft: true, id: draft.id },
      { status: 'created', source: '/w/*', draft: false, id: wildcard.id },
    ])
    w.clock.advance(1000)
    const second = await put(w, [
      // `permanent` left out is kept; `captureWildcard` left out is its default, false.
      { source: '/A', destination: external('https://example.com/b') },
      { source: '/W/*', destination: external('https://example.com/w') },
      { source: '/a', intent: 'draft', destination: null },
    ])
    expect(second.body.results).toEqual([
      { status: 'updated', source: '/A', draft: false, id: live.id },
      { status: 'updated', source: '/W/*', draft: false, id: wildcard.id },
      { status: 'deleted', source: '/a', draft: true },
    ])
    expect(rows(w)).toEqual([
      expect.objectContaining({
        id: live.id,
        source: '/A',
        permanent: true,
        destination: external('https://example.com/b'),
        updatedAt: w.clock.now().toISOString(),
      }),
      expect.objectContaining({ id: wildcard.id, source: '/W/*', captureWildcard: false }),
    ])
  })

  it('publishes a draft: onto the live redirect of its source (which keeps its id), or the draft itself goes live', async () => {
    const w = await redirectWorld()
    const live = (await w.http('POST', '/redirects', { source: '/a', destination: external('https://example.com/old') })).body
    const draftA = (await w.http('POST', '/redirects', { source: '/A', draft: true, permanent: true, destination: external('https://example.com/new') })).body
    const draftB = (await w.http('POST', '/redirects', { source: '/b', draft: true, destination: external('https://example.com/b') })).body
    const res = await put(w, [
      { source: '/a', intent: 'publish' },
      { source: '/b', intent: 'publish' },
    ])
    expect(res.body.results).toEqual([
      { status: 'published', source: '/a', draft: false, id: live.id },
      { status: 'published', source: '/b', draft: false, id: draftB.id },
    ])
    expect(rows(w).map((r) => [r.id, r.source, r.draft, r.permanent, r.destination])).toEqual([
      [live.id, '/A', false, true, external('https://example.com/new')],
      [draftB.id, '/b', false, false, external('https://example.com/b')],
    ])
    expect(rows(w).some((r) => r.id === draftA.id)).toBe(false)
  })

  it('an item that cannot apply gets an `error` result and changes nothing; the others apply', async () => {
    const w = await redirectWorld()
    const res = await put(w, [
      { source: '/a', destination: external('https://example.com/1') },
      { source: '/A', destination: external('https://example.com/2') },
      { source: '/b', intent: 'publish' },
      { source: '/c', destination: null },
    ])
    expect(res.status).toBe(200)
    expect(res.body.results).toEqual([
      { status: 'created', source: '/a', draft: false, id: expect.any(String) },
      { status: 'error', source: '/A', draft: false, error: 'this source and intent come earlier in the request: only the first is processed' },
      { status: 'error', source: '/b', draft: false, error: 'no draft redirect of this source to publish' },
      { status: 'error', source: '/c', draft: false, error: 'no live redirect of this source to delete' },
    ])
    expect(rows(w).map((r) => r.destination)).toEqual([external('https://example.com/1')])
  })

  it('an invalid item fails the whole request, naming it: nothing of the items before it is written', async () => {
    const w = await redirectWorld()
    await put(w, [{ source: '/kept', destination: external('https://example.com/kept') }])
    const before = w.api.dump()
    const valid = [
      { source: '/kept', destination: null },
      { source: '/new', destination: external('https://example.com/new') },
    ]
    expectError(
      await put(w, [...valid, { source: '/bad', destination: { kind: 'site-space', siteSpaceId: 'nope' } }]),
      400,
      'body field `redirects[2].destination.siteSpaceId`',
    )
    expectError(await put(w, [...valid, { source: 'bad', destination: null }]), 400, 'body field `redirects[2].source`')
    expectError(await put(w, [...valid, { source: '/x', intent: 'later', destination: null }]), 400, 'body field `redirects[2]')
    expectError(
      await put(w, [...valid, { source: '/api', destination: { kind: 'site-space', siteSpaceId: w.siteSpaces.api.id } }]),
      400,
      'redirects[2].destination`: leads back',
    )
    expectError(await put(w, []), 400, 'body field `redirects`: must hold at least 1 item')
    const many = Array.from({ length: 501 }, (_, i) => ({ source: `/p${i}`, destination: null }))
    expectError(await put(w, many), 400, 'body field `redirects`: must hold at most 500 items')
    expect(w.api.dump()).toEqual(before)
  })

  it('takes 500 items in one request', async () => {
    const w = await redirectWorld()
    const items = Array.from({ length: 500 }, (_, i) => ({ source: `/p${i}/*`, captureWildcard: true, destination: external(`${w.siteUrl}/q${i}`) }))
    const res = await put(w, items)
    expect(res.status).toBe(200)
    expect(res.body.results.filter((r: { status: string }) => r.status === 'created')).toHaveLength(500)
    expect((await w.http('GET', '/redirect?source=/p499/x')).body.target).toBe(`${w.siteUrl}/q499/x`)
  })
})
