import { describe, expect, it } from 'vitest'
import { expectError, type Called } from '../../helpers.js'
import { external, redirectWorld, type RedirectWorld } from './helpers.js'

/**
 * Writing redirects (docs/behaviour/site-redirects.md): destinations inside the site, no redirect
 * leading back to its own source, no loop through the site's live redirects; a refused request
 * changes nothing.
 */

const create = async (w: RedirectWorld, body: object) => {
  const res = await w.http('POST', '/redirects', body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

/** Expect a 400 naming `message`, with the store as it was. */
async function expectRefused(w: RedirectWorld, request: Promise<Called>, message: string) {
  const before = w.api.dump()
  expectError(await request, 400, message)
  expect(w.api.dump()).toEqual(before)
}

describe('site redirects: destinations', () => {
  it('refuses what is not in the site, naming the field', async () => {
    const w = await redirectWorld()
    const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other', spaces: [w.spaces.guide.id] })
    const theirs = w.api.store.read((tx) => tx.scan('siteSpaces', 'bySite', other.id)[0]!.row.id)
    const post = (destination: object) => w.http('POST', '/redirects', { source: '/old', destination })
    await expectRefused(w, post({ kind: 'site-space', siteSpaceId: theirs }), `body field \`destination.siteSpaceId\`: no site-space ${theirs} in this site`)
    await expectRefused(w, post({ kind: 'site-page', siteSpaceId: theirs, pageId: w.pages.intro }), 'body field `destination.siteSpaceId`')
    await expectRefused(w, post({ kind: 'site-section', siteSectionId: 'nope' }), 'body field `destination.siteSectionId`: no section nope in this site')
    // A page of a space the site publishes, but not of this site-space's space.
    await expectRefused(
      w,
      post({ kind: 'site-page', siteSpaceId: w.siteSpaces.guide.id, pageId: w.pages.reference }),
      `body field \`destination.pageId\`: no page ${w.pages.reference}`,
    )
    const unpublished = await w.api.fixtures.createSpace(w.org.id, { title: 'Elsewhere' })
    await expectRefused(
      w,
      post({ kind: 'path', spaceId: unpublished.id, path: 'intro' }),
      `body field \`destination.spaceId\`: space ${unpublished.id} is not published in this site`,
    )
    await expectRefused(w, post({ kind: 'path', spaceId: w.spaces.guide.id, path: 'install/windows' }), 'body field `destination.path`: no page at this path')
    await expectRefused(w, post({ kind: 'external', url: 'ftp://example.com/file' }), 'body field `destination.url`: must be an http or https URL')
    await expectRefused(w, post({ kind: 'external', url: 'not a url' }), 'body field `destination.url`: must be a URL')
    await expectRefused(w, post({ kind: 'somewhere' }), 'body field `destination.kind`')
    // A site-space whose space is in the trash leads nowhere.
    await w.http('DELETE', `/site-spaces/${w.siteSpaces.api.id}`)
    await expectRefused(w, post({ kind: 'site-space', siteSpaceId: w.siteSpaces.api.id }), 'body field `destination.siteSpaceId`')
  })

  it('a page named by space and path is stored as that page of the site-space publishing the space; an empty path names the site-space', async () => {
    const w = await redirectWorld()
    const page = await create(w, { source: '/a', destination: { kind: 'path', spaceId: w.spaces.guide.id, path: '/install/linux/' } })
    expect(page.destination).toEqual({ kind: 'site-page', siteSpaceId: w.siteSpaces.guide.id, pageId: w.pages.linux })
    const root = await create(w, { source: '/b', destination: { kind: 'path', spaceId: w.spaces.api.id, path: '' } })
    expect(root.destination).toEqual({ kind: 'site-space', siteSpaceId: w.siteSpaces.api.id })
    // The update body takes the stored kinds only (the official SiteRedirectDestination).
    expectError(
      await w.http('PATCH', `/redirects/${page.id}`, { destination: { kind: 'path', spaceId: w.spaces.guide.id, path: 'intro' } }),
      400,
      'body field `destination',
    )
  })

  it('refuses a redirect that leads back to its own source (a draft too), whatever the case', async () => {
    const w = await redirectWorld()
    await expectRefused(
      w,
      w.http('POST', '/redirects', { source: '/Install/Linux', destination: { kind: 'site-page', siteSpaceId: w.siteSpaces.guide.id, pageId: w.pages.linux } }),
      'body field `destination`: leads back to its own source `/Install/Linux`',
    )
    await expectRefused(
      w,
      w.http('POST', '/redirects', { source: '/api', draft: true, destination: { kind: 'site-space', siteSpaceId: w.siteSpaces.api.id } }),
      'leads back to its own source `/api`',
    )
    await expectRefused(w, w.http('POST', '/redirects', { source: '/x', destination: external(`${w.siteUrl}/X/`) }), 'leads back to its own source `/x`')
    // A wildcard may lead under itself to content: content is served before redirects.
    await create(w, { source: '/install/*', destination: { kind: 'site-page', siteSpaceId: w.siteSpaces.guide.id, pageId: w.pages.linux } })
  })
})

describe('site redirects: loops', () => {
  it('refuses a redirect closing a loop through existing ones (A→B, B→A; A→B→C→A), naming the field; nothing is written', async () => {
    const w = await redirectWorld()
    await create(w, { source: '/a', destination: external(`${w.siteUrl}/b`) })
    await expectRefused(
      w,
      w.http('POST', '/redirects', { source: '/b', destination: external(`${w.siteUrl}/a`) }),
      'body field `destination`: the redirects would loop: /b → /a → /b',
    )
    await create(w, { source: '/b', destination: external(`${w.siteUrl}/c`) })
    await expectRefused(
      w,
      w.http('POST', '/redirects', { source: '/C', destination: external(`${w.siteUrl}/A`) }),
      'the redirects would loop: /C → /A → /b → /c',
    )
    // A wildcard that would catch its own destination loops too.
    await expectRefused(w, w.http('POST', '/redirects', { source: '/docs/*', destination: external(`${w.siteUrl}/docs/help`) }), 'the redirects would loop')
  })

  it('a chain ends at content (served before redirects), outside the site, or where no redirect matches', async () => {
    const w = await redirectWorld()
    // /a → /INSTALL, a page (paths compared case-insensitively): the visitor stays there, so /install → /a is no loop (it never applies while the page is there).
    await create(w, { source: '/a', destination: external(`${w.siteUrl}/INSTALL`) })
    await create(w, { source: '/install', destination: external(`${w.siteUrl}/a`) })
    await create(w, { source: '/x', destination: external('https://example.com/y') })
    await create(w, { source: '/y', destination: external(`${w.siteUrl}/x`) })
  })

  it('an update closing a loop names what it changed: the destination, the source, or `draft`', async () => {
    const w = await redirectWorld()
    await create(w, { source: '/a', destination: external(`${w.siteUrl}/b`) })
    const b = await create(w, { source: '/b', destination: external('https://example.com/') })
    const c = await create(w, { source: '/c', destination: external(`${w.siteUrl}/a`) })
    const draft = await create(w, { source: '/b2', draft: true, destination: external(`${w.siteUrl}/a`) })
    await expectRefused(
      w,
      w.http('PATCH', `/redirects/${b.id}`, { destination: external(`${w.siteUrl}/a`) }),
      'body field `destination`: the redirects would loop',
    )
    await w.http('DELETE', `/redirects/${b.id}`)
    await expectRefused(w, w.http('PATCH', `/redirects/${c.id}`, { source: '/b' }), 'body field `source`: the redirects would loop: /b → /a → /b')
    // A draft is in no loop until it goes live.
    await expectRefused(w, w.http('PATCH', `/redirects/${draft.id}`, { draft: false, source: '/b' }), 'body field `source`: the redirects would loop')
    const moved = await w.http('PATCH', `/redirects/${draft.id}`, { source: '/b' })
    expect(moved.status).toBe(200)
    await expectRefused(w, w.http('PATCH', `/redirects/${draft.id}`, { draft: false }), 'body field `draft`: the redirects would loop')
  })

  it('looks for loops through the rows of a bulk request as the whole request leaves them', async () => {
    const w = await redirectWorld()
    await create(w, { source: '/old', destination: external(`${w.siteUrl}/a`) })
    await expectRefused(
      w,
      w.http('PUT', '/redirects', {
        redirects: [
          { source: '/a', destination: external(`${w.siteUrl}/b`) },
          { source: '/b', destination: external(`${w.siteUrl}/a`) },
        ],
      }),
      'body field `redirects[0].destination`: the redirects would loop: /a → /b → /a',
    )
    // /a → /old loops through the existing /old → /a, which a later item deletes: no loop once the request is done.
    const res = await w.http('PUT', '/redirects', {
      redirects: [
        { source: '/a', destination: external(`${w.siteUrl}/old`) },
        { source: '/old', destination: null },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['created', 'deleted'])
  })
})
