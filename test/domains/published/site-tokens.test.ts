import { describe, expect, it } from 'vitest'
import { SignJWT, decodeJwt, decodeProtectedHeader, UnsecuredJWT } from 'jose'
import { createDocsApi } from '../../../src/index.js'
import { call, createWorld, expectError, resolveUrl, siteToken, type World } from '../../helpers.js'

/**
 * Site API tokens (docs/behaviour/published.md): the JWT that resolving a published URL gives, its
 * claims and lifetime, what it reads as a bearer (the site's published profile and the spaces it
 * publishes, nothing else), and when it stops working.
 */

const HOUR = 60 * 60 * 1000
const SECRET = 'a site token secret of at least 32 bytes'
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

/**
 * Acme with a published public site of two spaces (Handbook with a page and a file, the default;
 * Guide at `guide`), a private space of no site, a second published site, an open change request
 * and a comment in Handbook.
 */
async function setup(options: Parameters<typeof createWorld>[0] = {}) {
  const w = await createWorld(options)
  const space = async (title: string) => w.api.fixtures.createSpace(w.org.id, { title })
  const [handbook, guide, secret, elsewhere] = [await space('Handbook'), await space('Guide'), await space('Secret'), await space('Elsewhere')]
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(w.api, w.tokens.ada, method, path, body)
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
    return res.body
  }
  const cr = await ok('POST', `/v1/spaces/${handbook.id}/change-requests`, { subject: 'First pages' })
  await ok('POST', `/v1/spaces/${handbook.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', document: { markdown: '# Welcome\n\nHello.' } },
      { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG }] },
    ],
  })
  await ok('POST', `/v1/spaces/${handbook.id}/change-requests/${cr.id}/merge`)
  const draft = await ok('POST', `/v1/spaces/${handbook.id}/change-requests`, { subject: 'Work in progress' })
  const comment = await ok('POST', `/v1/spaces/${handbook.id}/comments`, { body: { markdown: 'Internal note' } })
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [handbook.id, guide.id], published: true })
  const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other', spaces: [elsewhere.id], published: true })
  const siteSpaces = (await ok('GET', `/v1/orgs/${w.org.id}/sites/${site.id}/site-spaces`)).items as Array<{ id: string }>
  const root = `https://docs.localhost/${w.org.id}/${site.id}`
  return { ...w, ok, handbook, guide, secret, elsewhere, draft, comment, site, other, siteSpaces, root }
}

type Setup = Awaited<ReturnType<typeof setup>>

const publishedPath = (w: World, site: string) => `/v1/orgs/${w.org.id}/sites/${site}/published`
/** The start of the UTC day of the world's clock, in seconds. */
const dayStart = (w: World) => {
  const now = w.clock.now()
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) / 1000
}

describe('site API tokens', () => {
  it("asks questions of its site (GitBook's renderer's Ask panel), and of no other", async () => {
    const w = await setup()
    const token = await siteToken(w.api, w.root)
    const ask = (site: string) =>
      w.api.fetch(
        new Request(`http://localhost:4000/v1/orgs/${w.org.id}/sites/${site}/ask`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ question: 'welcome', scope: { mode: 'all' } }),
        }),
      )
    const res = await ask(w.site.id)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    expect(await res.text()).toContain('Welcome')
    expect((await ask(w.other.id)).status).toBe(404)
  })

  describe('the token', () => {
    it("is a JWT (HS256) of the site's grant: kind, organization, site, site-space, space, the published spaces, the claims", async () => {
      const w = await setup()
      const res = await resolveUrl(w.api, `${w.root}/guide/intro`, { visitor: { unsignedClaims: { plan: 'pro', beta: true } } })
      expect(res.status).toBe(200)
      const token = res.body.apiToken as string
      expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' })
      const start = dayStart(w)
      expect(decodeJwt(token)).toEqual({
        kind: 'site',
        organization: w.org.id,
        site: w.site.id,
        siteSpace: w.siteSpaces[1]!.id,
        space: w.guide.id,
        spaces: [w.handbook.id, w.guide.id],
        visitorType: 'human',
        claims: { unsigned: { plan: 'pro', beta: true } },
        draft: false,
        // Issued at the start of the UTC day; valid until five minutes past the next midnight.
        iat: start,
        exp: start + 24 * 3600 + 5 * 60,
      })
      // An agent says so; a share-link site's token keeps the key it was opened with; sections name theirs.
      const agent = await resolveUrl(w.api, w.root, { visitor: { type: 'agent' } })
      expect(decodeJwt(agent.body.apiToken)).toMatchObject({ visitorType: 'agent', space: w.handbook.id, claims: { unsigned: {} } })
      const link = await w.ok('POST', `/v1/orgs/${w.org.id}/sites/${w.other.id}/share-links`, { name: 'Partners' })
      await w.ok('PATCH', `/v1/orgs/${w.org.id}/sites/${w.other.id}`, { visibility: 'share-link' })
      const key = decodeURIComponent(new URL(link.urls.published).pathname.split('/').pop()!)
      expect(decodeJwt(await siteToken(w.api, link.urls.published))).toMatchObject({ site: w.other.id, spaces: [w.elsewhere.id], shareKey: key })
      const section = await w.ok('POST', `/v1/orgs/${w.org.id}/sites/${w.site.id}/sections`, { spaceId: w.secret.id, title: 'Reference' })
      expect(decodeJwt(await siteToken(w.api, `${w.root}/secret`))).toMatchObject({
        siteSection: section.id,
        space: w.secret.id,
        spaces: [w.handbook.id, w.guide.id, w.secret.id],
      })
    })

    it('is the same for the same grant all day, and another the next day; the old one works until 00:05', async () => {
      const w = await setup()
      const first = await siteToken(w.api, `${w.root}/guide`)
      // Another page of the same site-space is the same grant; another site-space or other claims are not.
      expect(await siteToken(w.api, `${w.root}/guide/intro/setup`)).toBe(first)
      expect((await call(w.api, undefined, 'GET', `/v1/urls/published?url=${encodeURIComponent(`${w.root}/guide`)}`)).body.apiToken).toBe(first)
      expect(await siteToken(w.api, w.root)).not.toBe(first)
      expect((await resolveUrl(w.api, `${w.root}/guide`, { visitor: { unsignedClaims: { a: 1 } } })).body.apiToken).not.toBe(first)
      // Later the same day (the clock starts at 10:00 UTC): the same token.
      w.clock.advance(13 * HOUR + 50 * 60 * 1000)
      expect(await siteToken(w.api, `${w.root}/guide`)).toBe(first)
      // 00:03 the next day: a new token, issued for the new day; the old one still reads.
      w.clock.advance(13 * 60 * 1000)
      const second = await siteToken(w.api, `${w.root}/guide`)
      expect(second).not.toBe(first)
      expect(decodeJwt(second).iat).toBe(decodeJwt(first).iat! + 24 * 3600)
      expect((await call(w.api, first, 'GET', publishedPath(w, w.site.id))).status).toBe(200)
      // 00:06: the old one has expired; the new one reads.
      w.clock.advance(3 * 60 * 1000)
      expectError(await call(w.api, first, 'GET', publishedPath(w, w.site.id)), 401, 'Invalid or revoked access token')
      expect((await call(w.api, second, 'GET', publishedPath(w, w.site.id))).status).toBe(200)
    })
  })

  describe('as a bearer', () => {
    it('reads the published profile of its site and the spaces the site publishes: the space, its revisions, pages and files', async () => {
      const w = await setup()
      const token = await siteToken(w.api, w.root)
      const profile = await call(w.api, token, 'GET', publishedPath(w, w.site.id))
      expect(profile.status).toBe(200)
      expect(profile.body.structure.structure.map((s: { space: { id: string } }) => s.space.id)).toEqual([w.handbook.id, w.guide.id])
      // Both published spaces, not only the one of the URL.
      for (const space of [w.handbook, w.guide]) {
        const got = await call(w.api, token, 'GET', `/v1/spaces/${space.id}`)
        expect(got.status).toBe(200)
        expect(got.body).toMatchObject({ id: space.id, visibility: 'private', permissions: { view: true, edit: false, comment: false, admin: false } })
      }
      const base = `/v1/spaces/${w.handbook.id}`
      const revision = await call(w.api, token, 'GET', `${base}/content`)
      expect(revision.status).toBe(200)
      expect((await call(w.api, token, 'GET', `${base}/revisions/${revision.body.id}`)).status).toBe(200)
      const pages = await call(w.api, token, 'GET', `${base}/content/pages`)
      expect(pages.body.pages.map((p: { title: string }) => p.title)).toEqual(['Welcome'])
      const page = pages.body.pages[0]
      expect((await call(w.api, token, 'GET', `${base}/revisions/${revision.body.id}/pages`)).body.pages.map((p: { id: string }) => p.id)).toEqual([page.id])
      expect((await call(w.api, token, 'GET', `${base}/revisions/${revision.body.id}/page/${page.id}`)).body.title).toBe('Welcome')
      expect((await call(w.api, token, 'GET', `${base}/content/path/${page.path}`)).body.id).toBe(page.id)
      const files = await call(w.api, token, 'GET', `${base}/content/files`)
      expect(files.body.items.map((f: { name: string }) => f.name)).toEqual(['dot.png'])
      expect((await call(w.api, token, 'GET', `${base}/revisions/${revision.body.id}/files/${files.body.items[0].id}`)).status).toBe(200)
      expect((await call(w.api, token, 'GET', `${base}/search?query=hello`)).status).toBe(200)
      // In its organization's lists it sees those spaces only.
      const listed = await call(w.api, token, 'GET', `/v1/orgs/${w.org.id}/spaces`)
      expect(listed.body.items.map((s: { id: string }) => s.id).sort()).toEqual([w.handbook.id, w.guide.id].sort())
    })

    it('reads nothing else: other spaces and sites (404), work in progress and settings (403), user operations (401)', async () => {
      const w = await setup()
      const token = await siteToken(w.api, w.root)
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const before = w.api.dump()
      // Spaces the site does not publish, another site of the organization, another organization.
      expectError(await call(w.api, token, 'GET', `/v1/spaces/${w.secret.id}`), 404, 'Space not found')
      expectError(await call(w.api, token, 'GET', `/v1/spaces/${w.elsewhere.id}/content`), 404, 'Space not found')
      expectError(await call(w.api, token, 'GET', publishedPath(w, w.other.id)), 404, 'Site not found')
      expectError(await call(w.api, token, 'GET', `/v1/orgs/${beta.id}`), 404, 'Organization not found')
      // Change requests and comments of its spaces are the members' (403: the space is visible to it).
      const base = `/v1/spaces/${w.handbook.id}`
      for (const path of [`${base}/change-requests`, `${base}/change-requests/${w.draft.id}`, `${base}/comments`, `${base}/comments/${w.comment.id}`]) {
        expectError(await call(w.api, token, 'GET', path), 403, 'You need the read role on this space to do this')
      }
      // The site itself and its settings are the members' too.
      for (const path of ['', '/share-links', '/site-spaces', '/sections']) {
        expectError(await call(w.api, token, 'GET', `/v1/orgs/${w.org.id}/sites/${w.site.id}${path}`), 403, 'You need the read role on this site to do this')
      }
      expectError(await call(w.api, token, 'GET', `/v1/orgs/${w.org.id}/members`), 403, 'You need the read role on this organization to do this')
      // It writes nothing.
      expectError(await call(w.api, token, 'POST', `${base}/change-requests`, { subject: 'Mine' }), 403, 'You need the edit role on this space')
      expectError(await call(w.api, token, 'PATCH', `/v1/orgs/${w.org.id}/sites/${w.site.id}`, { title: 'Mine' }), 403, 'You need the edit role on this site')
      expectError(await call(w.api, token, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 'Mine' }), 403, 'You need the create role on this organization')
      // Operations of a user, or of no resource the policy table names: 401, with a message.
      for (const path of ['/v1/user', '/v1/orgs', '/v1/integrations']) {
        const res = await call(w.api, token, 'GET', path)
        expectError(res, 401, 'A site token reads the published content of its site: this operation needs a user token')
        expect(res.headers.get('www-authenticate')).toContain('invalid_token')
      }
      expect(w.api.dump()).toEqual(before)
    })

    it('a token the API did not sign, or no longer valid, is a 401: tampered, another key, another algorithm, `alg: none`, expired', async () => {
      const w = await setup({ siteTokenSecret: SECRET })
      const token = await siteToken(w.api, w.root)
      const [header, payload, signature] = token.split('.') as [string, string, string]
      const claims = decodeJwt(token)
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
      const secret = new TextEncoder().encode(SECRET)
      const reads = async (bearer: string) => (await call(w.api, bearer, 'GET', publishedPath(w, w.site.id))).status
      expect(await reads(token)).toBe(200)
      const forged = {
        // Another site named in the payload, the signature kept.
        tampered: `${header}.${encode({ ...claims, site: w.other.id, spaces: [w.elsewhere.id] })}.${signature}`,
        // The signature of another payload.
        swapped: `${header}.${payload}.${(await siteToken(w.api, `${w.root}/guide`)).split('.')[2]}`,
        // Signed with another key.
        otherKey: await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode('x'.repeat(32))),
        // The right key, another algorithm.
        hs512: await new SignJWT(claims).setProtectedHeader({ alg: 'HS512', typ: 'JWT' }).sign(secret),
        // No signature at all.
        none: new UnsecuredJWT(claims).encode(),
        // Signed right, but not a site token's payload.
        notSite: await new SignJWT({ ...claims, kind: 'user' }).setProtectedHeader({ alg: 'HS256' }).sign(secret),
        noSpaces: await new SignJWT({ ...claims, spaces: 'all' }).setProtectedHeader({ alg: 'HS256' }).sign(secret),
        // Signed right without an expiry.
        noExpiry: await new SignJWT({ ...claims, exp: undefined }).setProtectedHeader({ alg: 'HS256' }).sign(secret),
        malformed: `${header}.%%%.${signature}`,
      }
      for (const [name, bearer] of Object.entries(forged)) {
        const res = await call(w.api, bearer, 'GET', publishedPath(w, w.site.id))
        expect(res.status, name).toBe(401)
        expect(res.body.error.message, name).toBe('Invalid or revoked access token')
      }
      // A token the API signed with its key (as the siteTokenSecret option lets another process do) is accepted.
      const minted = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret)
      expect(await reads(minted)).toBe(200)
      // Past its expiry: 401, and resolving the URL again gives a valid one.
      w.clock.set(new Date((claims.exp! + 1) * 1000))
      expect(await reads(token)).toBe(401)
      expect(await reads(await siteToken(w.api, w.root))).toBe(200)
    })
  })

  describe('stops working when the site no longer opens to it', () => {
    /** What the token reads: the profile, and a published space. */
    const reads = async (w: Setup, token: string) => [
      (await call(w.api, token, 'GET', publishedPath(w, w.site.id))).status,
      (await call(w.api, token, 'GET', `/v1/spaces/${w.handbook.id}`)).status,
    ]

    it('the site is unpublished (until it is published again)', async () => {
      const w = await setup()
      const token = await siteToken(w.api, w.root)
      await w.api.fixtures.publishSite(w.org.id, w.site.id, false)
      expect(await reads(w, token)).toEqual([404, 404])
      await w.api.fixtures.publishSite(w.org.id, w.site.id, true)
      expect(await reads(w, token)).toEqual([200, 200])
    })

    it('its visibility changes from public to share-link or visitor-auth (not to unlisted)', async () => {
      const w = await setup()
      const token = await siteToken(w.api, w.root)
      const site = `/v1/orgs/${w.org.id}/sites/${w.site.id}`
      await w.ok('PATCH', site, { visibility: 'unlisted' })
      expect(await reads(w, token)).toEqual([200, 200])
      for (const visibility of ['share-link', 'visitor-auth']) {
        await w.ok('PATCH', site, { visibility })
        expect(await reads(w, token), visibility).toEqual([404, 404])
      }
      await w.ok('PATCH', site, { visibility: 'public' })
      expect(await reads(w, token)).toEqual([200, 200])
    })

    it('the share link it was opened with is deactivated or deleted (another link of the site does not keep it)', async () => {
      const w = await setup()
      const site = `/v1/orgs/${w.org.id}/sites/${w.site.id}`
      await w.ok('PATCH', site, { visibility: 'share-link' })
      const link = await w.ok('POST', `${site}/share-links`, { name: 'Partners' })
      const second = await w.ok('POST', `${site}/share-links`, { name: 'Others' })
      const token = await siteToken(w.api, link.urls.published)
      const secondToken = await siteToken(w.api, second.urls.published)
      expect(await reads(w, token)).toEqual([200, 200])
      await w.ok('PATCH', `${site}/share-links/${link.id}`, { active: false })
      expect(await reads(w, token)).toEqual([404, 404])
      expect(await reads(w, secondToken)).toEqual([200, 200])
      await w.ok('PATCH', `${site}/share-links/${link.id}`, { active: true })
      expect(await reads(w, token)).toEqual([200, 200])
      await w.ok('DELETE', `${site}/share-links/${link.id}`)
      expect(await reads(w, token)).toEqual([404, 404])
      // A token of the site while it was public carries no key: share-link closes it.
      await w.ok('PATCH', site, { visibility: 'public' })
      const open = await siteToken(w.api, w.root)
      await w.ok('PATCH', site, { visibility: 'share-link' })
      expect(await reads(w, open)).toEqual([404, 404])
      expect(await reads(w, secondToken)).toEqual([200, 200])
    })

    it('a space leaves the site or is trashed: that space closes, the rest still reads', async () => {
      const w = await setup()
      const token = await siteToken(w.api, w.root)
      const guide = async () => (await call(w.api, token, 'GET', `/v1/spaces/${w.guide.id}`)).status
      await w.ok('DELETE', `/v1/spaces/${w.handbook.id}`)
      expect(await reads(w, token)).toEqual([200, 404])
      await w.ok('POST', `/v1/spaces/${w.handbook.id}/restore`)
      expect(await reads(w, token)).toEqual([200, 200])
      await w.ok('DELETE', `/v1/orgs/${w.org.id}/sites/${w.site.id}/site-spaces/${w.siteSpaces[1]!.id}`)
      expect(await guide()).toBe(404)
      expect(await reads(w, token)).toEqual([200, 200])
      // Back in the site, it reads again (it is in the token's grant); a space the site publishes after
      // the token was issued is not: a new token reads it.
      await w.ok('POST', `/v1/orgs/${w.org.id}/sites/${w.site.id}/site-spaces`, { spaceId: w.guide.id })
      expect(await guide()).toBe(200)
      await w.ok('POST', `/v1/orgs/${w.org.id}/sites/${w.site.id}/site-spaces`, { spaceId: w.secret.id })
      expect((await call(w.api, token, 'GET', `/v1/spaces/${w.secret.id}`)).status).toBe(404)
      expect((await call(w.api, await siteToken(w.api, w.root), 'GET', `/v1/spaces/${w.secret.id}`)).status).toBe(200)
    })
  })

  describe('the siteTokenSecret option', () => {
    it('two APIs with the same secret accept each other’s tokens; with their own random keys they do not', async () => {
      // Two copies of the same world (sequential ids, the same clock): the grant names the same rows in both.
      const [a, b] = [await setup({ siteTokenSecret: SECRET }), await setup({ siteTokenSecret: SECRET })]
      expect(b.site.id).toBe(a.site.id)
      const fromA = await siteToken(a.api, a.root)
      expect((await call(b.api, fromA, 'GET', publishedPath(b, b.site.id))).status).toBe(200)
      expect((await call(a.api, await siteToken(b.api, b.root), 'GET', `/v1/spaces/${a.handbook.id}`)).status).toBe(200)
      // Same grant, same day, same secret: the same token.
      expect(await siteToken(b.api, b.root)).toBe(fromA)
      const [c, d] = [await setup(), await setup()]
      const fromC = await siteToken(c.api, c.root)
      expectError(await call(d.api, fromC, 'GET', publishedPath(d, d.site.id)), 401, 'Invalid or revoked access token')
      expect((await call(c.api, fromC, 'GET', publishedPath(c, c.site.id))).status).toBe(200)
    })

    it('a secret shorter than 32 bytes throws at createDocsApi', () => {
      expect(() => createDocsApi({ siteTokenSecret: 'x'.repeat(31) })).toThrow('siteTokenSecret must be at least 32 bytes long (HS256)')
      expect(() => createDocsApi({ siteTokenSecret: '' })).toThrow('siteTokenSecret must be at least 32 bytes long')
      // Bytes, not characters: 16 two-byte characters are enough.
      expect(() => createDocsApi({ siteTokenSecret: 'é'.repeat(16) })).not.toThrow()
      expect(() => createDocsApi({ siteTokenSecret: 'x'.repeat(32) })).not.toThrow()
    })
  })
})

describe('site token caches', () => {
  it('keep no grant whose claims are larger than the cache takes (the caller sends them), whatever their number', async () => {
    const { createSiteTokens, remember, SITE_TOKEN_CACHE, SITE_TOKEN_CACHE_KEY_CHARS } = await import('../../../src/domains/published/site-tokens.js')
    const tokens = createSiteTokens()
    remember(tokens.minted, 'x'.repeat(SITE_TOKEN_CACHE_KEY_CHARS + 1), 'token')
    expect(tokens.minted.size).toBe(0)
    for (let i = 0; i < SITE_TOKEN_CACHE + 10; i++) remember(tokens.minted, `key ${i}`, 'token')
    expect(tokens.minted.size).toBe(SITE_TOKEN_CACHE)
    expect(tokens.minted.has('key 0')).toBe(false)
  })
})
